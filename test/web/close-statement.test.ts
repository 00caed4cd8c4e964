import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

/**
 * Month-end close in the browser, as a finance team works through it: the Close page lists the
 * reconciliation with its period, status, difference and open exceptions; the statement reads
 * like an accountant's form, its lines open onto their items; a difference that is not 0.00 says
 * why the period cannot be prepared; the reconciliation's form (datasets by name) fixes the
 * opening balance; a Full member prepares and cannot approve what they prepared; a Reviewer
 * approves; a View-only person reads everything and signs nothing; an Administrator reopens with
 * a reason, told that it is audited.
 */
describe('month-end close: the statement and its sign-off', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  let reconciliationId = '';
  const call = (method: string, path: string, body?: unknown) => api(server, organization.token, method, `/v1/api/${organization.orgId}${path}`, body);
  const PASSWORD = 'three quiet harbours';
  const SHOTS = '/tmp/shots/close-web';

  /** A person of the organization with a role, who has chosen their password. */
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
    mkdirSync(SHOTS, { recursive: true });
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
    const { datasetId: bank } = await createDataset(server, organization, { name: 'Operating account' });
    const { datasetId: ledger } = await createDataset(server, organization, { name: 'GL 1200 Cash at bank' });
    const bankIds = await addTransactions(server, organization, bank, [
      { externalId: 'b-kestrel', timestamp: day('2026-03-05'), amount: '500.00', currency: 'EUR', reference: 'INV-10424', description: 'KESTREL AVIATION' },
      { externalId: 'b-fee', timestamp: day('2026-03-30'), amount: '-12.00', currency: 'EUR', reference: 'FEE-MAR', description: 'Account fee March' },
    ]);
    const ledgerIds = await addTransactions(server, organization, ledger, [
      {
        externalId: 'l-kestrel',
        timestamp: day('2026-03-04'),
        amount: '500.00',
        currency: 'EUR',
        reference: 'INV-10424',
        description: 'Invoice 10424 Kestrel',
      },
      { externalId: 'l-deposit', timestamp: day('2026-03-31'), amount: '250.00', currency: 'EUR', reference: 'DEP-31', description: 'Cheque deposit Westcott' },
      {
        externalId: 'l-payment',
        timestamp: day('2026-03-29'),
        amount: '-300.00',
        currency: 'EUR',
        reference: 'PAY-77',
        description: 'Payment to Harbour Supplies',
      },
    ]);
    const matched = await call('POST', '/matches', { links: [{ originId: bankIds['b-kestrel'], targetId: ledgerIds['l-kestrel'] }] });
    assert.equal(matched.status, 201, JSON.stringify(matched.body));
    const created = await call('POST', '/reconciliations', {
      name: 'Operating account EUR ↔ GL 1200',
      currency: 'EUR',
      bankDatasetIds: [bank],
      ledgerDatasetIds: [ledger],
      ledgerOpeningBalance: '1000.00',
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

  async function openStatement(page: Page) {
    await page.goto(`${server.baseUrl}/close/${reconciliationId}?periodEnd=2026-03-31`);
    await page.getByRole('table', { name: /^Reconciliation statement at/ }).waitFor();
  }

  const line = (page: Page, label: RegExp) => page.getByRole('row', { name: label });

  it('lists the reconciliation on the Close page and shows its statement as an accountant reads it', async () => {
    const page = await signInPage(browser, server, organization);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Close' }).click();
    await page.getByRole('heading', { name: 'Month-end close' }).waitFor();
    const row = page.getByRole('row', { name: /Operating account EUR ↔ GL 1200/ });
    await row.getByText('Open', { exact: true }).waitFor();
    assert.match((await row.textContent()) ?? '', /Mar 2026/);
    assert.match((await row.textContent()) ?? '', /−1,000\.00 EUR/);
    assert.match((await row.textContent()) ?? '', /Operating account ↔ GL 1200 Cash at bank/);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'shots/close-web/close-list', true);

    await row.getByRole('link', { name: 'Operating account EUR ↔ GL 1200', exact: true }).click();
    await page.getByRole('table', { name: /^Reconciliation statement at/ }).waitFor();
    if (!page.url().includes('periodEnd=2026-03-31')) await openStatement(page);
    await line(page, /^Add: deposits in transit/).waitFor();
    assert.match((await line(page, /^Add: deposits in transit/).textContent()) ?? '', /250\.00 EUR/);
    assert.match((await line(page, /^Less: outstanding payments/).textContent()) ?? '', /−300\.00 EUR/);
    assert.match((await line(page, /^Add: payments and fees in the bank not yet in the ledger/).textContent()) ?? '', /12\.00 EUR/);
    assert.match((await line(page, /^Unexplained difference/).textContent()) ?? '', /−1,000\.00 EUR/);

    // A line opens onto its items: date as the ledger wrote it, description, reference, amount.
    await line(page, /^Less: outstanding payments/)
      .getByRole('button', { name: 'Show the item' })
      .click();
    const items = page.getByRole('table', { name: 'Outstanding payments' });
    await items.waitFor();
    const text = (await items.textContent()) ?? '';
    assert.match(text, /Payment to Harbour Supplies/);
    assert.match(text, /PAY-77/);
    assert.match(text, /Mar 29, 2026/);

    // The difference is not 0.00: Prepare is not offered, and the page says why.
    await page.getByText(/^Prepare is unavailable: the unexplained difference is −1,000\.00 EUR/).waitFor();
    assert.equal(await page.getByRole('button', { name: /^Prepare/ }).count(), 0);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'shots/close-web/statement-difference', true);

    // The reconciliation's form, datasets by name: the opening balance was wrong.
    await page.getByRole('button', { name: 'Change the reconciliation' }).click();
    const form = page.getByRole('form', { name: /^Change Operating account/ });
    await form.waitFor();
    const bankSide = form.getByRole('group', { name: /^Bank datasets/ });
    assert.equal(await bankSide.getByRole('checkbox', { name: 'Bank · Operating account' }).isChecked(), true);
    assert.equal(
      await bankSide.getByRole('checkbox', { name: 'Bank · GL 1200 Cash at bank' }).isDisabled(),
      true,
      'a ledger dataset is not offered as a bank one',
    );
    await screenshotsAt(page, 'shots/close-web/reconciliation-form', true);
    await form.getByLabel('Ledger opening balance').fill('1,000');
    await form.getByRole('button', { name: 'Save the changes' }).click();
    await form.getByText(/^The opening balance has a comma|^The opening balance must be/).waitFor();
    await form.getByLabel('Ledger opening balance').fill('0.00');
    await form.getByRole('button', { name: 'Save the changes' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByText(/^Prepare is unavailable/).waitFor({ state: 'detached' });
    assert.match((await line(page, /^Unexplained difference/).textContent()) ?? '', /0\.00 EUR/);
    await page.context().close();
  });

  it('lets a Full member prepare but not approve their own period, a Reviewer approve it, and a View-only person only read', async () => {
    const preparer = await signInPage(browser, server, await person('pat@example.com', 'Full member'));
    await openStatement(preparer);
    await preparer.getByRole('button', { name: /^Prepare / }).click();
    await preparer.getByText('Write a note for the reviewer: what you checked, and anything still pending.').waitFor();
    await preparer.getByLabel('Note for the reviewer').fill('Fee of March to be booked in April.');
    await preparer.getByRole('button', { name: /^Prepare / }).click();
    await preparer.getByText(/is prepared: another person, an Administrator or a Reviewer, approves it/).waitFor();
    const signOff = preparer.getByRole('region', { name: 'Sign-off' });
    await signOff.getByText('You prepared this period: another person, an Administrator or a Reviewer, approves it.').waitFor();
    assert.match((await signOff.textContent()) ?? '', /Prepared bypat@example\.com on/);
    assert.equal(await preparer.getByRole('button', { name: /^Approve/ }).count(), 0, 'the preparer is offered no approval');
    await screenshotsAt(preparer, 'shots/close-web/statement-prepared', true);
    await preparer.context().close();

    const viewer = await signInPage(browser, server, await person('vic@example.com', 'View-only'));
    await openStatement(viewer);
    await viewer.getByText('Approving needs an Administrator or a Reviewer.').waitFor();
    for (const name of [/^Prepare/, /^Approve/, /^Reopen/, /^Change the reconciliation/])
      assert.equal(await viewer.getByRole('button', { name }).count(), 0, `a View-only person is offered ${name.source}`);
    await line(viewer, /^Add: deposits in transit/)
      .getByRole('button', { name: 'Show the item' })
      .click();
    await viewer.getByRole('table', { name: 'Deposits in transit' }).getByText('Cheque deposit Westcott').waitFor();
    assert.deepEqual(await seriousViolations(viewer), []);
    await viewer.context().close();

    const reviewer = await signInPage(browser, server, await person('rae@example.com', 'Reviewer'));
    await openStatement(reviewer);
    await reviewer.getByRole('button', { name: /^Approve and close/ }).click();
    await reviewer.getByText(/is approved and closed: nothing dated in it can change now/).waitFor();
    await reviewer.getByRole('region', { name: 'Sign-off' }).getByText('Approved and closed', { exact: true }).waitFor();
    const approved = (await reviewer.getByRole('region', { name: 'Sign-off' }).textContent()) ?? '';
    assert.match(approved, /Approved byrae@example\.com on/);
    assert.equal(await reviewer.getByRole('button', { name: /^Reopen/ }).count(), 0, 'only an Administrator reopens');
    await screenshotsAt(reviewer, 'shots/close-web/statement-approved', true);
    await reviewer.context().close();
  });

  it('reopens a closed period for an Administrator who gives a reason, and says it is audited', async () => {
    const page = await signInPage(browser, server, organization);
    await openStatement(page);
    await page.getByRole('button', { name: 'Reopen the period…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Reopen/ });
    await dialog.getByText(/written to the audit trail with your name and your reason/).waitFor();
    await dialog.getByRole('button', { name: 'Reopen the period' }).click();
    await dialog.getByText('Give the reason for reopening: it is kept in the audit trail.').waitFor();
    await screenshotsAt(page, 'shots/close-web/reopen-dialog');
    await dialog.getByLabel('Why is it reopened?').fill('The March fee was booked twice in the ledger.');
    await dialog.getByRole('button', { name: 'Reopen the period' }).click();
    await page.getByText(/is open again; the reopening and its reason are in the audit trail/).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await page.context().close();
  });

  it("pages a long line's items, and fits them on a phone without scrolling sideways", async () => {
    // A card clearing account whose month has thirty fees, none yet in the ledger.
    const { datasetId: cards } = await createDataset(server, organization, { name: 'Card clearing' });
    const { datasetId: clearingLedger } = await createDataset(server, organization, { name: 'GL 1250 Card clearing' });
    await addTransactions(
      server,
      organization,
      cards,
      Array.from({ length: 30 }, (_, index) => ({
        externalId: `fee-${index}`,
        timestamp: day(`2026-03-${String(1 + (index % 28)).padStart(2, '0')}`),
        amount: `-${index + 1}.25`,
        currency: 'EUR',
        // A reference as card acquirers write them: long, with nowhere to break.
        reference: `CARDFEE202603${String(index + 1).padStart(3, '0')}MERCHANTSERVICECHARGETERMINAL`,
        description: `Merchant service charge for card terminal number ${index + 1} at the harbour front branch`,
      })),
    );
    const created = await call('POST', '/reconciliations', {
      name: 'Card clearing EUR',
      currency: 'EUR',
      bankDatasetIds: [cards],
      ledgerDatasetIds: [clearingLedger],
      ledgerOpeningBalance: '0.00',
      ledgerOpeningDate: '2026-02-28',
      periodMonths: 1,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const page = await signInPage(browser, server, organization, { viewport: { width: 390, height: 844 } });
    await page.goto(`${server.baseUrl}/close/${created.body.id}?periodEnd=2026-03-31`);
    const fees = line(page, /^Add: payments and fees in the bank not yet in the ledger/);
    await fees.getByRole('button', { name: 'Show the 30 items' }).click();
    const items = page.getByRole('table', { name: 'Payments and fees in the bank not yet in the ledger' });
    await items.waitFor();
    assert.equal(await items.getByRole('row').filter({ hasText: 'Merchant service charge' }).count(), 25, 'a page of 25 items');
    await page.getByText('Showing 25 of 30 items').waitFor();
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than a 390px phone`);
    // Nor does any item reach past the screen's edge (a card clipped by its table would not scroll the page).
    const rightmost = await items.evaluate((table) => Math.max(...[...table.querySelectorAll('td')].map((cell) => cell.getBoundingClientRect().right)));
    assert.ok(rightmost <= 390, `an item reaches ${Math.round(rightmost)}px, past the 390px screen`);
    await screenshotsAt(page, 'shots/close-web/statement-items-paged', true);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Show more items' }).click();
    await page.getByText('Showing 30 of 30 items').waitFor();
    assert.equal(await items.getByRole('row').filter({ hasText: 'Merchant service charge' }).count(), 30);
    assert.equal(await page.getByRole('button', { name: 'Show more items' }).count(), 0, 'nothing more to show');
    assert.deepEqual(await seriousViolations(page), []);
    await page.context().close();
  });
});
