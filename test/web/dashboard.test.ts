import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';
import { DOLLAR_STATEMENT, EURO_STATEMENT } from '../../support/statement-files.ts';

/**
 * The dashboard as an overview across bank accounts: a euro and a dollar statement imported,
 * one euro entry matched; each account's share, what is open (money in, money out, net) with its
 * currency, its closing balance on the day the bank wrote (read west of Greenwich), a link to
 * exactly the open rows, and a month without transactions shown as a gap.
 */
describe('web app: the dashboard across bank accounts', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;

  before(async () => {
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
    const base = `/v1/api/${organization.orgId}`;
    const { datasetId: euroId, sourceId } = await createDataset(server, organization, { name: 'Current account' });
    const { datasetId: dollarId } = await createDataset(server, organization, { name: 'Dollar account', sourceId });
    const { datasetId: ledgerId } = await createDataset(server, organization, { name: 'Ledger', sourceId });
    for (const [datasetId, file] of [
      [euroId, EURO_STATEMENT],
      [dollarId, DOLLAR_STATEMENT],
    ] as const) {
      const response = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/octet-stream' },
        body: file,
      });
      assert.equal(response.status, 201, await response.text());
    }
    const rows = (await api(server, organization.token, 'POST', `${base}/transactions`, { datasetId: euroId })).body as { id: string; description: string }[];
    const ledger = await addTransactions(server, organization, ledgerId, [
      { externalId: 'x', timestamp: Date.UTC(2026, 0, 20), amount: '100.00', currency: 'EUR' },
    ]);
    const matched = await api(server, organization.token, 'POST', `${base}/matches`, {
      links: [{ originId: rows.find((row) => row.description === 'Invoice 7')!.id, targetId: ledger.x, amount: '100.00' }],
    });
    assert.equal(matched.status, 201, JSON.stringify(matched.body));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const MONTHS: Record<string, string> = { '2026-01': 'Jan 2026', '2026-02': 'Feb 2026', '2026-03': 'Mar 2026' };

  /** Chooses the period's months and waits for the table of months to show it. */
  async function choosePeriod(page: Page, from: string, to: string): Promise<void> {
    const overview = page.getByRole('region', { name: 'Bank accounts' });
    await overview.getByLabel('From month').fill(from);
    await overview.getByLabel('To month').fill(to);
    const rows = overview.getByRole('table', { name: 'Reconciled share by month, per account' }).getByRole('row');
    await rows.nth(1).filter({ hasText: MONTHS[from]! }).waitFor();
    await rows.last().filter({ hasText: MONTHS[to]! }).waitFor();
  }

  const card = (page: Page, name: string) =>
    page
      .getByRole('region', { name: 'Bank accounts' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name }) });

  it('shows each account with its share, open amounts with currency and closing balance, links to exactly the open rows, and gaps for empty months', async () => {
    const page = await signInPage(browser, server, organization, { timezoneId: 'America/Los_Angeles', locale: 'en-US' });
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { name: 'Bank accounts' }).waitFor();
    await choosePeriod(page, '2026-01', '2026-03');

    const euro = card(page, 'Current account');
    await euro.getByText('Mar 31, 2026').waitFor();
    const euroText = ((await euro.textContent()) ?? '').replace(/\s+/g, ' ');
    assert.match(euroText, /Reconciled\s*33\.33% \(1 of 3\)/);
    assert.match(euroText, /2 open transactions/);
    assert.match(euroText, /Open money in\s*350\.00 EUR/);
    assert.match(euroText, /Open money out\s*−25\.50 EUR/);
    // Netted as the statement sums its entries: 350.00 − 25.50, not 375.50.
    assert.match(euroText, /Open net\s*324\.50 EUR/);
    assert.match(euroText, /Closing balance\s*1,424\.50 EUR on Mar 31, 2026/);
    assert.doesNotMatch(euroText, /375\.50/);

    const dollar = card(page, 'Dollar account');
    const dollarText = ((await dollar.textContent()) ?? '').replace(/\s+/g, ' ');
    assert.match(dollarText, /Reconciled\s*0% \(0 of 2\)/);
    assert.match(dollarText, /Open money in\s*20\.00 USD/);
    assert.match(dollarText, /Open money out\s*−80\.00 USD/);
    assert.match(dollarText, /Open net\s*−60\.00 USD/);
    assert.match(dollarText, /Closing balance\s*−50\.00 USD on Mar 30, 2026/);

    // Every month of the period is on the axis: February has no transactions and is a gap, not skipped.
    const months = page.getByRole('table', { name: 'Reconciled share by month, per account' });
    assert.deepEqual((await months.getByRole('row').allTextContents()).slice(1), [
      'Jan 202650% of 2No transactions',
      'Feb 2026No transactionsNo transactions',
      'Mar 20260% of 10% of 2',
    ]);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'dashboard-overview', true);
    await page.setViewportSize({ width: 390, height: 844 });
    assert.ok(((await page.evaluate('document.documentElement.scrollWidth')) as number) <= 390, 'no sideways scrolling on a phone');
    await page.setViewportSize({ width: 1400, height: 900 });

    // A shorter period: February alone has nothing, and is still shown.
    await choosePeriod(page, '2026-02', '2026-02');
    await months.getByRole('row', { name: /Feb 2026/ }).waitFor();
    assert.deepEqual((await months.getByRole('row').allTextContents()).slice(1), ['Feb 2026No transactionsNo transactions']);
    assert.match((await euro.textContent()) ?? '', /Nothing open/);
    await choosePeriod(page, '2026-01', '2026-03');

    // The open link: the explorer on exactly the two open euro rows of the period.
    await euro.getByRole('link', { name: '2 open transactions' }).click();
    const grid = page.getByRole('grid', { name: 'Transactions' });
    await grid.getByRole('row', { name: /Customer payment/ }).waitFor();
    await grid.getByRole('row', { name: /Bank fee/ }).waitFor();
    assert.equal(await grid.getByRole('row', { name: /Invoice 7/ }).count(), 0);
    assert.equal(await page.getByLabel('From', { exact: true }).inputValue(), '2026-01-01');
    assert.equal(await page.getByLabel('To', { exact: true }).inputValue(), '2026-03-31');
    assert.ok(await page.getByRole('checkbox', { name: 'Not matched' }).isChecked());
    assert.ok(await page.getByRole('checkbox', { name: 'Partly matched' }).isChecked());
    assert.ok(!(await page.getByRole('checkbox', { name: 'Matched', exact: true }).isChecked()));
    await page.getByText(/2 found of 3 in the dataset/).waitFor();
    await page.context().close();
  });
});
