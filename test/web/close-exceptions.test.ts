import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { fitForPeople } from '../../web/src/messages.ts';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

/**
 * The exceptions queue in the browser: every open item of a period with its owner, due date,
 * hold and comments; a comment thread with author and time; a due date and a hold with its
 * reason; several items assigned at once; the filters (mine, on hold, by age) kept in the
 * address; resolving with a note; and a View-only person who reads the queue and its comments
 * but is offered nothing to change.
 */
describe('month-end close: the exceptions queue', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  let reconciliationId = '';
  const ids: Record<string, string> = {};
  const call = (method: string, path: string, body?: unknown) => api(server, organization.token, method, `/v1/api/${organization.orgId}${path}`, body);
  const PASSWORD = 'three quiet harbours';

  async function person(email: string, role: string): Promise<TestOrganization> {
    const invited = await call('POST', '/invitations', { email, role });
    assert.equal(invited.status, 201, JSON.stringify(invited.body));
    const secret = String(invited.body.invitationUrl).split('/').at(-1);
    const accepted = await api(server, null, 'POST', `/auth/invitations/${secret}/accept`, { password: PASSWORD });
    assert.ok(accepted.status < 300, JSON.stringify(accepted.body));
    return { ...organization, user: { email, password: PASSWORD } };
  }

  const day = (date: string) => Date.parse(`${date}T00:00:00Z`);

  before(async () => {
    mkdirSync('/tmp/shots/close-web', { recursive: true });
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
    const { datasetId: bank } = await createDataset(server, organization, { name: 'Operating account' });
    const { datasetId: ledger } = await createDataset(server, organization, { name: 'GL 1200 Cash at bank' });
    Object.assign(
      ids,
      await addTransactions(server, organization, bank, [
        { externalId: 'fee', timestamp: day('2026-03-30'), amount: '-12.00', currency: 'EUR', reference: 'FEE-MAR', description: 'Account fee March' },
        { externalId: 'unknown', timestamp: day('2026-03-12'), amount: '84.20', currency: 'EUR', description: 'UNKNOWN RECEIPT 5521' },
      ]),
      await addTransactions(server, organization, ledger, [
        { externalId: 'deposit', timestamp: day('2026-03-31'), amount: '250.00', currency: 'EUR', reference: 'DEP-31', description: 'Cheque deposit Westcott' },
        {
          externalId: 'payment',
          timestamp: day('2026-03-02'),
          amount: '-300.00',
          currency: 'EUR',
          reference: 'PAY-77',
          description: 'Payment to Harbour Supplies',
        },
      ]),
    );
    const created = await call('POST', '/reconciliations', {
      name: 'Operating account EUR ↔ GL 1200',
      currency: 'EUR',
      bankDatasetIds: [bank],
      ledgerDatasetIds: [ledger],
      ledgerOpeningBalance: '0.00',
      ledgerOpeningDate: '2026-02-28',
      periodMonths: 1,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    reconciliationId = created.body.id;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const queue = (page: Page) => page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Open amount' }) });
  const row = (page: Page, text: string) => queue(page).getByRole('row').filter({ hasText: text }).first();
  const count = (page: Page) =>
    page
      .getByRole('heading', { level: 2 })
      .filter({ hasText: /open items?$/ })
      .textContent();

  it('lets a Full member comment, set a due date, hold, assign several at once, filter and resolve', async () => {
    const page = await signInPage(browser, server, await person('pat@example.com', 'Full member'));
    await page.goto(`${server.baseUrl}/close`);
    const listed = page.getByRole('row', { name: /Operating account EUR ↔ GL 1200/ });
    await listed.waitFor();
    await page.goto(`${server.baseUrl}/close/${reconciliationId}/exceptions?periodEnd=2026-03-31`);
    await page.getByRole('heading', { name: /^Exceptions/ }).waitFor();
    await row(page, 'Payment to Harbour Supplies').waitFor();
    assert.equal(await count(page), '4 open items');
    assert.match((await row(page, 'Payment to Harbour Supplies').textContent()) ?? '', /−300\.00 EUR/);

    // One item's follow-up: a comment (with its author), a due date, a hold with its reason.
    await row(page, 'Payment to Harbour Supplies')
      .getByRole('button', { name: /^Show the follow-up of Payment to Harbour Supplies/ })
      .click();
    const comments = page.getByRole('region', { name: /^Comments on Payment to Harbour Supplies/ });
    await comments.getByText('No comment yet.').waitFor();
    await comments.getByLabel('Add a comment').fill('Asked Harbour Supplies for the remittance advice.');
    await comments.getByRole('button', { name: 'Add the comment' }).click();
    const posted = comments.getByRole('listitem').filter({ hasText: 'Asked Harbour Supplies for the remittance advice.' });
    await posted.waitFor();
    assert.match((await posted.textContent()) ?? '', /^pat@example\.com ·/);
    const followUp = page.getByRole('region', { name: /^Follow-up of Payment to Harbour Supplies/ });
    await followUp.getByLabel('Due date').fill(new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10));
    await followUp.getByRole('button', { name: 'Set the due date' }).click();
    await page.getByText('The due date is set.').waitFor();
    await followUp.getByLabel('On hold because').fill('waiting for the invoice');
    await followUp.getByRole('button', { name: 'Put on hold' }).click();
    await row(page, 'Payment to Harbour Supplies').getByText('On hold: waiting for the invoice').waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'shots/close-web/exceptions-follow-up', true);

    // Two at once: assigned to the person signed in.
    await page.getByRole('checkbox', { name: /^Choose Account fee March/ }).check();
    await page.getByRole('checkbox', { name: /^Choose UNKNOWN RECEIPT 5521/ }).check();
    const bulk = page.getByRole('region', { name: 'The chosen exceptions' });
    await bulk.getByText('2 exceptions chosen').waitFor();
    await bulk.getByLabel('Assign them to').selectOption({ label: 'pat@example.com' });
    await screenshotsAt(page, 'shots/close-web/exceptions-bulk', true);
    await bulk.getByRole('button', { name: 'Assign 2 exceptions' }).click();
    await page.getByText('2 exceptions are assigned to pat@example.com.').waitFor();
    await row(page, 'Account fee March').getByText('pat@example.com').waitFor();

    // The filters, kept in the address.
    await page.getByRole('radio', { name: 'Mine' }).check();
    await page.waitForURL(/show=mine/);
    await row(page, 'Payment to Harbour Supplies').waitFor({ state: 'detached' });
    assert.equal(await count(page), '2 open items');
    await page.getByRole('radio', { name: 'On hold' }).check();
    await row(page, 'Payment to Harbour Supplies').waitFor();
    assert.equal(await count(page), '1 open item');
    await page.getByRole('radio', { name: 'All open' }).check();
    await page.getByLabel('Age').selectOption({ label: 'More than 90 days' });
    await page.waitForURL(/age=over-90/);

    // Resolved with a note: it leaves the open items.
    await page.getByLabel('Age').selectOption({ label: 'Any age' });
    await row(page, 'UNKNOWN RECEIPT 5521')
      .getByRole('button', { name: /^Show the follow-up/ })
      .click();
    const resolving = page.getByRole('region', { name: /^Follow-up of UNKNOWN RECEIPT 5521/ });
    await resolving.getByLabel('Resolve with a note').fill('Interest credited by the bank; booked in April.');
    await resolving.getByRole('button', { name: 'Resolve' }).click();
    // Resolved, it leaves the open items (and its follow-up with it).
    await row(page, 'UNKNOWN RECEIPT 5521').waitFor({ state: 'detached' });
    await page.getByRole('radio', { name: 'Resolved' }).check();
    await row(page, 'UNKNOWN RECEIPT 5521').waitFor();
    await page.context().close();
  });

  it('shows a View-only person the queue and its comments, with nothing to change', async () => {
    const viewer = await signInPage(browser, server, await person('vic@example.com', 'View-only'));
    await viewer.goto(`${server.baseUrl}/close/${reconciliationId}/exceptions?periodEnd=2026-03-31`);
    await row(viewer, 'Payment to Harbour Supplies').waitFor();
    assert.equal(await viewer.getByRole('checkbox').count(), 0, 'no item can be chosen');
    await row(viewer, 'Payment to Harbour Supplies')
      .getByRole('button', { name: /^Show the follow-up/ })
      .click();
    await viewer.getByText('Asked Harbour Supplies for the remittance advice.').first().waitFor();
    for (const name of ['Add the comment', 'Set the due date', 'Put on hold', 'Resolve', /^Assign/])
      assert.equal(await viewer.getByRole('button', { name }).count(), 0, `a View-only person is offered ${String(name)}`);
    assert.deepEqual(await seriousViolations(viewer), []);
    await screenshotsAt(viewer, 'shots/close-web/exceptions-view-only', true);
    await viewer.context().close();
  });

  const queueAddress = (query = 'periodEnd=2026-03-31') => `${server.baseUrl}/close/${reconciliationId}/exceptions?${query}`;
  const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

  it('on a phone, offers "choose all" above the cards and each box beside its word; counts only what a change of many changed; asks before clearing due dates', async () => {
    const page = await signInPage(browser, server, organization, { viewport: { width: 390, height: 844 } });
    await page.goto(queueAddress());
    await row(page, 'Payment to Harbour Supplies').waitFor();
    assert.equal(await count(page), '3 open items');
    const all = page.getByRole('checkbox', { name: 'Choose all 3 shown' });
    assert.ok(await all.isVisible(), '"choose all" is on the screen of a phone');
    // The box of a card sits at its left beside the word, not across the card.
    const box = (await page.getByRole('checkbox', { name: /^Choose Account fee March/ }).boundingBox())!;
    const card = (await row(page, 'Account fee March').boundingBox())!;
    assert.ok(box.x - card.x < 100, `the box is ${Math.round(box.x - card.x)}px into its card`);
    await all.check();
    const bulk = page.getByRole('region', { name: 'The chosen exceptions' });
    await bulk.getByText('3 exceptions chosen').waitFor();
    await screenshotsAt(page, 'shots/close-web/exceptions-phone-choose-all', true);
    await page.setViewportSize({ width: 390, height: 844 });

    // Of the three, one is on hold: the release says so, and counts that one.
    await bulk.getByRole('button', { name: 'Release the hold of 1 exception' }).click();
    await page.getByText('1 exception is no longer on hold. The other 2 were not on hold.').waitFor();

    // Clearing due dates of many is asked first; "Cancel" keeps them.
    await all.check();
    await bulk.getByRole('button', { name: 'Clear their due date…' }).click();
    const asked = page.getByRole('alertdialog', { name: 'Clear 1 due date?' });
    await asked.getByText('1 of the 3 chosen exceptions has a due date. Clearing removes it from each, and cannot be undone in one step').waitFor();
    await screenshotsAt(page, 'shots/close-web/exceptions-clear-due-dates', false);
    await page.setViewportSize({ width: 390, height: 844 });
    await asked.getByRole('button', { name: 'Cancel' }).click();
    await asked.waitFor({ state: 'detached' });
    assert.match((await row(page, 'Payment to Harbour Supplies').textContent()) ?? '', /overdue|\d{4}/);
    assert.doesNotMatch((await row(page, 'Payment to Harbour Supplies').getByRole('cell').nth(7).textContent()) ?? '', /^—$/);
    await bulk.getByRole('button', { name: 'Clear their due date…' }).click();
    await page.getByRole('alertdialog', { name: 'Clear 1 due date?' }).getByRole('button', { name: 'Clear the due date' }).click();
    await page.getByText('1 exception is without a due date now. The other 2 were without a due date.').waitFor();

    // One chosen: the words are of one.
    await page.getByRole('checkbox', { name: /^Choose Cheque deposit Westcott/ }).check();
    await bulk.getByText('1 exception chosen').waitFor();
    await bulk.getByLabel('Assign them to').selectOption({ label: organization.user!.email });
    await bulk.getByRole('button', { name: 'Assign 1 exception' }).click();
    await page.getByText(`1 exception is assigned to ${organization.user!.email}.`).waitFor();
    await page.getByRole('checkbox', { name: /^Choose Cheque deposit Westcott/ }).check();
    await bulk.getByLabel('Assign them to').selectOption({ label: organization.user!.email });
    await bulk.getByRole('button', { name: 'Assign 1 exception' }).click();
    await page.getByText(`Nothing changed: the chosen exception was already assigned to ${organization.user!.email}.`).waitFor();
    assert.deepEqual(await seriousViolations(page), []);

    // At a desktop's width the box's column is as narrow as the box.
    await page.setViewportSize({ width: 1440, height: 900 });
    const column = (await queue(page).getByRole('columnheader').first().boundingBox())!;
    assert.ok(column.width < 60, `the column of boxes is ${Math.round(column.width)}px wide`);
    assert.equal(await page.getByRole('checkbox', { name: /^Choose all/ }).count(), 0, 'the head of the table offers it there');
    await page.context().close();
  });

  it('refuses a due date before today or years ahead, in words on the form', async () => {
    const page = await signInPage(browser, server, organization);
    await page.goto(queueAddress());
    await row(page, 'Cheque deposit Westcott')
      .getByRole('button', { name: /^Show the follow-up/ })
      .click();
    const followUp = page.getByRole('region', { name: /^Follow-up of Cheque deposit Westcott/ });
    await followUp.getByLabel('Due date').fill(isoDay(-2));
    await followUp.getByRole('button', { name: 'Set the due date' }).click();
    await followUp.getByRole('alert').filter({ hasText: 'The due date is before today. Choose today or a later day, or clear the due date.' }).waitFor();
    await screenshotsAt(page, 'shots/close-web/exceptions-due-date-refused', true);
    await followUp.getByLabel('Due date').fill('9999-12-31');
    await followUp.getByRole('button', { name: 'Set the due date' }).click();
    await followUp.getByRole('alert').filter({ hasText: 'The due date is more than 5 years ahead. Choose a nearer day.' }).waitFor();
    await followUp.getByLabel('Due date').fill(isoDay(0));
    await followUp.getByRole('button', { name: 'Set the due date' }).click();
    await page.getByText('The due date is set.').waitFor();
    await page.context().close();
  });

  it('says in words when the address names a list, a reconciliation or a period the queue cannot show, with the way back', async () => {
    const page = await signInPage(browser, server, organization);
    const shown = async () => {
      const text = (await page.locator('main').textContent()) ?? '';
      assert.ok(fitForPeople(text), text);
      assert.doesNotMatch(text, /querystring|must be equal|allowed values|invalid/i);
      return text;
    };
    await page.goto(queueAddress('periodEnd=2026-03-31&show=bogus'));
    await page.getByRole('heading', { name: 'This list of exceptions does not exist' }).waitFor();
    await shown();
    await screenshotsAt(page, 'shots/close-web/exceptions-unknown-list', true);
    await page.getByRole('link', { name: 'Show all open exceptions' }).click();
    await row(page, 'Payment to Harbour Supplies').waitFor();
    assert.doesNotMatch(page.url(), /show=/);

    for (const address of [`${server.baseUrl}/close/not-a-reconciliation`, `${server.baseUrl}/close/${randomUUID()}/exceptions?periodEnd=2026-03-31`]) {
      await page.goto(address);
      await page.getByRole('heading', { name: 'This reconciliation cannot be found' }).waitFor();
      await shown();
    }
    await screenshotsAt(page, 'shots/close-web/reconciliation-missing', true);
    await page.getByRole('link', { name: 'Back to Month-end close' }).click();
    await page.getByRole('heading', { name: 'Month-end close' }).waitFor();

    // A period before the ledger's opening balance (28 February): the queue says why it is empty.
    await page.goto(queueAddress('periodEnd=2026-01-31'));
    await page.getByText("This period ends on Jan 31, 2026, on or before the ledger's opening balance of Feb 28, 2026").waitFor();
    assert.equal(await queue(page).count(), 0);
    await shown();
    await screenshotsAt(page, 'shots/close-web/exceptions-before-opening', true);
    await page.getByRole('link', { name: 'Open the exceptions of Mar 2026' }).click();
    await row(page, 'Payment to Harbour Supplies').waitFor();
    await page.context().close();
  });
});
