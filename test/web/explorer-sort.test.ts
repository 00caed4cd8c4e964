import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

/**
 * The explorer sorted from its column headers: by date, amount and description, either way, the
 * sort kept in the address (reload, back, a shared link) and together with the filters, and the
 * sorting headers above the cards on a phone.
 */
describe('the transactions explorer, sorted from its headers', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  let datasetId = '';

  before(async () => {
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
    ({ datasetId } = await createDataset(server, organization, { name: 'Operating account' }));
    const day = (date: string) => Date.parse(`${date}T00:00:00Z`);
    await addTransactions(server, organization, datasetId, [
      { externalId: 'kestrel', timestamp: day('2026-10-01'), amount: '1000.00', currency: 'EUR', description: 'KESTREL AVIATION' },
      { externalId: 'rent', timestamp: day('2026-10-03'), amount: '-1000.50', currency: 'EUR', description: 'bayside rent october' },
      { externalId: 'alder', timestamp: day('2026-10-05'), amount: '250.00', currency: 'EUR', description: 'ALDER STATIONERY' },
      { externalId: 'westcott', timestamp: day('2026-10-07'), amount: '1000.00', currency: 'EUR', description: 'WESTCOTT DENTAL' },
      { externalId: 'alder-2', timestamp: day('2026-10-09'), amount: '0.10', currency: 'EUR', description: 'Alder Stationery' },
    ]);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const cells = (page: Page, column: string) => page.locator(`.grid-row [data-column="${column}"]`).allTextContents();
  const header = (page: Page, name: string) => page.getByRole('columnheader', { name: new RegExp(`^${name}`) });
  /** Waits until the first row's description is `first` (as Playwright matches text: in any case). */
  const firstIs = (page: Page, first: string) => page.locator('.grid-row').first().locator('[data-column="description"]', { hasText: first }).waitFor();

  it('sorts by amount and description either way, keeps the sort in the address, and fits a phone', async () => {
    const page = await signInPage(browser, server, organization);
    await page.goto(`${server.baseUrl}/transactions?dataset=${datasetId}`);
    await page.getByText('5 transactions; scroll or drag anywhere').waitFor();
    await firstIs(page, 'KESTREL AVIATION');
    assert.equal(await header(page, 'Date').getAttribute('aria-sort'), 'ascending');
    assert.equal(await header(page, 'Amount').getAttribute('aria-sort'), null);

    // Amount: smallest first, then largest first, compared as amounts (not as text).
    await header(page, 'Amount').getByRole('button').click();
    await firstIs(page, 'bayside rent october');
    assert.equal(await header(page, 'Amount').getAttribute('aria-sort'), 'ascending');
    assert.equal(await header(page, 'Date').getAttribute('aria-sort'), null);
    assert.deepEqual(await cells(page, 'amount'), ['−1,000.50 EUR', '0.10 EUR', '250.00 EUR', '1,000.00 EUR', '1,000.00 EUR']);
    assert.match(page.url(), /sort=amount/);
    await header(page, 'Amount').getByRole('button').click();
    await page.locator('.grid-row').last().locator('[data-column="description"]', { hasText: 'bayside rent october' }).waitFor();
    assert.equal(await header(page, 'Amount').getAttribute('aria-sort'), 'descending');
    assert.deepEqual(await cells(page, 'amount'), ['1,000.00 EUR', '1,000.00 EUR', '250.00 EUR', '0.10 EUR', '−1,000.50 EUR']);
    assert.match(page.url(), /sort=amount&order=desc/);

    // Description: A to Z whatever the case, then Z to A by keyboard.
    await header(page, 'Description').getByRole('button').click();
    // (the two Alder rows tie, in either case: the id decides, and the row matches either)
    await firstIs(page, 'ALDER STATIONERY');
    assert.equal(await header(page, 'Description').getAttribute('aria-sort'), 'ascending');
    const byDescription = await cells(page, 'description');
    assert.deepEqual(
      byDescription.map((text) => text.toLowerCase()),
      ['alder stationery', 'alder stationery', 'bayside rent october', 'kestrel aviation', 'westcott dental'],
    );
    await screenshotsAt(page, 'explorer-sorted');
    await page.reload();
    await page.getByText('5 transactions; scroll or drag anywhere').waitFor();
    await firstIs(page, 'ALDER STATIONERY');
    assert.equal(await header(page, 'Description').getAttribute('aria-sort'), 'ascending', 'a reload keeps the sort');
    await header(page, 'Description').getByRole('button').focus();
    await page.keyboard.press('Enter');
    await firstIs(page, 'WESTCOTT DENTAL');
    assert.equal(await header(page, 'Description').getAttribute('aria-sort'), 'descending');
    assert.match((await header(page, 'Description').getByRole('button').getAttribute('title')) ?? '', /^Z to A; choose to show A to Z$/);

    // Back: the sort before. A filter keeps the sort; a shared link shows both.
    await page.goBack();
    await firstIs(page, 'ALDER STATIONERY');
    await page.getByLabel('Amount from').fill('1');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('3 found of 5 in the dataset').waitFor();
    assert.deepEqual(await cells(page, 'description'), ['ALDER STATIONERY', 'KESTREL AVIATION', 'WESTCOTT DENTAL']);
    const shared = await signInPage(browser, server, organization);
    await shared.goto(page.url());
    await shared.getByText('3 found of 5 in the dataset').waitFor();
    await firstIs(shared, 'ALDER STATIONERY');
    assert.equal(await header(shared, 'Description').getAttribute('aria-sort'), 'ascending');
    await shared.context().close();
    assert.deepEqual(await seriousViolations(page), []);

    // On a phone the three sorting headers stay above the cards.
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByText('5 transactions; scroll or drag anywhere').waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('[role="grid"].stacked').waitFor();
    for (const name of ['Date', 'Amount', 'Description']) assert.ok(await header(page, name).getByRole('button').isVisible(), name);
    await header(page, 'Amount').getByRole('button').click();
    await firstIs(page, 'bayside rent october');
    assert.ok(Number(await page.evaluate('document.documentElement.scrollWidth')) <= 390);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'explorer-sorted-phone', true);
    await page.context().close();
  });
});
