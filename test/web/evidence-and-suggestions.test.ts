import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

/**
 * Suggestions and matches read in words: a suggestion shows the transaction to match and each
 * option side by side (date, description, reference, counterparty, amount, difference) with its
 * evidence in sentences, and says what it matched once confirmed; the explorer's details name a
 * match's counterpart by description, date and amount (a link to its group) and tell the history
 * in sentences. In Los Angeles, where a date-only booking read in the browser's zone is a day early.
 */
describe('suggestions and matches in words', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  const ids: Record<string, string> = {};
  const call = (method: string, path: string, body?: unknown) => api(server, organization.token, method, `/v1/api/${organization.orgId}${path}`, body);

  before(async () => {
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
    const { datasetId: bank } = await createDataset(server, organization, { name: 'Operating account' });
    const { datasetId: ledger } = await createDataset(server, organization, { name: 'Cash at bank' });
    const day = (date: string) => Date.parse(`${date}T00:00:00Z`);
    Object.assign(
      ids,
      await addTransactions(server, organization, bank, [
        { externalId: 'kestrel', timestamp: day('2026-01-07'), amount: '1340.00', currency: 'EUR', reference: 'INV-10424', description: 'KESTREL AVIATION' },
        { externalId: 'westcott', timestamp: day('2026-01-03'), amount: '950.00', currency: 'EUR', description: 'WESTCOTT DENTAL' },
      ]),
      await addTransactions(server, organization, ledger, [
        {
          externalId: 'invoice',
          timestamp: day('2026-01-06'),
          amount: '1340.00',
          currency: 'EUR',
          reference: 'inv-10424',
          description: 'Invoice 10424 Kestrel',
        },
        {
          externalId: 'dental-a',
          timestamp: day('2026-01-02'),
          amount: '950.00',
          currency: 'EUR',
          reference: 'INV-2001',
          description: 'Westcott Dental January',
        },
        {
          externalId: 'dental-b',
          timestamp: day('2026-01-05'),
          amount: '955.00',
          currency: 'EUR',
          reference: 'INV-2002',
          description: 'Westcott Dental deposit',
        },
      ]),
    );
    for (const rule of [
      {
        name: 'Same reference',
        origin: { datasetIds: [bank] },
        target: { datasetIds: [ledger] },
        conditions: [
          { type: 'amount', sign: 'same' },
          { type: 'equals', origin: { path: 'reference', normalize: ['casefold'] }, target: { path: 'reference', normalize: ['casefold'] } },
        ],
      },
      {
        name: 'Bank to ledger',
        origin: { datasetIds: [bank] },
        target: { datasetIds: [ledger] },
        outcome: 'suggest',
        conditions: [
          { type: 'amount', sign: 'same', tolerance: { absolute: '10.00' } },
          { type: 'date', path: 'timestamp', min: '-P3D', max: 'P3D' },
        ],
      },
    ]) {
      const created = await call('POST', '/rules', rule);
      assert.equal(created.status, 201, JSON.stringify(created.body));
    }
    const started = await call('POST', '/runs', { mode: 'commit' });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const run = (await call('GET', `/runs/${started.body.id}`)).body;
      if (run.status === 'completed') break;
      assert.ok(run.status === 'queued' || run.status === 'running', JSON.stringify(run));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const pending = (await call('GET', '/suggestions?status=pending')).body.suggestions;
    assert.equal(pending.length, 1, JSON.stringify(pending));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The visible text of the page must hold no id and no epoch number. */
  const assertReadable = async (page: Page) => {
    const text = await page.locator('main').innerText();
    assert.doesNotMatch(text, /[0-9a-f]{8}-[0-9a-f]{4}-/i, 'no id is shown');
    assert.doesNotMatch(text, /\d{13}/, 'no epoch number is shown');
  };
  const rowsOf = async (table: ReturnType<Page['locator']>) => {
    const rows: string[] = [];
    for (const row of await table.locator('tbody tr').all()) rows.push((await row.locator('th, td').allTextContents()).map((cell) => cell.trim()).join(' | '));
    return rows;
  };

  it('confirms a suggestion by reading its options, then reads the match and its history in the explorer', async () => {
    const page = await signInPage(browser, server, organization, { timezoneId: 'America/Los_Angeles', locale: 'en-US' });
    await page.getByRole('link', { name: 'Rules and runs' }).click();
    const suggestion = page.getByRole('region', { name: 'Suggestions' }).locator('ul.suggestions > li').filter({ hasText: 'WESTCOTT DENTAL' });
    await suggestion.getByRole('cell', { name: 'Westcott Dental January' }).waitFor();
    const table = suggestion.locator('table.suggestion-options');
    assert.deepEqual(await rowsOf(table), [
      'To match | Jan 3, 2026 | WESTCOTT DENTAL | — | — | 950.00 EUR |  | ',
      'Proposed | Jan 2, 2026 | Westcott Dental January | INV-2001 | — | 950.00 EUR | none | Confirm',
    ]);
    const evidence = (await suggestion.getByRole('list', { name: 'Evidence of proposed' }).locator('li').allInnerTexts()).map((text) =>
      text.replace(/^[✓✗]\s*/, '').trim(),
    );
    assert.deepEqual(evidence, [
      'Amounts equal: 950.00 EUR and 950.00 EUR',
      'Booked 1 day apart (allowed: 3 days either way)',
      'Same currency: EUR',
      'Score 0.9 of 1',
      'Runner-up: 955.00 EUR Westcott Dental deposit, score 0.55',
    ]);
    await assertReadable(page);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'suggestions', true);

    const confirm = suggestion.getByRole('button', { name: /^Confirm proposed for / });
    await confirm.click();
    await page
      .getByRole('status')
      .getByText('Matched 950.00 EUR WESTCOTT DENTAL of Jan 3, 2026 with 950.00 EUR Westcott Dental January of Jan 2, 2026.')
      .waitFor();
    await page.getByText('Nothing to decide.').waitFor();
    await assertReadable(page);

    // The explorer: the counterpart by name, date and amount, as a link to its group; the history in sentences.
    await page.getByRole('link', { name: 'Transactions' }).click();
    await page.getByRole('gridcell', { name: 'KESTREL AVIATION' }).click();
    const details = page.getByRole('complementary', { name: 'Transaction details' });
    const counterpart = details.getByRole('link', { name: '1,340.00 EUR Invoice 10424 Kestrel of Jan 6, 2026' });
    await counterpart.waitFor();
    await details.locator('p.hint', { hasText: /^By rule “Same reference” in a run on / }).waitFor();
    await details
      .getByRole('list', { name: /^Evidence of the match with / })
      .getByText(/Same reference on both sides/)
      .waitFor();
    const history = details.getByRole('list', { name: 'History' });
    await history.getByText(/Matched with 1,340\.00 EUR Invoice 10424 Kestrel of Jan 6, 2026 by rule “Same reference” in a run/).waitFor();
    const sentences = (await history.locator('li').allInnerTexts()).map((text) => text.replace(/^.*?: /, ''));
    assert.deepEqual(sentences.sort(), [
      'Matched with 1,340.00 EUR Invoice 10424 Kestrel of Jan 6, 2026 by rule “Same reference” in a run',
      'Status changed from open to reconciled',
    ]);
    await assertReadable(page);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'explorer-match-details', true);

    // The confirmed suggestion reads as the person's match by the rule that proposed it.
    await details.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('gridcell', { name: 'WESTCOTT DENTAL' }).click();
    await details.getByRole('link', { name: '950.00 EUR Westcott Dental January of Jan 2, 2026' }).waitFor();
    await history
      .getByText(new RegExp(`Matched with 950\\.00 EUR Westcott Dental January of Jan 2, 2026 by ${organization.user!.email.replace('.', '\\.')}`))
      .waitFor();
    await assertReadable(page);

    await counterpart.count();
    await details.getByRole('link', { name: '950.00 EUR Westcott Dental January of Jan 2, 2026' }).click();
    await page.waitForURL(/\/match-group\?group=/);
    await assertReadable(page);
    await page.context().close();
  });
});
