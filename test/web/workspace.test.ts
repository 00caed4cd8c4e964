import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

/**
 * The matching workspace as the accountant uses it: it opens on the bank account facing the
 * ledger, keeps the chosen datasets and filters in the address, asks before matching money in
 * with money out, says in words what someone else changed meanwhile, and a mark set with a reason
 * can be cleared again. In New York, where a date-only booking read in the browser's zone is a day early.
 */
describe('the matching workspace', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  let bank = '';
  let ledger = '';
  const ids: Record<string, string> = {};
  const call = (method: string, path: string, body?: unknown) => api(server, organization.token, method, `/v1/api/${organization.orgId}${path}`, body);
  const statusOf = async (id: string) => (await call('GET', `/transactions/${id}`)).body.reconciliationStatus as string;
  const LONG = 'Transfer from Hartley & Sons Ltd for invoice INV-2026-0311, March consulting services, travel and expenses as agreed';

  before(async () => {
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
    // The ledger comes first in every list: the workspace still puts the bank account on the left.
    ({ datasetId: ledger } = await createDataset(server, organization, { name: 'General ledger' }));
    ({ datasetId: bank } = await createDataset(server, organization, { name: 'Operating account' }));
    const account = await call('PATCH', `/datasets/${bank}`, { accountId: 'NL91ABNA0417164300', currency: 'EUR' });
    assert.equal(account.status, 200, JSON.stringify(account.body));
    const day = (date: string) => Date.parse(`${date}T00:00:00Z`);
    Object.assign(
      ids,
      await addTransactions(server, organization, bank, [
        { externalId: 'hartley', timestamp: day('2026-03-02'), amount: '1200.00', currency: 'EUR', description: LONG },
        { externalId: 'fee', timestamp: day('2026-03-03'), amount: '-45.00', currency: 'EUR', description: 'Bank fee March' },
        { externalId: 'cards', timestamp: day('2026-03-04'), amount: '300.00', currency: 'EUR', description: 'Card settlement' },
      ]),
      await addTransactions(server, organization, ledger, [
        { externalId: 'refund', timestamp: day('2026-03-02'), amount: '-1200.00', currency: 'EUR', description: 'Refund to Hartley & Sons' },
        { externalId: 'invoice', timestamp: day('2026-03-02'), amount: '1200.00', currency: 'EUR', description: 'Invoice INV-2026-0311 Hartley & Sons' },
        { externalId: 'sales', timestamp: day('2026-03-04'), amount: '300.00', currency: 'EUR', description: 'Card sales 4 March' },
      ]),
    );
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens on the bank facing the ledger, keeps its filters in the address, warns, says what changed meanwhile, and marks with a reason', async () => {
    const page = await signInPage(browser, server, organization, { timezoneId: 'America/New_York', locale: 'en-US' });
    await page.getByRole('link', { name: 'Matching' }).click();
    const leftSide = page.getByRole('region', { name: 'Left side' });
    const rightSide = page.getByRole('region', { name: 'Right side' });
    const left = page.getByRole('listbox', { name: 'Left transactions' });
    const right = page.getByRole('listbox', { name: 'Right transactions' });

    // Nothing chosen: the dataset with a bank account on the left, the ledger on the right.
    await left.getByRole('option', { name: /Bank fee March/ }).waitFor();
    assert.equal(await leftSide.locator('select').inputValue(), bank);
    assert.equal(await rightSide.locator('select').inputValue(), ledger);
    // Dates as booked, in New York too.
    assert.match(await left.getByRole('option', { name: /Bank fee March/ }).innerText(), /Mar 3, 2026/);

    // A long description is whole on hover, and whole in the selected row.
    const hartley = left.getByRole('option', { name: /Hartley & Sons Ltd/ });
    assert.equal(await hartley.locator('.pick-text').getAttribute('title'), LONG);
    await hartley.click();
    const text = hartley.locator('.pick-text');
    assert.ok(await text.evaluate((element) => element.scrollWidth <= element.clientWidth + 1), 'the selected row shows its whole description');
    const box = await hartley.boundingBox();
    assert.ok(box !== null && box.height > 40, 'the selected row grows to the height of its description');
    await screenshotsAt(page, 'workspace-selected');

    // The filter and the datasets are in the address: a reload restores them.
    await rightSide.getByLabel('Find').fill('Hartley');
    await page.waitForURL(/rightFind=Hartley/);
    await right.getByRole('option', { name: /Card sales/ }).waitFor({ state: 'detached' });
    await page.reload();
    await right.getByRole('option', { name: /Refund to Hartley/ }).waitFor();
    assert.equal(await rightSide.getByLabel('Find').inputValue(), 'Hartley');
    assert.equal(await right.getByRole('option').count(), 2);
    assert.equal(await leftSide.locator('select').inputValue(), bank);
    // Back returns to the datasets chosen before.
    await leftSide.locator('select').selectOption(ledger);
    await page.waitForURL(new RegExp(`left=${ledger}`));
    await left.getByRole('option', { name: /Card sales/ }).waitFor();
    await page.goBack();
    await left.getByRole('option', { name: /Bank fee March/ }).waitFor();
    assert.equal(await leftSide.locator('select').inputValue(), bank);
    assert.equal(await rightSide.getByLabel('Find').inputValue(), 'Hartley');
    // A link shared with the address opens the same.
    const shared = await page.context().newPage();
    await shared.goto(page.url());
    await shared
      .getByRole('listbox', { name: 'Right transactions' })
      .getByRole('option', { name: /Refund to Hartley/ })
      .waitFor();
    assert.equal(await shared.getByRole('listbox', { name: 'Right transactions' }).getByRole('option').count(), 2);
    await shared.close();

    // Money in with money out is asked about first, in words; Cancel matches nothing.
    await left.getByRole('option', { name: /Hartley & Sons Ltd/ }).click();
    await right.getByRole('option', { name: /Refund to Hartley/ }).click();
    await page.getByRole('button', { name: 'Match selected' }).click();
    const warning = page.getByRole('alertdialog');
    await warning.getByText('You are matching money in (1,200.00 EUR) with money out (−1,200.00 EUR). Match anyway?').waitFor();
    assert.deepEqual(await seriousViolations(page), [], 'the warning');
    await warning.getByRole('button', { name: 'Cancel' }).click();
    await warning.waitFor({ state: 'detached' });
    assert.equal(await statusOf(ids.hartley!), 'none');

    // Someone else matches the bank row after the page loaded: the match is refused, and the page says what changed.
    await right.getByRole('option', { name: /Refund to Hartley/ }).click();
    await right.getByRole('option', { name: /Invoice INV-2026-0311/ }).click();
    const made = await call('POST', '/matches', { links: [{ originId: ids.hartley, targetId: ids.invoice }] });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    await page.getByRole('button', { name: 'Match selected' }).click();
    const conflict = page.getByRole('alert').filter({ hasText: 'Nothing was matched' });
    await conflict.waitFor();
    assert.match(await conflict.innerText(), /meanwhile “Transfer from Hartley & Sons Ltd.*” was matched in full by someone else/);
    assert.match(await conflict.innerText(), /The lists are refreshed/);
    await left.getByRole('option', { name: /Hartley & Sons Ltd/ }).waitFor({ state: 'detached' });
    await right.getByRole('option', { name: /Invoice INV-2026-0311/ }).waitFor({ state: 'detached' });
    await screenshotsAt(page, 'workspace-conflict');

    // A double click makes one match and says so once; the earlier message is gone.
    await rightSide.getByLabel('Find').fill('');
    await left.getByRole('option', { name: /Card settlement/ }).click();
    await right.getByRole('option', { name: /Card sales/ }).click();
    assert.equal(await page.getByText('Nothing was matched').count(), 0, 'a new selection drops the earlier message');
    await page.getByRole('button', { name: 'Match selected' }).dblclick();
    await page.getByText('Matched: 1 link in one group.').waitFor();
    assert.equal(await page.getByText(/^Matched:/).count(), 1);
    const cards = (await call('GET', `/transactions/${ids.cards}`)).body;
    assert.equal(cards.outgoingMatches.length + cards.incomingMatches.length, 1, 'one match, not two');

    // Marked from the workspace with a reason, and cleared again from its message.
    await left.getByRole('option', { name: /Bank fee March/ }).click();
    await page.getByRole('button', { name: 'Mark informative' }).click();
    const dialog = page.getByRole('dialog', { name: /Mark “Bank fee March” informative/ });
    await dialog.getByLabel('Reason (optional)').fill('Fees are booked once a quarter');
    assert.deepEqual(await seriousViolations(page), [], 'the reason dialog');
    await screenshotsAt(page, 'workspace-mark-dialog');
    await dialog.getByRole('button', { name: 'Mark informative' }).click();
    await page.getByText('Marked informative.').waitFor();
    assert.equal(await statusOf(ids.fee!), 'informative');
    await page.getByRole('button', { name: 'Clear the mark' }).click();
    await page.getByText('The mark is cleared: the transaction is open again.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Clear the mark' }).count(), 0, 'a cleared mark offers no second clearing');
    assert.equal(await statusOf(ids.fee!), 'none');
    await left.getByRole('option', { name: /Bank fee March/ }).waitFor();

    // A mark set earlier (here by someone else) is cleared from the marked ones a side shows.
    const marked = await call('PATCH', `/transactions/${ids.fee}`, { reconciliationStatus: 'out of scope', note: 'Not ours' });
    assert.equal(marked.status, 200, JSON.stringify(marked.body));
    await leftSide.getByLabel('Show the marked ones').check();
    await page.waitForURL(/leftShow=marked/);
    const markedFee = left.getByRole('option', { name: /Bank fee March/ });
    assert.match(await markedFee.innerText(), /\nOut of scope$/, 'statuses in the words of the rest of the app');
    await markedFee.click();
    assert.ok(await page.getByRole('button', { name: 'Match selected' }).isDisabled(), 'a marked transaction cannot be matched');
    await page.getByRole('button', { name: 'Clear the mark' }).click();
    await page.getByText('The mark is cleared: the transaction is open again.').waitFor();
    await markedFee.waitFor({ state: 'detached' });
    assert.equal(await statusOf(ids.fee!), 'none');
    await leftSide.getByLabel('Show the marked ones').uncheck();
    await left.getByRole('option', { name: /Bank fee March/ }).waitFor();
    assert.match(await left.getByRole('option', { name: /Bank fee March/ }).innerText(), /\nNot matched$/);

    // On a phone the workspace shows each row's description and status.
    await page.setViewportSize({ width: 390, height: 844 });
    const fee = left.getByRole('option', { name: /Bank fee March/ });
    assert.ok(await fee.locator('.pick-text').isVisible());
    assert.ok(await fee.locator('.status').isVisible());
    await page.setViewportSize({ width: 1400, height: 900 });
    assert.deepEqual(await seriousViolations(page), []);
    await left.getByRole('option', { name: /Bank fee March/ }).click();
    await screenshotsAt(page, 'workspace', true);
    await page.context().close();
  });

  it('marks a transaction informative with a reason from the explorer, keeps the reason, and clears the mark', async () => {
    const page = await signInPage(browser, server, organization, { timezoneId: 'America/New_York', locale: 'en-US' });
    await page.goto(`${server.baseUrl}/transactions?dataset=${bank}`);
    await page.getByRole('row', { name: /Bank fee March/ }).click();
    const details = page.getByRole('complementary', { name: 'Transaction details' });
    await details.getByRole('button', { name: 'Mark informative' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Reason (optional)').fill('Quarterly fee, booked in April');
    await dialog.getByRole('button', { name: 'Mark informative' }).dblclick();
    await details.getByText('Marked informative.').waitFor();
    assert.equal(await statusOf(ids.fee!), 'informative');
    const events = (await call('GET', `/audit-events?transactionId=${ids.fee}`)).body.events as { note: string | null }[];
    assert.equal(events.filter((event) => event.note === 'Quarterly fee, booked in April').length, 1, 'the reason is kept once in the audit trail');
    await details.getByText('Quarterly fee, booked in April').waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'explorer-marked', true);

    await details.getByRole('button', { name: 'Clear the mark' }).click();
    await details.getByText('The mark is cleared: the transaction is open again.').waitFor();
    assert.equal(await details.getByText('Marked informative.').count(), 0, 'the earlier message does not linger');
    assert.equal(await statusOf(ids.fee!), 'none');
    await details.getByRole('button', { name: 'Mark out of scope' }).waitFor();
    await page.context().close();
  });
});
