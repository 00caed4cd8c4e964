import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

/**
 * A run's page, as the accountant reads it before committing: a dry run started from the app
 * opens on it; counts per rule and outcome; both sides of a match by date, description, reference
 * and amount; the evidence in sentences; filters kept in the address; commit, then revert after a
 * confirmation. In Los Angeles, where a date-only booking read in the browser's zone is a day early.
 */
describe("a run's page", { skip: chromiumSkip }, () => {
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
        {
          externalId: 'kestrel',
          timestamp: day('2026-10-01'),
          amount: '950.00',
          currency: 'EUR',
          reference: 'INV-10424',
          description: 'KESTREL AVIATION INV-10424',
        },
        { externalId: 'westcott', timestamp: day('2026-10-03'), amount: '1340.00', currency: 'EUR', description: 'WESTCOTT DENTAL' },
        { externalId: 'fee', timestamp: day('2026-10-04'), amount: '-12.00', currency: 'EUR', reference: 'FEE-OCT', description: 'Account fee October' },
      ]),
      await addTransactions(server, organization, ledger, [
        {
          externalId: 'invoice',
          timestamp: day('2026-10-02'),
          amount: '950.00',
          currency: 'EUR',
          reference: 'inv-10424',
          description: 'Invoice 10424 Kestrel Aviation',
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
          { type: 'date', path: 'timestamp', min: '-P3D', max: 'P3D' },
        ],
      },
      {
        name: 'Bank fees',
        origin: { datasetIds: [bank], audience: [{ path: 'reference', search: { type: 'string', value: ['FEE'] } }] },
        outcome: { status: 'informative' },
      },
    ]) {
      const created = await call('POST', '/rules', rule);
      assert.equal(created.status, 201, JSON.stringify(created.body));
    }
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const statusOf = async (id: string) => (await call('GET', `/transactions/${id}`)).body.reconciliationStatus as string;
  /** The visible text of the page must hold no id and no epoch number. */
  const assertReadable = async (page: Page) => {
    const text = await page.locator('main').innerText();
    assert.doesNotMatch(text, /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i, 'no id is shown');
    assert.doesNotMatch(text, /\d{12,}/, 'no epoch number is shown');
  };

  it('reads a dry run by rule and outcome with the evidence in sentences, then commits and reverts it', async () => {
    const page = await signInPage(browser, server, organization, { timezoneId: 'America/Los_Angeles', locale: 'en-US' });
    await page.getByRole('link', { name: 'Rules and runs' }).click();
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.getByRole('link', { name: 'See what it would do' }).click();
    await page.getByRole('heading', { name: /^Dry run of / }).waitFor();
    assert.match(page.url(), /\/runs\/[0-9a-f-]{36}$/);
    await page.getByText('Dry run finished: nothing is changed until you commit it').waitFor();
    await page.getByRole('heading', { name: 'Left open (1)' }).waitFor();

    const totals = await page.locator('.run-totals > div').allInnerTexts();
    assert.deepEqual(
      totals.map((text) => text.replace(/\s+/g, ' ').trim()),
      ['Matched 1', 'Suggested 0', 'Ambiguous 0', 'Classified 1', 'Stopped at a limit 0', 'Left open 1'],
    );
    const perRule: string[] = [];
    for (const row of await page.locator('table.run-counts tbody tr').all()) perRule.push((await row.locator('th, td').allTextContents()).join(' '));
    assert.deepEqual(perRule, ['Same reference 1 0 0 0 0', 'Bank fees 0 0 0 1 0']);

    // The match: both sides by dataset, calendar date (as booked, in Los Angeles too), reference, description and amount.
    const matched = page.getByRole('region', { name: 'Matched (1)' });
    const [origin, target] = await matched.locator('.run-side').allInnerTexts();
    assert.match(origin!, /Operating account · Oct 1, 2026 · INV-10424\s+KESTREL AVIATION INV-10424\s+950\.00 EUR/);
    assert.match(target!, /Cash at bank · Oct 2, 2026 · inv-10424\s+Invoice 10424 Kestrel Aviation\s+950\.00 EUR/);
    const sentences = await matched.getByRole('list', { name: 'Evidence' }).locator('li').allInnerTexts();
    assert.deepEqual(
      sentences.map((text) => text.replace(/^[✓✗]\s*/, '').trim()),
      [
        'Amounts equal: 950.00 EUR and 950.00 EUR',
        'Same reference on both sides: inv-10424',
        'Booked 1 day apart (allowed: 3 days either way)',
        'Same currency: EUR',
        'Score 0.9 of 1',
      ],
    );
    const classified = page.getByRole('region', { name: 'Classified (1)' });
    assert.match(await classified.innerText(), /Account fee October[\s\S]*informative/);
    assert.match(await page.getByRole('region', { name: 'Left open (1)' }).innerText(), /Oct 3, 2026[\s\S]*WESTCOTT DENTAL[\s\S]*1,340\.00 EUR/);
    await assertReadable(page);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'run-page', true);

    // Filters are kept in the address: a reload shows the same.
    await page.getByLabel('Outcome').selectOption('classified');
    await page.waitForURL(/outcome=classified/);
    await page.getByRole('heading', { name: /^Matched/ }).waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { name: 'Classified (1)' }).waitFor();
    assert.equal(await page.getByLabel('Outcome').inputValue(), 'classified');
    assert.equal(await page.getByRole('heading', { name: /^Matched/ }).count(), 0);
    await page.getByLabel('Outcome').selectOption('');
    await page.getByLabel('Rule').selectOption('Bank fees');
    await page.waitForURL(/rule=Bank/);
    await page.getByRole('heading', { name: 'Matched (0)' }).waitFor();
    await page.getByRole('heading', { name: 'Classified (1)' }).waitFor();
    await page.getByLabel('Rule').selectOption('');

    // Commit: the button is disabled while its request runs, and the matches are made.
    const commit = page.getByRole('button', { name: 'Commit' });
    await commit.click();
    await page.getByText(/^Committed on .*: its matches are made$/).waitFor();
    assert.equal(await statusOf(ids.kestrel!), 'full');
    assert.equal(await statusOf(ids.fee!), 'informative');
    assert.equal(await page.getByRole('button', { name: 'Commit' }).count(), 0);

    // Revert, after a confirmation that says what it does.
    await page.getByRole('button', { name: 'Revert…' }).click();
    const confirmation = page.getByRole('group', { name: 'Confirm the revert' });
    assert.match(
      await confirmation.innerText(),
      /Reverting removes the 1 match this run made and clears the status it set \(1\): those transactions are open again/,
    );
    await confirmation.getByRole('button', { name: 'Revert the run' }).click();
    await page.getByText(/^Reverted on .*: its matches were removed$/).waitFor();
    assert.equal(await statusOf(ids.kestrel!), 'none');
    assert.equal(await statusOf(ids.fee!), 'none');
    assert.equal(await page.getByRole('button', { name: /Revert/ }).count(), 0);
    await assertReadable(page);

    // The runs list links each run to its page.
    await page.getByRole('link', { name: '← Rules and runs' }).click();
    await page.getByRole('region', { name: 'Runs' }).getByRole('link').first().click();
    await page.getByRole('heading', { name: /^Dry run of / }).waitFor();

    // The matching workspace names a candidate by its description and amount, with the evidence in sentences.
    await page.getByRole('link', { name: 'Matching' }).click();
    await page.getByRole('option', { name: /KESTREL AVIATION INV-10424/ }).click();
    const candidates = page.getByRole('region', { name: 'Candidates' });
    await candidates.getByText('Amounts equal: 950.00 EUR and 950.00 EUR').waitFor();
    assert.match(await candidates.innerText(), / · Invoice 10424 Kestrel Aviation · 950\.00 EUR by rule “Same reference”/);
    await assertReadable(page);
    await page.context().close();
  });
});
