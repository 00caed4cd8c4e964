import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * The CSV mapper of the imports screen in a real Chromium: a ledger export (semicolons, decimal
 * commas, DD.MM.YYYY dates, separate debit and credit columns, a description over two columns)
 * mapped by picking each column, never typing JSON; the preview of each row follows the picks,
 * a row that would fail says why; the mapping is saved on the dataset and the next file of the
 * same header is read with it. A bank export imports with what the preview proposes.
 */

const HEADER = 'Datum;Soll;Haben;Buchungstext;Zusatz;Beleg;Kostenstelle;Saldo';
const JANUARY = [
  HEADER,
  '02.01.2024;12,50;;Büro;Papier A4;B-101;K10;987,50',
  '03.01.2024;;1.200,00;Kunde Nord;Rechnung 17;B-102;K20;2.187,50',
  '15.01.2024;89,90;;Telefon;Januar;B-103;K10;2.097,60',
  '28.01.2024;;45,00;Erstattung;Porto;B-104;;2.142,60',
].join('\r\n');
const FEBRUARY = [HEADER, '01.02.2024;300,00;;Miete;Februar;B-201;K30;1.842,60', '13.02.2024;;99,99;Kunde Süd;Rechnung 18;B-202;K20;1.942,59'].join('\r\n');

