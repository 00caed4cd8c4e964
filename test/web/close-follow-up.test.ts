import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

/**
 * The close screens' follow-up: the Close page's open exceptions as a number that opens them; a
 * Full member who gives exceptions to someone else (the people anyone may read) and gives several
 * a due date and a hold at once; the dates of the three close screens, the same calendar day in
 * Los Angeles and Tokyo; and the queue on a phone.
 */
describe('month-end close: following exceptions up', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  let reconciliationId = '';
  const call = (method: string, path: string, body?: unknown) => api(server, organization.token, method, `/v1/api/${organization.orgId}${path}`, body);
  const PASSWORD = 'three quiet harbours';
  // Midnight UTC: the evening before in Los Angeles. The screens show the day the bank wrote.
  const day = (date: string) => Date.parse(`${date}T00:00:00Z`);
  // A due date is never before today: ten days ahead, and the days either side of it, as the screens write them.
  const DUE = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  const inWords = (date: string, offsetDays = 0) =>
    new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(day(date) + offsetDays * 86_400_000);

  async function person(email: string, role: string): Promise<TestOrganization> {
    const invited = await call('POST', '/invitations', { email, role });
    assert.equal(invited.status, 201, JSON.stringify(invited.body));
    const secret = String(invited.body.invitationUrl).split('/').at(-1);
    const accepted = await api(server, null, 'POST', `/auth/invitations/${secret}/accept`, { password: PASSWORD });
    assert.ok(accepted.status < 300, JSON.stringify(accepted.body));
    return { ...organization, user: { email, password: PASSWORD } };
  }

  before(async () => {
    mkdirSync('/tmp/shots/close-web', { recursive: true });
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
    const { datasetId: bank } = await createDataset(server, organization, { name: 'Operating account' });
    const { datasetId: ledger } = await createDataset(server, organization, { name: 'GL 1200 Cash at bank' });
    await addTransactions(server, organization, bank, [
      { externalId: 'fee', timestamp: day('2026-03-01'), amount: '-12.00', currency: 'EUR', reference: 'FEE-MAR', description: 'Account fee March' },
      {
        externalId: 'unknown',
        timestamp: day('2026-03-12'),
        amount: '84.20',
        currency: 'EUR',
        description: 'UNKNOWN RECEIPT 5521 FROM A COUNTERPARTY WITH A VERY LONG NAME',
      },
    ]);
    await addTransactions(server, organization, ledger, [
      {
        externalId: 'payment',
        timestamp: day('2026-03-02'),
        amount: '-300.00',
        currency: 'EUR',
        reference: 'PAY-77',
        description: 'Payment to Harbour Supplies',
      },
    ]);
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
    await person('ann@example.com', 'Full member');
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const queue = (page: Page) => page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Open amount' }) });
  const row = (page: Page, text: string) => queue(page).getByRole('row').filter({ hasText: text }).first();

  it('shows the open exceptions on the Close page as a number that opens them', async () => {
    const page = await signInPage(browser, server, organization);
    await page.goto(`${server.baseUrl}/close`);
    const listed = page.getByRole('row', { name: /Operating account EUR ↔ GL 1200/ });
    await listed.waitFor();
    const open = listed.getByRole('link', { name: '3 open exceptions of Operating account EUR ↔ GL 1200' });
    await open.waitFor();
    assert.equal((await open.textContent())?.trim(), '3');
    await open.click();
    await page.getByRole('heading', { name: /^Exceptions, Mar 2026/ }).waitFor();
    await row(page, 'Payment to Harbour Supplies').waitFor();
    await page.context().close();
  });

  it('lets a Full member give exceptions to someone else, and a due date and a hold to several at once', async () => {
    const page = await signInPage(browser, server, await person('pat@example.com', 'Full member'));
    await page.goto(`${server.baseUrl}/close/${reconciliationId}/exceptions?periodEnd=2026-03-31`);
    await row(page, 'Payment to Harbour Supplies').waitFor();
    await page.getByRole('checkbox', { name: /^Choose Account fee March/ }).check();
    await page.getByRole('checkbox', { name: /^Choose Payment to Harbour Supplies/ }).check();
    const bulk = page.getByRole('region', { name: 'The chosen exceptions' });
    await bulk.getByText('2 exceptions chosen').waitFor();
    // Not only themselves: every active member is offered.
    const offered = await bulk.getByLabel('Assign them to').locator('option').allTextContents();
    for (const name of ['ann@example.com', 'pat@example.com', organization.user!.email]) assert.ok(offered.includes(name), `${name} in ${offered.join(', ')}`);
    await bulk.getByLabel('Assign them to').selectOption({ label: 'ann@example.com' });
    await bulk.getByRole('button', { name: 'Assign 2 exceptions' }).click();
    await page.getByText('2 exceptions are assigned to ann@example.com.').waitFor();
    await row(page, 'Account fee March').getByText('ann@example.com').waitFor();

    await page.getByRole('checkbox', { name: /^Choose Account fee March/ }).check();
    await page.getByRole('checkbox', { name: /^Choose Payment to Harbour Supplies/ }).check();
    await bulk.getByLabel('Due date for them').fill(DUE);
    await bulk.getByRole('button', { name: 'Set their due date' }).click();
    await page.getByText(`2 exceptions are due on ${inWords(DUE)}.`).waitFor();
    await page.getByRole('checkbox', { name: /^Choose Account fee March/ }).check();
    await page.getByRole('checkbox', { name: /^Choose Payment to Harbour Supplies/ }).check();
    await bulk.getByLabel('Put them on hold because').fill('waiting for the bank letter');
    await screenshotsAt(page, 'shots/close-web/exceptions-bulk-change', true);
    await bulk.getByRole('button', { name: 'Put on hold' }).click();
    await page.getByText('2 exceptions are on hold.').waitFor();
    await row(page, 'Account fee March').getByText('On hold: waiting for the bank letter').waitFor();
    await row(page, 'Payment to Harbour Supplies').getByText('On hold: waiting for the bank letter').waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await page.context().close();
  });

  for (const timezoneId of ['America/Los_Angeles', 'Asia/Tokyo']) {
    it(`shows the close screens' period and due dates as the same calendar day in ${timezoneId}`, async () => {
      const page = await signInPage(browser, server, organization, { timezoneId, locale: 'en-US' });
      assert.equal(await page.evaluate('Intl.DateTimeFormat().resolvedOptions().timeZone'), timezoneId);
      await page.goto(`${server.baseUrl}/close`);
      const listed = page.getByRole('row', { name: /Operating account EUR ↔ GL 1200/ });
      await listed.getByText('Mar 2026').waitFor();

      await page.goto(`${server.baseUrl}/close/${reconciliationId}?periodEnd=2026-03-31`);
      await page.getByRole('table', { name: 'Reconciliation statement at Mar 31, 2026' }).waitFor();
      await page
        .getByRole('row', { name: /^Less: outstanding payments/ })
        .getByRole('button', { name: 'Show the item' })
        .click();
      assert.match((await page.getByRole('table', { name: 'Outstanding payments' }).textContent()) ?? '', /Mar 2, 2026/);

      await page.goto(`${server.baseUrl}/close/${reconciliationId}/exceptions?periodEnd=2026-03-31`);
      await page.getByRole('heading', { name: /^Exceptions, Mar 2026/ }).waitFor();
      const fee = (await row(page, 'Account fee March').textContent()) ?? '';
      assert.match(fee, /Mar 1, 2026/);
      assert.ok(fee.includes(inWords(DUE)), fee);
      assert.doesNotMatch(fee, /Feb 28, 2026/);
      for (const neighbour of [inWords(DUE, -1), inWords(DUE, 1)]) assert.ok(!fee.includes(neighbour), `${neighbour} in ${fee}`);
      assert.match((await row(page, 'Payment to Harbour Supplies').textContent()) ?? '', /Mar 2, 2026/);
      if (timezoneId === 'America/Los_Angeles') await screenshotsAt(page, 'shots/close-web/exceptions-los-angeles', true);
      await page.context().close();
    });
  }

  it('fits an exception and its follow-up on a phone', async () => {
    const page = await signInPage(browser, server, organization, { viewport: { width: 390, height: 844 } });
    await page.goto(`${server.baseUrl}/close/${reconciliationId}/exceptions?periodEnd=2026-03-31`);
    await row(page, 'UNKNOWN RECEIPT 5521').waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await row(page, 'UNKNOWN RECEIPT 5521')
      .getByRole('button', { name: /^Show the follow-up/ })
      .click();
    await page.getByRole('region', { name: /^Follow-up of UNKNOWN RECEIPT 5521/ }).waitFor();
    // Nothing wider than the screen: the page does not scroll sideways.
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than a 390px phone`);
    await screenshotsAt(page, 'shots/close-web/exception-card', true);
    await page.context().close();
  });
});
