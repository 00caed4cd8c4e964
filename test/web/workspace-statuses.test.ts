import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

/**
 * The workspace's rows say their status in the words of the rest of the app (the explorer's
 * table and filters): "Not matched", "Partly matched" with what is still open, "Informative".
 */
describe('the matching workspace, statuses in words', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;

  before(async () => {
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
    const base = `/v1/api/${organization.orgId}`;
    const { datasetId: ledger } = await createDataset(server, organization, { name: 'General ledger' });
    const { datasetId: bank } = await createDataset(server, organization, { name: 'Operating account' });
    assert.equal(
      (await api(server, organization.token, 'PATCH', `${base}/datasets/${bank}`, { accountId: 'NL91ABNA0417164300', currency: 'EUR' })).status,
      200,
    );
    const day = (date: string) => Date.parse(`${date}T00:00:00Z`);
    const rows = await addTransactions(server, organization, bank, [
      { externalId: 'open', timestamp: day('2026-03-02'), amount: '-45.00', currency: 'EUR', description: 'Bank fee March' },
      { externalId: 'partial', timestamp: day('2026-03-03'), amount: '1200.00', currency: 'EUR', description: 'Transfer from Hartley & Sons' },
      { externalId: 'marked', timestamp: day('2026-03-04'), amount: '0.01', currency: 'EUR', description: 'Interest' },
    ]);
    const ledgerRows = await addTransactions(server, organization, ledger, [
      { externalId: 'invoice', timestamp: day('2026-03-01'), amount: '1000.00', currency: 'EUR', description: 'Invoice INV-0311' },
    ]);
    const matched = await api(server, organization.token, 'POST', `${base}/matches`, {
      links: [{ originId: rows.partial, targetId: ledgerRows.invoice, amount: '1000.00' }],
    });
    assert.equal(matched.status, 201, JSON.stringify(matched.body));
    const marked = await api(server, organization.token, 'PATCH', `${base}/transactions/${rows.marked}`, { reconciliationStatus: 'informative' });
    assert.equal(marked.status, 200, JSON.stringify(marked.body));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows "Not matched", "Partly matched" with the amount open, and a mark by its name', async () => {
    const page = await signInPage(browser, server, organization);
    await page.getByRole('link', { name: 'Matching' }).click();
    const left = page.getByRole('listbox', { name: 'Left transactions' });
    const status = (name: RegExp) => left.getByRole('option', { name }).locator('.status').innerText();
    await left.getByRole('option', { name: /Bank fee March/ }).waitFor();
    assert.equal(await status(/Bank fee March/), 'Not matched');
    assert.equal(await status(/Hartley/), 'Partly matched\n200.00 EUR open');
    await page.getByRole('region', { name: 'Left side' }).getByLabel('Show the marked ones').check();
    await left.getByRole('option', { name: /Interest/ }).waitFor();
    assert.equal(await status(/Interest/), 'Informative');
    await page.getByRole('region', { name: 'Left side' }).getByLabel('Show the marked ones').uncheck();
    await left.getByRole('option', { name: /Hartley/ }).click();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'workspace-statuses', true);
    await page.context().close();
  });
});
