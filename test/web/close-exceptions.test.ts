import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
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
    await followUp.getByLabel('Due date').fill('2026-04-10');
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
    await page.getByText('2 exceptions assigned to pat@example.com.').waitFor();
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
});