describe('CSV mapper', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  let journalId: string;
  let folder: string;
  const call = (method: string, url: string, body?: unknown) => api(server, organization.token, method, `/v1/api/${organization.orgId}${url}`, body);

  before(async () => {
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
    const books = (await call('POST', '/sources', { name: 'Books' })).body.id;
    journalId = (await call('POST', `/sources/${books}/datasets`, { name: 'Journal', columns: [{ name: 'costCentre', type: 'string' }] })).body.id;
    const bank = (await call('POST', '/sources', { name: 'Deutsche Bank' })).body.id;
    await call('POST', `/sources/${bank}/datasets`, { name: 'Giro' });
    folder = mkdtempSync(path.join(tmpdir(), 'csv-mapper-'));
    writeFileSync(path.join(folder, 'journal-january.csv'), JANUARY);
    writeFileSync(path.join(folder, 'journal-february.csv'), FEBRUARY);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The picker above a column of the sample table. */
  const picker = (page: Page, column: string) =>
    page.getByRole('button', { name: new RegExp(`Column “${column.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}” holds`) });
  async function pick(page: Page, column: string, choice: string): Promise<void> {
    await picker(page, column).click();

    await page.getByRole('option', { name: choice, exact: true }).click();
  }
  const resultTable = (page: Page) => page.locator('table.mapper-result');
  const resultRow = (page: Page, line: number) =>
    resultTable(page)
      .locator('tbody tr')
      .filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${line}$`) }) });
  const importButton = (page: Page) => page.getByRole('button', { name: 'Import', exact: true });

  async function openImports(page: Page, dataset: string): Promise<void> {
    await page.getByRole('link', { name: 'Imports' }).click();
    await page.getByRole('heading', { name: 'Import a file' }).waitFor();
    await page.getByLabel('Into dataset').selectOption({ label: dataset });
  }

  it('maps a ledger export by picking its columns, shows each row as it will be stored and why a row would fail, imports it, and reads the next file of that header with the saved mapping', async () => {
    // West of UTC, where a calendar date read as midnight UTC would show the day before.
    const page = await signInPage(browser, server, organization, { timezoneId: 'America/Los_Angeles', locale: 'en-US' });
    await openImports(page, 'Books · Journal');
    await page.locator('input[type=file]').setInputFiles(path.join(folder, 'journal-january.csv'));
    await picker(page, 'Datum').waitFor();

    // The settings come detected; each column has a picker above its header, and the rows are shown as written.
    assert.equal(await page.getByRole('button', { name: /Delimiter/ }).textContent(), 'Semicolon ( ; )▾');
    assert.equal(await page.getByRole('button', { name: /Decimal separator/ }).textContent(), 'Comma: 1234,56▾');
    assert.equal(await page.getByRole('combobox', { name: 'Date format' }).inputValue(), 'DD.MM.YYYY');
    assert.ok(await page.getByRole('checkbox', { name: 'The first row names the columns' }).isChecked());
    const sample = page.getByRole('region', { name: 'First rows of the file with a picker above each column' });
    await sample.getByRole('cell', { name: 'Rechnung 17' }).waitFor();

    // Every column picked, none by typing.
    await pick(page, 'Datum', 'Date');
    await pick(page, 'Soll', 'Debit (money out)');
    await pick(page, 'Haben', 'Ignore');
    const hints = page.getByRole('list', { name: 'Still to settle' });
    await hints.getByText('Pick the credit column (money in) too.').waitFor();
    assert.ok(await importButton(page).isDisabled(), 'nothing is imported while a column is missing');
    await pick(page, 'Haben', 'Credit (money in)');
    await hints.getByText('Pick the credit column (money in) too.').waitFor({ state: 'detached' });
    await pick(page, 'Buchungstext', 'Description');
    await pick(page, 'Zusatz', 'Description');
    // By keyboard: the picker opens on Enter, a few letters find the choice, Enter takes it.
    await picker(page, 'Beleg').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('listbox').waitFor();
    await page.keyboard.type('Ref');
    await page.keyboard.press('Enter');
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    assert.match((await picker(page, 'Beleg').textContent()) ?? '', /^Reference/);
    await pick(page, 'Kostenstelle', 'Dataset column: costCentre');
    await pick(page, 'Saldo', 'Ignore');
    if (await page.getByText('No column gives the currency: choose the currency of the amounts.').count()) {
      await page.getByRole('textbox', { name: 'Currency of rows without one' }).fill('EUR');
    }
    await page.getByText('No column gives the currency: choose the currency of the amounts.').waitFor({ state: 'detached' });

    // Each row as it will be stored: the calendar date, the signed amount with its currency, the joined description.
    await resultRow(page, 3).getByText('Kunde Nord Rechnung 17').waitFor();
    assert.deepEqual(await resultRow(page, 2).locator('td').allTextContents(), ['2', 'Jan 2, 2024', '−12.50 EUR', 'Büro Papier A4', 'Reads']);
    assert.deepEqual(await resultRow(page, 3).locator('td').allTextContents(), ['3', 'Jan 3, 2024', '1,200.00 EUR', 'Kunde Nord Rechnung 17', 'Reads']);

    // A date format that does not fit marks the rows it cannot read, with the reason in words, and the preview follows a correction.
    const dateFormat = page.getByRole('combobox', { name: 'Date format' });
    await dateFormat.fill('MM.DD.YYYY');
    await resultRow(page, 4)
      .getByText(/^Will not import:/)
      .waitFor();
    const reason = (await resultRow(page, 4).locator('td').last().textContent()) ?? '';
    assert.match(reason, /^Will not import: column "Datum": found "15\.01\.2024"; expected /);
    assert.equal(await resultRow(page, 4).getAttribute('class'), 'row-failing');
    assert.match((await page.getByText(/of the first 4 rows would not be imported/).textContent()) ?? '', /^2 of the first 4 rows/);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'csv-mapper-failing', true);
    await dateFormat.fill('DD.MM.YYYY');
    await page.keyboard.press('Escape');
    await resultRow(page, 4).getByText('Reads').waitFor();
    assert.equal(
      await resultTable(page)
        .getByText(/^Will not import/)
        .count(),
      0,
    );

    assert.equal(await page.getByRole('textbox', { name: 'Save this mapping on the dataset as' }).inputValue(), 'journal-january');
    assert.equal(await page.locator('textarea').count(), 0, 'no JSON to type');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'csv-mapper', true);

    await importButton(page).click();
    const report = page.getByRole('region', { name: 'Import report' });
    await report.getByRole('heading', { name: 'journal-january.csv: imported' }).waitFor();
    assert.match((await report.textContent()) ?? '', /4 entries read · 4 new/);

    // Stored as picked: signed amounts, the dates as written, the description joined, the reference and the dataset's own column.
    const stored = (await call('POST', '/transactions', {
      datasetId: journalId,
      columns: ['amount', 'currency', 'bookingDate', 'reference', 'costCentre'].map((column) => ({ path: column })),
    })) as { status: number; body: any[] };
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
    const byReference = new Map(stored.body.map((row) => [row.reference, row]));
    assert.deepEqual(
      ['B-101', 'B-102', 'B-103', 'B-104'].map((reference) => {
        const row = byReference.get(reference);
        return [row?.amount, row?.currency, row?.description, row?.costCentre ?? null];
      }),
      [
        ['-12.50', 'EUR', 'Büro Papier A4', 'K10'],
        ['1200.00', 'EUR', 'Kunde Nord Rechnung 17', 'K20'],
        ['-89.90', 'EUR', 'Telefon Januar', 'K10'],
        ['45.00', 'EUR', 'Erstattung Porto', null],
      ],
    );
    const saved = await call('GET', `/datasets/${journalId}/import-mappings`);
    assert.deepEqual(
      saved.body.map((mapping: any) => mapping.name),
      ['journal-january'],
    );

    // The next file of the same header: read with the saved mapping, its columns picked as last time.
    await page.locator('input[type=file]').setInputFiles(path.join(folder, 'journal-february.csv'));
    await page.getByText('This file has the header of the mapping “journal-january” saved on this dataset').waitFor();
    assert.match((await picker(page, 'Soll').textContent()) ?? '', /^Debit \(money out\)/);
    assert.match((await picker(page, 'Zusatz').textContent()) ?? '', /^Description/);
    await resultRow(page, 3).getByText('Kunde Süd Rechnung 18').waitFor();
    assert.deepEqual(await resultRow(page, 2).locator('td').allTextContents(), ['2', 'Feb 1, 2024', '−300.00 EUR', 'Miete Februar', 'Reads']);
    assert.equal(await hints.count(), 0, 'nothing left to settle');
    await importButton(page).click();
    await report.getByRole('heading', { name: 'journal-february.csv: imported' }).waitFor();
    assert.match((await report.textContent()) ?? '', /2 entries read · 2 new/);
    const all = (await call('POST', '/transactions', { datasetId: journalId, columns: [{ path: 'amount' }, { path: 'reference' }] })).body as any[];
    assert.deepEqual(all.find((row) => row.reference === 'B-202')?.amount, '99.99');
    assert.equal(all.length, 6);
    await page.context().close();
  });

  it('imports a bank export with the settings and columns the preview proposes, on a phone too', async () => {
    const page = await signInPage(browser, server, organization, { timezoneId: 'Asia/Tokyo', locale: 'en-US' });
    await openImports(page, 'Deutsche Bank · Giro');
    await page.locator('input[type=file]').setInputFiles('test/fixtures/imports/csv/deutsche-bank.csv');
    await picker(page, 'Buchungstag').waitFor();
    assert.match((await picker(page, 'Buchungstag').textContent()) ?? '', /^Date/);
    assert.match((await picker(page, 'Betrag').textContent()) ?? '', /^Amount \(signed\)/);
    assert.match((await picker(page, 'Verwendungszweck').textContent()) ?? '', /^Description/);
    assert.equal(await page.getByLabel('Lines to skip at the top').inputValue(), '7');
    await resultTable(page).getByText('Kreditrate Juni Vertrag 4711').waitFor();
    const first = await resultTable(page).locator('tbody tr').first().locator('td').allTextContents();
    assert.deepEqual(first.slice(1, 3), ['Jun 30, 2026', '−1,000.00 EUR']);

    await page.setViewportSize({ width: 390, height: 844 });
    // On a phone the sample table scrolls sideways in its own region, and the pickers are reached there.
    await picker(page, 'Währung').scrollIntoViewIfNeeded();
    assert.ok(await picker(page, 'Währung').isVisible());
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'csv-mapper-bank', true);
    await importButton(page).click();
    await page.getByRole('heading', { name: 'deutsche-bank.csv: imported' }).waitFor();
    assert.match((await page.getByRole('region', { name: 'Import report' }).textContent()) ?? '', /4 entries read · 4 new/);
    await page.context().close();
  });
});
