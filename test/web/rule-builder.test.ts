import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, fieldError, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * The rule builder in a real Chromium: a 1:1 rule (amount equal, date within 3 days, the bank's
 * reference contained in the ledger's text) built with the form alone, a problem shown next to
 * its field, a pattern tried on real transactions, Try it (a dry run of this rule alone, its first
 * matches with both sides' date, description and amount), saved, reopened and changed, and the
 * JSON view following the form and leading it.
 */
describe('rule builder', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  before(async () => {
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await api(server, organization.token, method, `/v1/api/${organization.orgId}${path}`, body);
    assert.ok(answer.status < 300, JSON.stringify(answer.body));
    return answer.body;
  };
  const rules = async () => {
    const body = await call('GET', '/rules');
    return Array.isArray(body) ? body : body.rules;
  };

  it('builds a rule with the form, checks each field, tries it, saves it and edits it, with the JSON view in step', async () => {
    const source = await call('POST', '/sources', { name: 'Builder pair' });
    const bank = await call('POST', `/sources/${source.id}/datasets`, { name: 'Statement', columns: [] });
    const ledger = await call('POST', `/sources/${source.id}/datasets`, { name: 'Books', columns: [] });
    const day = (date: number) => Date.UTC(2026, 5, date);
    await call('POST', `/datasets/${bank.id}/transactions`, {
      records: [
        { externalId: 'B1', timestamp: day(1), amount: '100.00', currency: 'EUR', reference: 'INV-100', description: 'Acme payment' },
        { externalId: 'B2', timestamp: day(2), amount: '55.00', currency: 'EUR', reference: 'INV-200', description: 'Beta payment' },
      ],
    });
    await call('POST', `/datasets/${ledger.id}/transactions`, {
      records: [
        { externalId: 'L1', timestamp: day(3), amount: '100.00', currency: 'EUR', description: 'Invoice inv-100 Acme' },
        { externalId: 'L2', timestamp: day(20), amount: '55.00', currency: 'EUR', description: 'Invoice INV-200 Beta' },
        { externalId: 'L3', timestamp: day(2), amount: '100.00', currency: 'EUR', description: 'Invoice INV-999 Other' },
      ],
    });

    const page = await signInPage(browser, server, organization);
    await page.getByRole('link', { name: 'Rules and runs' }).click();
    await page.getByRole('button', { name: 'New rule' }).click();
    const editor = page.getByRole('region', { name: 'Rule editor' });
    await editor.getByRole('button', { name: 'Try it' }).waitFor();
    assert.equal(await editor.getByRole('alert').count(), 0, 'a new rule is not called wrong before it is started');
    await editor.getByLabel('Name').fill('Reference in the ledger text');
    await editor.getByText('Choose the dataset (or datasets) whose transactions are to be matched.').waitFor();
    await editor
      .getByRole('group', { name: /^First side: match/ })
      .getByRole('checkbox', { name: 'Builder pair · Statement' })
      .check();
    await editor
      .getByRole('group', { name: /^Second side: with/ })
      .getByRole('checkbox', { name: 'Builder pair · Books' })
      .check();

    // The new rule starts with amounts equal and dates within 3 days either way; the reference is added.
    const amount = editor.getByRole('listitem', { name: 'Condition 1: Amount' });
    assert.equal(await amount.getByLabel('Amounts').inputValue(), 'same');
    const date = editor.getByRole('listitem', { name: 'Condition 2: Date' });
    assert.equal(await date.getByLabel('From (days)').inputValue(), '3');
    assert.equal(await date.getByLabel('To (days)').inputValue(), '3');
    await editor.getByRole('button', { name: 'Reference or text' }).click();
    const reference = editor.getByRole('listitem', { name: 'Condition 3: Reference or text' });
    const first = reference.getByRole('group', { name: 'First side', exact: true });
    const second = reference.getByRole('group', { name: 'Second side', exact: true });
    await first.getByLabel('Compare').selectOption({ label: 'Reference' });
    await reference.getByLabel('How they compare').selectOption({ label: 'is contained in' });
    await second.getByLabel('Compare').selectOption({ label: 'Description' });
    await first.getByRole('checkbox', { name: 'ignore case' }).check();
    await second.getByRole('checkbox', { name: 'ignore case' }).check();

    // A bad value: the form's own check, then the service's, each next to its field, in words.
    const to = date.getByLabel('To (days)');
    await to.fill('three');
    assert.equal(await fieldError(page, to), 'Write a whole number of days, from 0 to 366.');
    await to.fill('3');
    const pattern = first.getByLabel('Take only the part a pattern finds (optional)');
    await pattern.fill('INV-[0-9]+');
    assert.match(await fieldError(page, pattern), /^The pattern has no capturing group; put the part to extract in parentheses/);
    assert.equal(await editor.getByRole('button', { name: 'Create rule' }).isDisabled(), true);
    await screenshotsAt(page, 'rule-builder-problem', true);
    // The tester reads real transactions of the dataset and applies the pattern as the service does.
    await pattern.fill('INV-([0-9]+)');
    await first.getByRole('button', { name: 'Test on first side transactions' }).click();
    const tester = first.getByRole('table', { name: 'What the rule reads from reference' });
    await tester.getByRole('row', { name: 'INV-100 100' }).waitFor();
    await tester.getByRole('row', { name: 'INV-200 200' }).waitFor();
    await pattern.fill('');
    await tester.getByRole('row', { name: 'INV-100 inv-100' }).waitFor();

    await editor.getByText('The rule is valid.').waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'rule-builder', true);

    // Try it: a dry run of this rule alone; nothing is changed and no rule is left behind.
    await editor.getByRole('button', { name: 'Try it' }).click();
    const tried = editor.getByRole('region', { name: 'What this rule would do' });
    await tried.waitFor({ timeout: 30_000 });
    assert.match((await tried.textContent()) ?? '', /1 would be matched.*Nothing was changed/);
    const match = tried.getByRole('row').nth(1);
    assert.match((await match.textContent()) ?? '', /Jun 1, 2026.*Acme payment.*100\.00 EUR.*Jun 3, 2026.*Invoice inv-100 Acme.*100\.00 EUR/);
    assert.match((await tried.getByRole('link', { name: 'See all results' }).getAttribute('href')) ?? '', /^\/runs\/[0-9a-f-]{36}$/);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'rule-builder-tried', true);
    assert.deepEqual(
      (await rules()).map((rule: { name: string }) => rule.name),
      [],
      'the trial leaves no rule',
    );
    const statuses = await call('POST', '/transactions', { datasetId: bank.id });
    assert.ok(statuses.every((transaction: { reconciliationStatus: string }) => transaction.reconciliationStatus === 'none'));

    await editor.getByRole('button', { name: 'Create rule' }).click();
    await page.getByRole('cell', { name: 'Reference in the ledger text', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'One transaction to one', exact: true }).waitFor();
    const [saved] = await rules();
    assert.deepEqual(saved.conditions, [
      { type: 'amount', sign: 'same' },
      { type: 'date', path: 'timestamp', min: '-P3D', max: 'P3D' },
      { type: 'contains', origin: { path: 'reference', normalize: ['casefold'] }, target: { path: 'description', normalize: ['casefold'] } },
    ]);
    assert.deepEqual([saved.origin.datasetIds, saved.target.datasetIds, saved.cardinality], [[bank.id], [ledger.id], '1:1']);

    // Reopened, the rule is in the form; a change is a new version.
    await page
      .getByRole('row', { name: /Reference in the ledger text/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    const reopened = page.getByRole('region', { name: 'Rule editor' });
    await reopened.getByRole('heading', { name: 'Edit “Reference in the ledger text” (version 1)' }).waitFor();
    assert.equal(await reopened.getByLabel('Name').inputValue(), 'Reference in the ledger text');
    const reopenedDate = reopened.getByRole('listitem', { name: 'Condition 2: Date' });
    assert.equal(await reopenedDate.getByLabel('To (days)').inputValue(), '3');
    await reopenedDate.getByLabel('To (days)').fill('5');

    // The JSON view follows the form, and the form follows it.
    await reopened.getByRole('button', { name: /JSON view/ }).click();
    const json = reopened.getByLabel('The rule as the API takes it');
    assert.match(await json.inputValue(), /"max": "P5D"/);
    await json.fill((await json.inputValue()).replace('"max": "P5D"', '"max": "P7D"'));
    assert.equal(await reopenedDate.getByLabel('To (days)').inputValue(), '7');
    // A rule the form cannot show is edited in the JSON view, and the form says why.
    const text = await json.inputValue();
    await json.fill(text.replace('"conditions": [', '"conditions": [{"any": [{"type": "amount", "sign": "same"}]},'));
    await reopened.getByText(/The form cannot show this rule: it has alternatives/).waitFor();
    await reopenedDate.getByLabel('To (days)').waitFor({ state: 'detached' });
    await json.fill(text);
    await reopenedDate.getByLabel('To (days)').waitFor({ state: 'attached' });
    assert.equal(await reopened.getByText(/The form cannot show this rule/).count(), 0);
    assert.equal(await reopenedDate.getByLabel('To (days)').isDisabled(), false);
    // Back to the form alone, from the keyboard.
    await reopened.getByRole('button', { name: /JSON view/ }).focus();
    await page.keyboard.press('Enter');
    await json.waitFor({ state: 'hidden' });
    assert.equal(await reopenedDate.getByLabel('To (days)').inputValue(), '7');
    await reopened.getByText('The rule is valid.').waitFor();
    await reopened.getByRole('button', { name: 'Save as a new version' }).click();
    await page.getByRole('region', { name: 'Rule editor' }).waitFor({ state: 'detached' });
    const [changed] = await rules();
    assert.equal(changed.version, 2);
    assert.deepEqual(changed.conditions[1], { type: 'date', path: 'timestamp', min: '-P3D', max: 'P7D' });
    assert.deepEqual(changed.conditions[2], saved.conditions[2]);
  });
});
