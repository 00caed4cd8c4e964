import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { UNFIT_FOR_PEOPLE } from '../../web/src/messages.ts';

/**
 * Dates as the bank wrote them, and errors in words (web/src/format.ts, web/src/messages.ts), in a
 * real Chromium against the real server. A statement with known booking and value dates is
 * imported through the API; every date the explorer, its details, the import history and the
 * dashboard show is checked against the file in three time zones (one west of Greenwich, where
 * a day read in the browser's zone would be the day before) and in German. Then every error path
 * the app can be led into is walked, and no text on the screen may hold an id, an epoch number,
 * an HTTP verb, a path, a JSON pointer or a scope name.
 */

/** An MT940 statement of January 2019: value dates and booking dates as the :61: lines give them. */
const STATEMENT = [
  ':20:JAN2019',
  ':25:NL91ABNA0417164300',
  ':28C:1/1',
  ':60F:C181231EUR1000,00',
  // Booked 1 January (no entry date: the value date), money out.
  ':61:190101D25,50NMSCFEE',
  ':86:Bank fee December',
  // Value 5 January, booked 7 January.
  ':61:1901050107C100,00NTRFA1',
  ':86:Invoice A1 Westcott Dental',
  // Value and booking 31 January.
  ':61:1901310131C250,00NTRFA3',
  ':86:Invoice A3 Harbour Cafe',
  ':62F:C190131EUR1324,50',
  '-',
].join('\r\n');

/** What the statement says, per entry: its text, booking date and value date (UTC days). */
const ENTRIES = [
  { text: 'Bank fee December', booked: Date.UTC(2019, 0, 1), value: Date.UTC(2019, 0, 1) },
  { text: 'Invoice A1 Westcott Dental', booked: Date.UTC(2019, 0, 7), value: Date.UTC(2019, 0, 5) },
  { text: 'Invoice A3 Harbour Cafe', booked: Date.UTC(2019, 0, 31), value: Date.UTC(2019, 0, 31) },
];
const CLOSING_DAY = Date.UTC(2019, 0, 31);

/** A calendar date as a reader of `locale` expects it (the app writes days in its medium style). */
const dayIn = (locale: string, day: number) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(day);
const monthIn = (locale: string, day: number) => new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(day);

/**
 * What the screen shows a person that no person can use: each match, named. What the screen marks
 * as for engineers (a dataset's id for the API, labelled so, with its copy button) is left out.
 */
async function unfitTexts(page: Page): Promise<string[]> {
  const text = (await page.evaluate(`(() => {
    const marked = [...document.querySelectorAll('[data-for-engineers]')];
    const displays = marked.map((element) => element.style.display);
    for (const element of marked) element.style.display = 'none';
    const shown = document.body.innerText;
    marked.forEach((element, index) => (element.style.display = displays[index]));
    return shown;
  })()`)) as string;
  return UNFIT_FOR_PEOPLE.flatMap(({ name, pattern }) => {
    const found = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    return [...text.matchAll(found)].map((match) => `${name}: "${text.slice(Math.max(0, match.index - 40), match.index + match[0].length + 40)}"`);
  });
}

async function assertFitForPeople(page: Page, where: string): Promise<void> {
  assert.deepEqual(await unfitTexts(page), [], `${where}: text no person can use`);
}

