import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, fieldError, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

/**
 * The transactions explorer as an accountant uses it, in Tokyo (where a date-only booking read in
 * the browser's zone would move a day): rows in date order either way from the column's header,
 * the whole record in words in the details panel, filters kept in the address (reload, back and
 * forward), amounts typed as the table shows them, and rows as cards on a phone.
 */
describe('the transactions explorer', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  let datasetId = '';

  before(async () => {
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
    ({ datasetId } = await createDataset(server, organization, {
      name: 'Operating account',
      columns: [
        { name: 'valueDate', type: 'date' },
        { name: 'bookingDate', type: 'date' },
        { name: 'counterpartyName', type: 'string' },
        { name: 'counterpartyAccount', type: 'string' },
        { name: 'accountId', type: 'string' },
        { name: 'invoiceNumber', type: 'string' },
      ],
    }));
    const day = (date: string) => Date.parse(`${date}T00:00:00Z`);
    await addTransactions(server, organization, datasetId, [
      {
        externalId: 'kestrel',
        timestamp: day('2026-10-01'),
        bookingDate: '2026-10-01',
        valueDate: '2026-10-02',
        amount: '1000.00',
        currency: 'EUR',
        description: 'KESTREL AVIATION',
        type: 'Credit transfer',
        reference: 'RF18 5390 0754 7034',
        bankReference: 'BK-20261001-7',
        counterpartyName: 'Kestrel Aviation Ltd',
        counterpartyAccount: 'GB33BUKB20201555555555',
        accountId: 'DE89370400440532013000',
        invoiceNumber: 'INV-10424',
      },
      { externalId: 'rent', timestamp: day('2026-10-03'), amount: '-1000.50', currency: 'EUR', description: 'BAYSIDE RENT OCTOBER' },
      { externalId: 'alder', timestamp: day('2026-10-05'), amount: '250.00', currency: 'EUR', description: 'ALDER STATIONERY' },
      { externalId: 'westcott', timestamp: day('2026-10-07'), amount: '1000.00', currency: 'EUR', description: 'WESTCOTT DENTAL' },
    ]);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const rowTexts = (page: Page) => page.locator('.grid-row [data-column="description"]').allTextContents();

  it('orders by date from the header, shows the whole record in words, keeps its filters in the address and fits a phone', async () => {
    const page = await signInPage(browser, server, organization, { timezoneId: 'Asia/Tokyo' });
    await page.goto(`${server.baseUrl}/transactions?dataset=${datasetId}`);
    await page.getByText('4 transactions; scroll or drag anywhere').waitFor();
    await page.getByRole('row', { name: /WESTCOTT DENTAL/ }).waitFor();
    assert.deepEqual(await rowTexts(page), ['KESTREL AVIATION', 'BAYSIDE RENT OCTOBER', 'ALDER STATIONERY', 'WESTCOTT DENTAL']);

    // The date column's header orders the rows, newest first and back, by mouse and by keyboard.
    const dateHeader = page.getByRole('columnheader', { name: /Date/ });
    assert.equal(await dateHeader.getAttribute('aria-sort'), 'ascending');
    await dateHeader.getByRole('button').click();
    await page.locator('.grid-row').first().locator('[data-column="description"]', { hasText: 'WESTCOTT DENTAL' }).waitFor();
    assert.equal(await dateHeader.getAttribute('aria-sort'), 'descending');
    assert.deepEqual(await rowTexts(page), ['WESTCOTT DENTAL', 'ALDER STATIONERY', 'BAYSIDE RENT OCTOBER', 'KESTREL AVIATION']);
    assert.match(page.url(), /order=newest/);
    await page.reload();
    await page.getByRole('row', { name: /WESTCOTT DENTAL/ }).waitFor();
    assert.equal(await dateHeader.getAttribute('aria-sort'), 'descending', 'a reload keeps the order');
    await dateHeader.getByRole('button').focus();
    await page.keyboard.press('Enter');
    await page.locator('.grid-row').first().locator('[data-column="description"]', { hasText: 'KESTREL AVIATION' }).waitFor();
    assert.equal(await dateHeader.getAttribute('aria-sort'), 'ascending');

    // The details: the whole record, in words.
    await page.getByRole('row', { name: /KESTREL AVIATION/ }).click();
    const details = page.getByRole('complementary', { name: 'Transaction details' });
    await details.getByRole('heading', { name: 'KESTREL AVIATION' }).waitFor();
    const facts = Object.fromEntries(
      await details
        .locator('dl.record > div')
        .evaluateAll((entries) => entries.map((entry) => [entry.querySelector('dt')!.textContent, entry.querySelector('dd')!.textContent])),
    );
    assert.deepEqual(facts, {
      Date: 'Oct 1, 2026',
      'Booking date': 'Oct 1, 2026',
      'Value date': 'Oct 2, 2026',
      Amount: '1,000.00 EUR',
      Status: 'Not matched',
      Description: 'KESTREL AVIATION',
      Type: 'Credit transfer',
      Reference: 'RF18 5390 0754 7034',
      'Bank reference': 'BK-20261001-7',
      'Counterparty name': 'Kestrel Aviation Ltd',
      'Counterparty account': 'GB33BUKB20201555555555',
      Account: 'DE89370400440532013000',
      'Invoice number': 'INV-10424',
    });
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'explorer-details');

    // An amount as the table writes it is a filter; the details of a row of other filters close.
    await page.getByLabel('Amount from').fill('1,000.00');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('2 found of 4 in the dataset').waitFor();
    assert.equal(await details.count(), 0, 'the details of a row of the earlier filters are gone');
    assert.deepEqual(await rowTexts(page), ['KESTREL AVIATION', 'WESTCOTT DENTAL']);
    await page.getByRole('row', { name: /WESTCOTT DENTAL/ }).click();
    await details.getByRole('heading', { name: 'WESTCOTT DENTAL' }).waitFor();

    await page.getByLabel('Amount from').fill('');
    await page.getByLabel('Amount to').fill('-1,000.50');
    await page.getByRole('checkbox', { name: 'Not matched' }).check();
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('1 found of 4 in the dataset').waitFor();
    assert.deepEqual(await rowTexts(page), ['BAYSIDE RENT OCTOBER']);
    assert.equal(await details.count(), 0);

    // A reload keeps the filters, in the fields and in the rows.
    await page.reload();
    await page.getByText('1 found of 4 in the dataset').waitFor();
    assert.equal(await page.getByLabel('Amount to').inputValue(), '-1,000.50');
    assert.equal(await page.getByRole('checkbox', { name: 'Not matched' }).isChecked(), true);

    // Back: the filters before, with the details that were open on them (of one of their rows).
    await page.goBack();
    await page.getByText('2 found of 4 in the dataset').waitFor();
    assert.equal(await page.getByLabel('Amount from').inputValue(), '1,000.00');
    assert.equal(await page.getByLabel('Amount to').inputValue(), '');
    assert.equal(await page.getByRole('checkbox', { name: 'Not matched' }).isChecked(), false);
    await details.getByRole('heading', { name: 'WESTCOTT DENTAL' }).waitFor();
    // Forward: the later filters, with no details of a row they do not show.
    await page.goForward();
    await page.getByText('1 found of 4 in the dataset').waitFor();
    assert.equal(await page.getByLabel('Amount to').inputValue(), '-1,000.50');
    assert.equal(await details.count(), 0);
    // Back twice: the unfiltered table, with the details that were open on it.
    await page.goBack();
    await page.goBack();
    await page.getByText('4 transactions; scroll or drag anywhere').waitFor();
    assert.equal(await page.getByLabel('Amount from').inputValue(), '');
    await details.getByRole('heading', { name: 'KESTREL AVIATION' }).waitFor();

    // A shared link shows the same rows in a new window.
    await page.getByLabel('Amount from').fill('1000');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('2 found of 4 in the dataset').waitFor();
    const shared = await signInPage(browser, server, organization, { timezoneId: 'Asia/Tokyo' });
    await shared.goto(page.url());
    await shared.getByText('2 found of 4 in the dataset').waitFor();
    assert.equal(await shared.getByLabel('Amount from').inputValue(), '1000');
    await shared.context().close();

    // Anything else is refused next to its field, in words.
    for (const [typed, message] of [
      ['1.000,00', /^Amount from must be a decimal amount such as -1250\.00/],
      ['1,00,000', /^Amount from must be a decimal amount such as -1250\.00/],
      ['12,5', /^Amount from has a comma for decimals; write them after a dot, e\.g\. 12\.5\.$/],
      ['EUR 10', /^Amount from must be a decimal amount/],
    ] as const) {
      await page.getByLabel('Amount from').fill(typed);
      await page.getByRole('button', { name: 'Apply' }).click();
      assert.match(await fieldError(page, page.getByLabel('Amount from')), message, typed);
    }
    await page.getByLabel('Amount from').fill('');
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByText('4 transactions; scroll or drag anywhere').waitFor();

    // On a phone the rows are cards: description, date, amount and status, with nothing sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('[role="grid"].stacked').waitFor();
    assert.ok(Number(await page.evaluate('document.documentElement.scrollWidth')) <= 390);
    const card = page.getByRole('row', { name: /BAYSIDE RENT OCTOBER/ });
    for (const column of ['description', 'date', 'amount', 'status']) {
      const box = (await card.locator(`[data-column="${column}"]`).boundingBox())!;
      assert.ok(box.width > 0 && box.x >= 0 && box.x + box.width <= 390, `${column} at ${JSON.stringify(box)}`);
    }
    assert.match((await card.textContent()) ?? '', /Oct 3, 2026/);
    assert.match((await card.textContent()) ?? '', /−1,000\.50 EUR/);
    const gridCard = page.locator('.grid-card');
    assert.ok(await gridCard.evaluate((element) => element.scrollWidth <= element.clientWidth), 'the table does not scroll sideways');
    assert.deepEqual(await seriousViolations(page), []);
    await card.click();
    await page.getByRole('complementary', { name: 'Transaction details' }).getByRole('heading', { name: 'BAYSIDE RENT OCTOBER' }).waitFor();
    assert.ok(Number(await page.evaluate('document.documentElement.scrollWidth')) <= 390);
    await screenshotsAt(page, 'explorer-cards', true);
    await page.context().close();
  });

  // A card payment booked at 23:30 UTC on 31 October: 16:30 the same day in Los Angeles, 08:30 the
  // next day in Tokyo. The explorer shows the day and time the bank's file gives, in every zone.
  for (const timezoneId of ['America/Los_Angeles', 'Asia/Tokyo']) {
    it(`shows a booking's date and time as the bank wrote them in ${timezoneId}`, async () => {
      const { datasetId: cards } = await createDataset(server, organization, { name: `Card account ${timezoneId}` });
      await addTransactions(server, organization, cards, [
        { externalId: 'late', timestamp: Date.parse('2026-10-31T23:30:00Z'), amount: '-42.00', currency: 'EUR', description: 'NIGHT TAXI' },
      ]);
      const page = await signInPage(browser, server, organization, { timezoneId, locale: 'en-US' });
      assert.equal(await page.evaluate('Intl.DateTimeFormat().resolvedOptions().timeZone'), timezoneId);
      await page.goto(`${server.baseUrl}/transactions?dataset=${cards}`);
      const row = page.getByRole('row', { name: /NIGHT TAXI/ });
      await row.waitFor();
      const shown = (await row.textContent()) ?? '';
      assert.ok(shown.includes('Oct 31, 2026, 11:30 PM UTC'), shown);
      assert.doesNotMatch(shown, /Nov 1, 2026|4:30 PM|8:30 AM/);
      await row.click();
      const details = page.getByRole('complementary', { name: 'Transaction details' });
      await details.getByRole('heading', { name: 'NIGHT TAXI' }).waitFor();
      const date = details
        .locator('dl.record > div')
        .filter({ has: page.locator('dt', { hasText: /^Date$/ }) })
        .locator('dd');
      assert.equal(await date.textContent(), 'Oct 31, 2026, 11:30 PM UTC');
      await page.getByText('1 transaction; scroll or drag anywhere').waitFor();
      await screenshotsAt(page, `explorer-booking-time-${timezoneId.replace('/', '-')}`);
      await page.context().close();
    });
  }
});
