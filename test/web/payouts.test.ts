import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, focused, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { api, createTestOrganization, startTestServer, type TestServer } from '../../support/harness.ts';
import { seedPayout } from '../../support/payout-fixtures.ts';

/**
 * A payout in the web app: a charge's details say which payout it is part of, as a link; the
 * payout opens as a summary (the bank deposit, the rows counted and summed by type, the
 * difference) with its rows a page at a time; one row cannot be unmatched alone; the payout is
 * unmatched whole after a confirmation that says what it unmatches. The deposit's date is the
 * bank file's calendar date west and east of UTC.
 */

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('web app: payouts', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    server = await startTestServer('pglite');
    assertWebAppBuilt();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The page's visible text. */
  const textOf = async (page: Page) => (await page.locator('main').innerText()).replace(/\s+/g, ' ');

  for (const timezoneId of ['America/Los_Angeles', 'Asia/Tokyo']) {
    it(`opens a charge's payout as a summary, pages its rows and unmatches it whole (${timezoneId})`, async () => {
      const organization = await createTestOrganization(server);
      const payout = await seedPayout(server, organization);
      const page = await signInPage(browser, server, organization, { timezoneId, locale: 'en-US' });

      // The explorer: a charge's details say which payout it is part of.
      await page.goto(`${server.baseUrl}/transactions?dataset=${payout.providerDatasetId}`);
      await page.getByLabel('Description contains').fill('Charge 0007');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByRole('row', { name: /Charge 0007/ }).click();
      const details = page.getByRole('complementary', { name: 'Transaction details' });
      const partOf = details.getByRole('link', { name: /^Part of payout po_123/ });
      await partOf.waitFor();
      assert.equal(await partOf.textContent(), 'Part of payout po_123 — 303 rows, 2,832.70 EUR, matched to the bank deposit of Jan 3, 2026');

      // One row of a netted payout cannot be unmatched alone: said in words.
      await details.getByRole('button', { name: 'Unmatch' }).click();
      const refusal = details.getByRole('alert');
      await refusal.waitFor();
      await screenshotsAt(page, `payout-charge-${timezoneId.replace('/', '-')}`);
      assert.match((await refusal.textContent()) ?? '', /part of a payout .* cannot be unmatched alone\. Open the payout and unmatch it as a whole\./);
      assert.doesNotMatch((await refusal.textContent()) ?? '', UUID);

      // The deposit's details name its payout, not its 303 links one by one.
      await details.getByRole('button', { name: 'Close' }).click();
      await page.goto(`${server.baseUrl}/transactions?dataset=${payout.bankDatasetId}`);
      await page.getByRole('row', { name: /STRIPE PAYMENTS UK LTD PAYOUT/ }).click();
      const ofDeposit = details.getByRole('link', { name: /^Payout po_123/ });
      await ofDeposit.waitFor();
      assert.equal(await ofDeposit.textContent(), 'Payout po_123 — 303 rows, 2,832.70 EUR: see its rows');
      assert.equal(await details.getByRole('button', { name: 'Unmatch' }).count(), 0);

      // The payout's summary.
      await ofDeposit.click();
      await page.getByRole('heading', { name: 'Payout po_123' }).waitFor();
      await page.getByText('Showing 50 of 303 rows').waitFor();
      const summary = await textOf(page);
      assert.match(summary, /Bank deposit STRIPE PAYMENTS UK LTD PAYOUT Date Jan 3, 2026 Amount 2,832\.70 EUR/);
      assert.match(summary, /296 charges 2,960\.00 EUR · 4 refunds −40\.00 EUR · 3 fees −87\.30 EUR/);
      assert.match(summary, /The rows come to 2,832\.70 EUR · Difference 0\.00 EUR/);
      assert.match(summary, /Matched by the rule “Card payouts”/);
      assert.doesNotMatch(summary, UUID);
      assert.doesNotMatch(summary, /\b1[0-9]{12}\b/, 'no epoch milliseconds');

      // The rows, a page at a time: each with its calendar date, description, type and amount.
      const rows = page.locator('table.group-rows tbody tr');
      assert.equal(await rows.count(), 50);
      const first = (await rows.first().innerText()).replace(/\s+/g, ' ');
      assert.match(first, /^Jan [12], 2026 (Charge|Refund|Fee) \d{4} (charge|refund|fee) −?\d+\.\d\d EUR$/);
      assert.deepEqual(await seriousViolations(page), []);
      await screenshotsAt(page, `payout-${timezoneId.replace('/', '-')}`);
      // On a phone, a row's description and amount are on the screen, without sideways scrolling.
      await page.setViewportSize({ width: 390, height: 844 });
      assert.ok(((await page.evaluate('document.documentElement.scrollWidth')) as number) <= 390, 'the page does not scroll sideways');
      for (const cell of [rows.first().locator('td.group-row-text'), rows.first().locator('td.number')]) {
        const box = await cell.boundingBox();
        assert.ok(box !== null && box.x >= 0 && box.x + box.width <= 390, `${await cell.innerText()} lies within the phone's width: ${JSON.stringify(box)}`);
      }
      await page.setViewportSize({ width: 1400, height: 900 });

      await page.getByRole('button', { name: 'Show more rows' }).click();
      await page.getByText('Showing 100 of 303 rows').waitFor();
      for (const shown of [150, 200, 250, 300, 303]) {
        await page.getByRole('button', { name: 'Show more rows' }).click();
        await page.getByText(`Showing ${shown} of 303 rows`).waitFor();
      }
      assert.equal(await page.getByRole('button', { name: 'Show more rows' }).count(), 0, 'the last page offers no more');
      const descriptions = await page.locator('table.group-rows td.group-row-text').allInnerTexts();
      assert.equal(new Set(descriptions).size, 303, 'each row once');
      assert.ok(descriptions.includes('Refund 0004') && descriptions.includes('Fee 0003'));

      // Unmatching is one action, after a confirmation that lists what it unmatches.
      await page.getByRole('button', { name: 'Unmatch this payout…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Unmatch payout po_123?' });
      await dialog.waitFor();
      const listed = (await dialog.innerText()).replace(/\s+/g, ' ');
      assert.match(listed, /The bank deposit of Jan 3, 2026, “STRIPE PAYMENTS UK LTD PAYOUT”, 2,832\.70 EUR, becomes open again\./);
      assert.match(
        listed,
        /The payout's 303 rows, 2,832\.70 EUR in all \(296 charges 2,960\.00 EUR · 4 refunds −40\.00 EUR · 3 fees −87\.30 EUR\), become open again\./,
      );
      assert.doesNotMatch(listed, UUID);
      assert.deepEqual(await seriousViolations(page), []);
      await screenshotsAt(page, `payout-unmatch-${timezoneId.replace('/', '-')}`);

      // The button stays disabled while the request runs (held back here for a moment).
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/match-groups/**', async (route) => {
        if (route.request().method() === 'DELETE') await held;
        await route.continue();
      });
      await dialog.getByRole('button', { name: 'Unmatch 304 transactions' }).click();
      const working = dialog.getByRole('button', { name: 'Unmatching…' });
      await working.waitFor();
      assert.equal(await working.isDisabled(), true);
      release();
      const done = page.getByRole('status').filter({ hasText: 'unmatched' });
      await done.waitFor();
      assert.equal(
        await done.textContent(),
        'Payout po_123 was unmatched: the bank deposit of Jan 3, 2026 (2,832.70 EUR) and 303 rows (2,832.70 EUR) are open again.',
      );

      const deposit = await api(server, organization.token, 'GET', `/v1/api/${organization.orgId}/transactions/${payout.depositId}`);
      assert.equal(deposit.body.reconciliationStatus, 'none');
      assert.equal(deposit.body.incomingMatches.length, 0);
      const group = await api(server, organization.token, 'GET', `/v1/api/${organization.orgId}/match-groups/${payout.groupId}`);
      assert.equal(group.status, 404);
      await page.context().close();
    });
  }

  it('opens a match made in the workspace from its message, and unmatches it whole after a confirmation', async () => {
    const organization = await createTestOrganization(server);
    const call = async (method: string, path: string, body?: unknown) => {
      const answer = await api(server, organization.token, method, `/v1/api/${organization.orgId}${path}`, body);
      assert.ok(answer.status < 300, JSON.stringify(answer.body));
      return answer.body;
    };
    const source = await call('POST', '/sources', { name: 'Harbour' });
    const bank = await call('POST', `/sources/${source.id}/datasets`, { name: 'Bank', columns: [] });
    const ledger = await call('POST', `/sources/${source.id}/datasets`, { name: 'Ledger', columns: [] });
    const day = Date.UTC(2026, 4, 4);
    await call('POST', `/datasets/${bank.id}/transactions`, {
      records: [{ externalId: 'B1', timestamp: day, amount: '150.35', currency: 'EUR', description: 'Harbour deposit' }],
    });
    await call('POST', `/datasets/${ledger.id}/transactions`, {
      records: [
        { externalId: 'L1', timestamp: day, amount: '100.10', currency: 'EUR', description: 'Invoice one' },
        { externalId: 'L2', timestamp: day, amount: '50.25', currency: 'EUR', description: 'Invoice two' },
      ],
    });
    const page = await signInPage(browser, server, organization, { timezoneId: 'America/Los_Angeles', locale: 'en-US' });
    await page.getByRole('link', { name: 'Matching' }).click();
    await page.getByRole('region', { name: 'Left side' }).locator('select').selectOption({ label: 'Harbour · Bank' });
    await page.getByRole('region', { name: 'Right side' }).locator('select').selectOption({ label: 'Harbour · Ledger' });
    await page
      .getByRole('listbox', { name: 'Left transactions' })
      .getByRole('option', { name: /Harbour deposit/ })
      .click();
    await page
      .getByRole('listbox', { name: 'Right transactions' })
      .getByRole('option', { name: /Invoice one/ })
      .click();
    await page
      .getByRole('listbox', { name: 'Right transactions' })
      .getByRole('option', { name: /Invoice two/ })
      .click();
    await page.getByRole('button', { name: 'Match selected' }).click();
    await page.getByRole('link', { name: 'See the match' }).click();

    await page.getByRole('heading', { name: 'Match of “Harbour deposit”', level: 1 }).waitFor();
    await page.getByText('Showing 2 of 2 rows').waitFor();
    const summary = await textOf(page);
    assert.match(summary, /Matched to Harbour deposit Date May 4, 2026 Amount 150\.35 EUR/);
    assert.match(summary, /2 transactions, in all 150\.35 EUR · Difference 0\.00 EUR/);
    assert.match(summary, /Matched by hand/);
    await screenshotsAt(page, 'match-by-hand');
    // The explorer's details of one side lead to the same match.
    await page.goto(`${server.baseUrl}/transactions?dataset=${ledger.id}`);
    await page.getByRole('row', { name: /Invoice one/ }).click();
    const link = page.getByRole('complementary', { name: 'Transaction details' }).getByRole('link', { name: /^Matched with/ });
    await link.waitFor();
    assert.equal(await link.textContent(), 'Matched with “Harbour deposit” of May 4, 2026, together with 1 other transaction');
    await link.click();
    await page.getByRole('heading', { name: 'Match of “Harbour deposit”', level: 1 }).waitFor();
    assert.match(summary, /May 4, 2026 Invoice one 100\.10 EUR/);
    assert.doesNotMatch(summary, UUID);
    assert.deepEqual(await seriousViolations(page), []);

    // One row of a match by hand can leave it alone; the rest stay matched.
    await page.getByRole('button', { name: 'Unmatch “Invoice two” alone' }).click();
    await page.getByText('“Invoice two” (50.25 EUR) was unmatched; the others stay matched.').waitFor();
    await page.getByText('Showing 1 of 1 row').waitFor();
    assert.match(await textOf(page), /1 transaction, in all 100\.10 EUR · Difference 50\.25 EUR/);

    await page.getByRole('button', { name: 'Unmatch…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unmatch these transactions?' });
    const listed = (await dialog.innerText()).replace(/\s+/g, ' ');
    assert.match(listed, /The transaction of May 4, 2026, “Harbour deposit”, 150\.35 EUR, becomes open again\./);
    assert.match(listed, /1 transaction on the other side, 100\.10 EUR in all, becomes open again\./);
    await dialog.getByRole('button', { name: 'Unmatch', exact: true }).click();
    const done = page.getByRole('status').filter({ hasText: 'open again' });
    await done.waitFor();
    assert.equal((await focused(page)).text, 'Unmatched', 'the focus is on what happened, not lost with the dialog');
    assert.equal(await done.textContent(), 'The match was undone: the transaction of May 4, 2026 (150.35 EUR) and 1 row (100.10 EUR) are open again.');
    await page.context().close();
  });
});