describe('dates and locales, and errors in words', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  let bankId: string;
  const call = (method: string, path: string, body?: unknown) => api(server, organization.token, method, `/v1/api/${organization.orgId}${path}`, body);

  before(async () => {
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
    const sourceId = (await call('POST', '/sources', { name: 'Harbour Bank' })).body.id;
    bankId = (await call('POST', `/sources/${sourceId}/datasets`, { name: 'Current account EUR' })).body.id;
    const response = await fetch(`${server.baseUrl}/v1/api/${organization.orgId}/datasets/${bankId}/imports?fileName=january.sta`, {
      method: 'POST',
      headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/octet-stream' },
      body: STATEMENT,
    });
    const imported = (await response.json()) as { inserted: number };
    assert.equal(imported.inserted, 3, JSON.stringify(imported));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const { timezoneId, locale } of [
    { timezoneId: 'America/Los_Angeles', locale: 'en-US' },
    { timezoneId: 'UTC', locale: 'en-US' },
    { timezoneId: 'Asia/Tokyo', locale: 'en-US' },
    { timezoneId: 'America/Los_Angeles', locale: 'de-DE' },
  ]) {
    it(`shows the statement's dates as the bank wrote them in ${timezoneId}, ${locale}`, async () => {
      const page = await signInPage(browser, server, organization, { timezoneId, locale });
      assert.equal(await page.evaluate('Intl.DateTimeFormat().resolvedOptions().timeZone'), timezoneId);

      // The explorer: each entry's time is its booking day, with no time of day.
      await page.goto(`${server.baseUrl}/transactions?dataset=${bankId}`);
      const grid = page.getByRole('grid', { name: 'Transactions' });
      for (const entry of ENTRIES) {
        const row = grid.getByRole('row', { name: new RegExp(entry.text) });
        await row.waitFor();
        const time = (await row.getByRole('gridcell').first().textContent()) ?? '';
        assert.equal(time, dayIn(locale, entry.booked), `${entry.text}: the booking day`);
      }
      // The bank's date columns, chosen: days, never epoch numbers.
      await page.getByRole('checkbox', { name: 'Booking date' }).check();
      await page.getByRole('checkbox', { name: 'Value date' }).check();
      await page.getByRole('button', { name: 'Apply' }).click();
      await grid.getByRole('columnheader', { name: 'Value date' }).waitFor();
      for (const entry of ENTRIES) {
        const row = grid.getByRole('row', { name: new RegExp(entry.text) });
        // The rows are read again with the columns chosen: the row has all its cells once they are here.
        await row.getByRole('gridcell').nth(6).waitFor();
        const cells = await row.getByRole('gridcell').allTextContents();
        assert.deepEqual(cells.slice(-2), [dayIn(locale, entry.booked), dayIn(locale, entry.value)], entry.text);
      }
      await assertFitForPeople(page, 'explorer');

      // Its details: the booking and the value date by name.
      await grid.getByRole('row', { name: /Invoice A1/ }).click();
      const details = page.getByRole('complementary', { name: 'Transaction details' });
      // The panel reads the whole record: its dates are there once it has arrived.
      await details.getByText('Booking date').waitFor();
      const detailsText = (await details.textContent()) ?? '';
      assert.ok(detailsText.includes(`Booking date${dayIn(locale, Date.UTC(2019, 0, 7))}`), detailsText);
      assert.ok(detailsText.includes(`Value date${dayIn(locale, Date.UTC(2019, 0, 5))}`), detailsText);
      assert.ok(detailsText.startsWith(`Invoice A1 Westcott DentalCloseDate${dayIn(locale, Date.UTC(2019, 0, 7))}Booking date`), detailsText);

      // The CSV export: days as YYYY-MM-DD, in every zone.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      const rows = parse(readFileSync((await download.path())!, 'utf8'), { columns: true }) as Record<string, string>[];
      assert.deepEqual(
        rows.map((row) => [row.description, row.time, row.bookingDate, row.valueDate]),
        [
          ['Bank fee December', '2019-01-01', '2019-01-01', '2019-01-01'],
          ['Invoice A1 Westcott Dental', '2019-01-07', '2019-01-07', '2019-01-05'],
          ['Invoice A3 Harbour Cafe', '2019-01-31', '2019-01-31', '2019-01-31'],
        ],
      );
      if (timezoneId === 'America/Los_Angeles' && locale === 'en-US') await screenshotsAt(page, 'dates-explorer');

      // The import history: the statement's day as a day; when it was imported, in this zone, the zone named on hover.
      await page.getByRole('link', { name: 'Imports' }).click();
      await page.getByLabel('Into dataset').selectOption({ label: 'Harbour Bank · Current account EUR' });
      const history = page.getByRole('row', { name: /january\.sta/ });
      await history.waitFor();
      const cells = await history.getByRole('cell').allTextContents();
      assert.equal(cells[3], dayIn(locale, CLOSING_DAY), `the statement date: ${cells.join(' | ')}`);
      const imported = history.getByRole('cell').first().locator('time');
      assert.match((await imported.getAttribute('title')) ?? '', new RegExp(`${timezoneId.replace('/', '\\/')}\\)$`));
      const importedAt = Date.parse((await imported.getAttribute('datetime'))!);
      const expectedMoment = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: timezoneId }).format(importedAt);
      assert.equal(await imported.textContent(), expectedMoment);
      await assertFitForPeople(page, 'imports');
      if (timezoneId === 'America/Los_Angeles' && locale === 'en-US') await screenshotsAt(page, 'dates-imports');

      // The dashboard: the month of the statement.
      await page.getByRole('link', { name: 'Dashboard' }).click();
      await page.getByLabel('Dataset').selectOption({ label: 'Harbour Bank · Current account EUR' });
      await page.getByText(`reconciled in ${monthIn(locale, CLOSING_DAY)} by`).waitFor();
      assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /Dec(ember|\.)? 2018|2018-12/);
      await assertFitForPeople(page, 'dashboard');
      if (timezoneId === 'America/Los_Angeles' && locale === 'de-DE') await screenshotsAt(page, 'dates-dashboard-de');
      assert.deepEqual(await seriousViolations(page), []);
      await page.context().close();
    });
  }

  it('words every error it can be led into, with no id, route, pointer or scope, and shows a View-only person no form it cannot send', async () => {
    const page = await signInPage(browser, server, organization, { timezoneId: 'America/Los_Angeles' });

    // A file that is no statement, and an empty one.
    await page.getByRole('link', { name: 'Imports' }).click();
    await page.getByLabel('Into dataset').selectOption({ label: 'Harbour Bank · Current account EUR' });
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex') });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('alert').first().waitFor();
    const notStatement = (await page.getByRole('alert').allTextContents()).join(' ');
    assert.match(notStatement, /Nothing of the file was kept: .*not a format/, notStatement);
    await assertFitForPeople(page, 'an image imported');
    await page.locator('input[type=file]').setInputFiles({ name: 'empty.sta', mimeType: 'application/octet-stream', buffer: Buffer.alloc(0) });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page
      .getByText(/file is empty/i)
      .first()
      .waitFor();
    await assertFitForPeople(page, 'an empty file imported');
    // A statement that breaks its format.
    await page.locator('input[type=file]').setInputFiles({
      name: 'broken.sta',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(STATEMENT.replace(':61:1901050107C100,00NTRFA1', ':61:19010501X7C1x0,00NTRFA1')),
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page
      .getByText(/nothing of (it|the file) was kept/i)
      .first()
      .waitFor();
    await assertFitForPeople(page, 'a broken statement imported');
    await screenshotsAt(page, 'errors-import');

    // Two columns of one name.
    await page.getByRole('link', { name: 'Datasets' }).click();
    await page.getByRole('button', { name: 'Add a dataset to Harbour Bank' }).click();
    await page.getByLabel('Dataset name').fill('Card account');
    for (let column = 1; column <= 2; column++) {
      await page.getByRole('button', { name: 'Add a column' }).click();
      await page.getByLabel(`Column ${column} name`).fill('Cost centre');
    }
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await page.locator('[aria-invalid="true"]').first().waitFor();
    await assertFitForPeople(page, 'duplicate column names');

    // A person invited twice.
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByLabel('Email').fill(organization.user!.email);
    await page.getByRole('button', { name: /Invite/ }).click();
    await page.getByText(/already a user/).waitFor();
    await assertFitForPeople(page, 'a user invited twice');

    // A rule the checker refuses: its problems name fields in words.
    await page.getByRole('link', { name: 'Rules' }).click();
    await page.getByRole('button', { name: 'New rule' }).click();
    const editor = page.getByRole('region', { name: 'Rule editor' });
    // Written in the JSON view, as an engineer would: the problems are still said in words.
    await editor.getByRole('button', { name: /JSON view/ }).click();
    await editor.getByLabel('The rule as the API takes it').fill(
      JSON.stringify({
        name: 'Broken',
        origin: { datasetIds: [bankId] },
        target: { datasetIds: ['00000000-0000-4000-8000-000000000000'] },
        conditions: [{ type: 'amount', path: 'nosuchcolumn' }],
      }),
    );
    await editor.locator('.rule-problems li, .field-error').first().waitFor();
    await assertFitForPeople(page, 'a refused rule');
    await screenshotsAt(page, 'errors-rule');

    // A run with no enabled rule.
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.getByText('There is no enabled rule to run. Create a rule, or enable one, then run again.').waitFor();
    await assertFitForPeople(page, 'a run without rules');

    // A session that ended: the server refuses the token, and a new one without the cookie.
    await page.context().clearCookies();
    await page.route('**/v1/api/**', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({
          error: { code: 401, status: 'Unauthorized', request: '5f0e0a4c-7a44-4d5c-9a8f-0a1b2c3d4e5f', message: 'the access token has expired' },
        }),
      }),
    );
    await page.getByRole('link', { name: 'Transactions' }).click();
    await page
      .getByText(/Your session has ended|Sign in to ledger-recon/)
      .first()
      .waitFor();
    await assertFitForPeople(page, 'a session that ended');
    await page.context().close();

    // A View-only person: no form to import, invite, create a rule, or add a dataset.
    const invited = await call('POST', '/invitations', { email: 'viewer@example.com', role: 'View-only' });
    assert.equal(invited.status, 201);
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const viewer = await context.newPage();
    await viewer.goto(invited.body.invitationUrl);
    await viewer.getByLabel('Password', { exact: true }).fill('three quiet harbours');
    await viewer.getByLabel('The same password again').fill('three quiet harbours');
    await viewer.getByRole('button', { name: 'Set the password and sign in' }).click();
    await viewer.getByRole('heading', { name: 'Developer' }).waitFor();
    for (const [path, heading] of [
      ['/imports', 'Imports'],
      ['/users', 'Users'],
      ['/rules', 'Rules and runs'],
      ['/datasets', 'Sources and datasets'],
      ['/transactions', 'Transactions'],
      ['/matching', undefined],
      ['/dashboard', 'Dashboard'],
    ] as const) {
      await viewer.goto(`${server.baseUrl}${path}`);
      if (heading) await viewer.getByRole('heading', { name: heading, exact: true }).first().waitFor();
      else await viewer.locator('main').waitFor();
      await viewer.waitForTimeout(300);
      for (const write of [/^Import$/, /^Invite/, /^New rule$/, /^Create/, /^Add a dataset/, /^Dry run$/, /^Match/, /^Unmatch$/])
        assert.equal(await viewer.getByRole('button', { name: write }).count(), 0, `${path}: a View-only person is offered "${write.source}"`);
      await assertFitForPeople(viewer, `${path} as View-only`);
    }
    await viewer.goto(`${server.baseUrl}/users`);
    await viewer.getByText('Only Administrators invite people').waitFor();
    await screenshotsAt(viewer, 'view-only-users');
    await context.close();
  });
});
