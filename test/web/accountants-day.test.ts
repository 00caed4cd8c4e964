import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * An accountant's day, through the app's screens only: sign in, create the bank's dataset and
 * import a real bank statement into it (Handelsbanken UK's camt.053), create the ledger's and
 * import its export with the mapper, find the bank's rows in the explorer, match the bank charge
 * with its ledger line in the workspace, and read the account's reconciled share on the dashboard.
 */
const BANK_FILE = 'test/fixtures/imports/camt.053/handelsbanken-uk-gbp-short-amounts-v02.xml';
const LEDGER = ['Date,Description,Amount,Currency', '2015-04-28,Bank charges April,-1.60,GBP', '2015-04-30,Office rent May,-950.00,GBP'].join('\r\n');

describe("an accountant's day in the web app", { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  let folder: string;

  before(async () => {
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
    folder = mkdtempSync(path.join(tmpdir(), 'accountants-day-'));
    writeFileSync(path.join(folder, 'ledger-april.csv'), LEDGER);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Creates a source and a dataset on the datasets screen; the app then offers its import. */
  async function createDataset(page: Page, source: string, dataset: string): Promise<void> {
    await page.getByRole('link', { name: 'Datasets' }).first().click();
    await page.getByLabel('New source').fill(source);
    await page.getByRole('button', { name: 'Create source' }).click();
    await page.getByRole('heading', { name: source }).waitFor();
    await page.getByRole('button', { name: `Add a dataset to ${source}` }).click();
    await page.getByLabel('Dataset name').fill(dataset);
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await page.getByRole('heading', { name: 'Import a file' }).waitFor();
    // The list of datasets has just gained the new one: the choice follows it.
    const chosen = page.getByLabel('Into dataset').locator('option:checked');
    for (let tries = 0; tries < 50 && (await chosen.textContent()) !== `${source} · ${dataset}`; tries++) await page.waitForTimeout(100);
    assert.equal(await chosen.textContent(), `${source} · ${dataset}`);
  }

  it('signs in, imports the bank statement and the ledger, explores, matches and reads the reconciled share', async () => {
    // Sign in on the sign-in screen.
    const page = await signInPage(browser, server, organization, { timezoneId: 'Europe/London', locale: 'en-GB' });

    // The bank's statement, as the bank sent it.
    await createDataset(page, 'Handelsbanken UK', 'Current account GBP');
    await page.locator('input[type=file]').setInputFiles(BANK_FILE);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const report = page.getByRole('region', { name: 'Import report' });
    await report.getByRole('heading', { name: /imported$/ }).waitFor();
    assert.match((await report.textContent()) ?? '', /2 entries read · 2 new/);

    // The ledger's export, read with the mapper: its header is understood, nothing to pick.
    await createDataset(page, 'Books', 'Ledger');
    await page.locator('input[type=file]').setInputFiles(path.join(folder, 'ledger-april.csv'));
    const stored = page.locator('table.mapper-result');
    await stored.getByText('Bank charges April').waitFor();
    assert.equal(await stored.getByText('Reads').count(), 2);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await report.getByRole('heading', { name: 'ledger-april.csv: imported' }).waitFor();

    // The bank's rows in the explorer, as the bank wrote them.
    await page.getByRole('link', { name: 'Transactions' }).click();
    await page.getByRole('heading', { name: 'Transactions' }).waitFor();
    await page.locator('form.filters select').selectOption({ label: 'Handelsbanken UK · Current account GBP' });
    await page.getByText('2 transactions; scroll or drag anywhere').waitFor();
    const charge = page.getByRole('row', { name: /Message to beneficiary line 1/ });
    assert.match(await charge.innerText(), /^28 Apr 2015\n−1\.60 GBP\nNot matched\n/);

    // The workspace opens on the bank facing the ledger: the charge is matched with its ledger line.
    await page.getByRole('link', { name: 'Matching' }).click();
    const left = page.getByRole('listbox', { name: 'Left transactions' });
    const right = page.getByRole('listbox', { name: 'Right transactions' });
    await left.getByRole('option', { name: /Message to beneficiary line 1/ }).click();
    await right.getByRole('option', { name: /Bank charges April/ }).click();
    await page.getByText('Difference 0.00').waitFor();
    await page.getByRole('button', { name: 'Match selected' }).click();
    await page.getByText('Matched: 1 link in one group.').waitFor();
    await left.getByRole('option', { name: /Message to beneficiary line 1/ }).waitFor({ state: 'detached' });

    // The explorer says so, and the dashboard counts it: one of the account's two entries is reconciled.
    await page.goBack();
    await page.getByText('2 transactions; scroll or drag anywhere').waitFor();
    await charge.getByText('Matched', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Dashboard' }).click();
    const account = page.getByRole('region', { name: 'Bank accounts' }).getByRole('listitem').filter({ hasText: 'Current account GBP' });
    // The dashboard opens on the last twelve months; the statement is of April 2015.
    await account.getByText('Closing balance').waitFor();
    await page.getByLabel('From month').fill('2015-04');
    await page.getByLabel('To month').fill('2015-04');
    await account.getByText('50% (1 of 2)').waitFor();
    assert.equal(await page.getByLabel('From month').inputValue(), '2015-04');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'accountants-day-dashboard', true);
    await page.context().close();
  });
});
