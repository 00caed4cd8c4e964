import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, copiedBy, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { waitFor } from '../../support/wait.ts';
import { api, createTestOrganization, requestToken, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * The datasets screen and the audit trail in a real Chromium: a dataset's columns in words, its id
 * for the API with a copy button, "Import a file" with the dataset chosen, rename and archive;
 * then the trail newest first, the rename as a difference in words, filters by person and action
 * kept in the URL, and the CSV export read back.
 */
describe('datasets and the audit trail in the web app', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  let page: Page;
  let datasetId: string;
  let ledgerId: string;
  /** A client whose name a spreadsheet would run as a formula, were it not quoted. */
  const clientName = '=HYPERLINK("http://example.com")';

  before(async () => {
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
    const call = (token: string, method: string, path: string, body?: unknown) => api(server, token, method, `/v1/api/${organization.orgId}${path}`, body);
    const source = await call(organization.token, 'POST', '/sources', { name: 'Northwind Bank' });
    const dataset = await call(organization.token, 'POST', `/sources/${source.body.id}/datasets`, {
      name: 'Current account',
      columns: [{ name: 'invoiceNumber', type: 'string' }],
    });
    datasetId = dataset.body.id;
    const ledger = await call(organization.token, 'POST', `/sources/${source.body.id}/datasets`, { name: 'Ledger' });
    ledgerId = ledger.body.id;
    const created = await call(organization.token, 'POST', '/clients', { name: clientName, role: 'Full member' });
    assert.equal(created.status, 201);
    const robot = await requestToken(server, created.body.clientId, created.body.clientSecret);
    assert.equal((await call(robot, 'PATCH', `/datasets/${ledgerId}`, { name: 'General ledger' })).status, 200);
    page = await signInPage(browser, server, organization, { timezoneId: 'America/Los_Angeles', permissions: ['clipboard-read', 'clipboard-write'] });
  });
  /** At a phone's width nothing scrolls sideways: neither the page nor a card (tables become stacked cards). */
  async function assertFitsAPhone() {
    await page.setViewportSize({ width: 390, height: 844 });
    // A string, as the test's own code has no DOM types.
    const overflowing = await page.evaluate(`({
      page: document.documentElement.scrollWidth,
      wide: [...document.querySelectorAll('.card, table')].filter((element) => element.scrollWidth > element.clientWidth + 1).map((element) => element.className),
    })`);
    await page.setViewportSize({ width: 1400, height: 900 });
    assert.deepEqual(overflowing, { page: 390, wide: [] });
  }
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it("lists each dataset's columns in words and its id for the API, and leads to its import", async () => {
    const row = page.getByRole('row', { name: /Current account/ });
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    assert.match(text, /Invoice number — text/);
    assert.doesNotMatch(text, /invoiceNumber: string/);
    assert.match(text, new RegExp(`Dataset id for the API: ?${datasetId}`));
    const copied = await copiedBy(page, async () => {
      await page.getByRole('button', { name: 'Copy the API id of Current account' }).click();
      await page.getByRole('button', { name: 'Copied the API id of Current account' }).waitFor();
    });
    assert.equal(copied, datasetId);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'datasets-screen', true);
    await assertFitsAPhone();

    await row.getByRole('link', { name: 'Import a file' }).click();
    await page.getByRole('heading', { name: 'Import a file' }).waitFor();
    // The screen chooses the dataset once its list of datasets has arrived.
    await waitFor(async () => (await page.getByLabel('Into dataset').inputValue()) === datasetId, 'the import screen to choose the dataset', 10_000);
    assert.match(page.url(), new RegExp(`/imports\\?dataset=${datasetId}$`));
    await page.goBack();
    await page.getByRole('heading', { name: 'Sources and datasets' }).waitFor();
  });

  it('renames a dataset and archives it: hidden from the pickers, listed apart with its transactions kept', async () => {
    await page.getByRole('button', { name: 'Rename Current account' }).click();
    await page.getByLabel('New name').fill('Operating account');
    await page.getByRole('button', { name: 'Save the name' }).click();
    await page.getByText('Current account is now called Operating account.').waitFor();
    await page.getByRole('link', { name: 'Operating account', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Archive Operating account' }).click();
    await page.getByText(/^Archive Operating account\? It is hidden from the lists and pickers/).waitFor();
    await page.getByRole('button', { name: 'Archive the dataset' }).click();
    await page.getByText('Operating account is archived: hidden from the other screens, its transactions and matches kept.').waitFor();
    // The list is read again after the archive: wait for the link to go rather than count at once.
    await page.getByRole('link', { name: 'Operating account', exact: true }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Show 1 archived dataset' }).click();
    await page.getByRole('heading', { name: 'Archived datasets' }).waitFor();
    await page.getByRole('button', { name: 'Restore Operating account' }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);

    await page.getByRole('link', { name: 'Imports' }).first().click();
    await page.getByRole('heading', { name: 'Import a file' }).waitFor();
    const choices = await page.getByLabel('Into dataset').locator('option').allTextContents();
    assert.ok(
      choices.some((choice) => choice.includes('General ledger')),
      choices.join(', '),
    );
    assert.ok(!choices.some((choice) => choice.includes('Operating account')), choices.join(', '));
  });

  it('reads the audit trail newest first, the rename in words, filtered by person and action in the URL, and exports it as CSV', async () => {
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    const rows = page.locator('table.audit-table tbody tr');
    await rows.first().waitFor();
    const times = await page
      .locator('table.audit-table tbody time')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('datetime') ?? ''));
    assert.deepEqual(times, [...times].sort().reverse(), 'newest first');
    const first = (await rows.nth(0).textContent()) ?? '';
    assert.match(first, /Dataset archived/);
    assert.match(first, new RegExp(organization.user!.email.replace(/[.+]/g, '\\$&')));
    assert.match(first, /Status: active → archived/);
    const second = (await rows.nth(1).textContent()) ?? '';
    assert.match(second, /Dataset changed/);
    assert.match(second, /Name: Current account → Operating account/);
    // Who did it is named, never an id; times carry their zone.
    const body = (await page.locator('main').textContent()) ?? '';
    assert.doesNotMatch(body, /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    assert.doesNotMatch(body, /client:|user:/);
    assert.match(body, /PST|PDT|GMT-[78]/);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'audit-trail', true);
    await assertFitsAPhone();

    await page.getByLabel('Action').selectOption({ label: 'Dataset changed' });
    await page.waitForURL(/action=dataset\.updated/);
    await page.getByText('Name: Ledger → General ledger').waitFor();
    assert.equal(await rows.count(), 2);
    assert.equal(await page.getByRole('cell', { name: clientName, exact: true }).count(), 1, 'the client is named by its name');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as CSV' }).click()]);
    const records: Record<string, string>[] = parse(readFileSync((await download.path())!, 'utf8'), { columns: true, skip_empty_lines: true });
    assert.deepEqual(
      records.map((record) => [record.Who, record.What, record.Change]),
      [
        [organization.user!.email, 'Dataset changed', 'Name: Current account → Operating account'],
        [`'${clientName}`, 'Dataset changed', 'Name: Ledger → General ledger'],
      ],
    );
    for (const record of records) assert.match(record['When (UTC)']!, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    assert.equal(records[0]!.Object, 'Dataset Operating account');

    await page.getByLabel('Who').selectOption({ label: organization.user!.email });
    await page.waitForURL(/who=/);
    await page.getByText('Name: Ledger → General ledger').waitFor({ state: 'detached' });
    await page.getByText('Name: Current account → Operating account').waitFor();
    assert.equal(await rows.count(), 1);
    // The filters are in the URL: a reload keeps them.
    await page.reload();
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    await page.getByText('Name: Current account → Operating account').waitFor();
    assert.equal(await page.getByLabel('Action').inputValue(), 'dataset.updated');
    assert.equal(await page.getByLabel('Who').inputValue(), `user:${organization.user!.email}`);
    assert.equal(await rows.count(), 1);
    await screenshotsAt(page, 'audit-trail-filtered');
  });
});
