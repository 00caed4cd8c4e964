import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { StatementEntry } from '../../statement-entries.ts';
import { textChunks } from '../../text.ts';
import { parseCsv, type CsvMapping } from './index.ts';
import { previewCsv, type CsvPreview } from './preview.ts';

const FIXTURES = new URL('../../../../../test/fixtures/imports/csv/', import.meta.url);

/** Decodes a fixture chunk-wise, as the importer does (see parse.test.ts for why). */
function fixture(file: string, encoding = 'utf-8'): string {
  const decoder = new TextDecoder(encoding);
  return decoder.decode(readFileSync(new URL(file, FIXTURES)), { stream: true }) + decoder.decode();
}

/** The settings of a preview, without its rows. */
function settings(preview: CsvPreview): Omit<CsvPreview, 'rows' | 'columns' | 'warnings' | 'problems' | 'questions'> {
  const { rows: _rows, columns: _columns, warnings: _warnings, problems: _problems, questions: _questions, ...rest } = preview;
  return rest;
}

async function importedWith(text: string, mapping: CsvMapping): Promise<StatementEntry[]> {
  const entries: StatementEntry[] = [];
  for await (const event of parseCsv(textChunks(text), { mapping, customColumns: [] })) if (event.kind === 'entry') entries.push(event.entry);
  return entries;
}

describe('previewCsv: bank exports', () => {
  it('German Sparkasse CSV-CAMT: ";", quoted, decimal comma, DD.MM.YY, pending rows left out', async () => {
    const preview = await previewCsv(fixture('sparkasse-camt.csv', 'windows-1252'), { customColumns: [], encoding: 'windows-1252', complete: true });
    const mapping: CsvMapping = {
      encoding: 'windows-1252',
      delimiter: ';',
      quote: '"',
      skipRows: 0,
      header: true,
      decimalSeparator: ',',
      thousandsSeparator: '.',
      dateFormat: 'DD.MM.YY',
      columns: {
        timestamp: 'Buchungstag',
        valueDate: 'Valutadatum',
        amount: 'Betrag',
        type: 'Buchungstext',
        description: 'Verwendungszweck',
        reference: 'Kundenreferenz (End-to-End)',
        counterpartyName: 'Beguenstigter/Zahlungspflichtiger',
        counterpartyAccount: 'Kontonummer/IBAN',
        accountId: 'Auftragskonto',
        currency: 'Waehrung',
      },
      skip: [{ column: 'Info', equals: ['Umsatz vorgemerkt'] }],
    };
    assert.deepEqual(settings(preview), {
      encoding: 'windows-1252',
      delimiter: ';',
      quote: '"',
      header: true,
      skipRows: 0,
      decimalSeparator: ',',
      thousandsSeparator: '.',
      dateFormat: 'DD.MM.YY',
      dateFormatAmbiguous: false,
      mapping,
      standardHeader: false,
      preset: null,
    });
    assert.equal(preview.columns.length, 17);
    assert.deepEqual(preview.problems, []);
    const rows = preview.rows as StatementEntry[];
    assert.deepEqual(
      rows.map((row) => [row.line, row.bookingDate, row.amount, row.type]),
      [
        [2, '2026-09-24', '-89.90', 'FOLGELASTSCHRIFT'],
        [3, '2026-09-23', '1190.00', 'GUTSCHR. UEBERWEISUNG'],
        [4, '2026-09-22', '-5.80', 'KARTENZAHLUNG'],
        [6, '2026-09-21', '-1250.00', 'DAUERAUFTRAG'],
      ],
    );
  });

  it('Deutsche Bank: seven lines of account details before the header, D.M.YYYY, and a closing balance line', async () => {
    const text = `${fixture('deutsche-bank.csv')}Kontostand;30.6.2026;;;1.200,00;EUR\n`;
    const preview = await previewCsv(text, { customColumns: [], complete: true });
    assert.deepEqual(preview.mapping, {
      delimiter: ';',
      quote: '"',
      skipRows: 7,
      header: true,
      decimalSeparator: ',',
      thousandsSeparator: '.',
      dateFormat: 'D.M.YYYY',
      columns: {
        timestamp: 'Buchungstag',
        valueDate: 'Wert',
        amount: 'Betrag',
        description: 'Verwendungszweck',
        type: 'Umsatzart',
        reference: 'Kundenreferenz',
        counterpartyName: 'Begünstigter / Auftraggeber',
        counterpartyAccount: 'IBAN / Kontonummer',
        currency: 'Währung',
      },
      // The closing balance line is left out, not refused.
      skip: [{ column: 'Buchungstag', equals: ['Kontostand'] }],
    });
    assert.equal(preview.skipRows, 7);
    assert.equal(preview.encoding, 'utf-8');
    assert.deepEqual(preview.warnings, [{ line: 13, message: "1 row was left out by the mapping's skip rules (the first at line 13)" }]);
    assert.deepEqual(preview.questions, []);
    assert.deepEqual(
      (preview.rows as StatementEntry[]).map((row) => row.amount),
      ['-1000.00', '750.00', '-100.80', '3210.45'],
    );
  });

  it('Dutch ING: an Af Bij column, YYYYMMDD, the currency from the header "Bedrag (EUR)"', async () => {
    const preview = await previewCsv(fixture('ing-nl.csv', 'iso-8859-1'), { customColumns: [], encoding: 'iso-8859-1', complete: true });
    assert.deepEqual(preview.mapping, {
      encoding: 'iso-8859-1',
      delimiter: ';',
      quote: '"',
      skipRows: 0,
      header: true,
      decimalSeparator: ',',
      thousandsSeparator: '.',
      dateFormat: 'YYYYMMDD',
      columns: {
        timestamp: 'Datum',
        description: 'Mededelingen',
        type: 'Mutatiesoort',
        counterpartyName: 'Naam / Omschrijving',
        counterpartyAccount: 'Tegenrekening',
        accountId: 'Rekening',
        bankTransactionCode: 'Code',
      },
      amount: { column: 'Bedrag (EUR)', indicator: { column: 'Af Bij', debit: ['Af'], credit: ['Bij'] } },
      currency: 'EUR',
    });
    assert.deepEqual(
      (preview.rows as StatementEntry[]).map((row) => row.amount),
      ['-25.50', '-4.20', '2450.00', '-312.00'],
    );
  });

  it('Dutch Rabobank: ",", signed amounts with a decimal comma, three description columns, a sequence number as id', async () => {
    const preview = await previewCsv(fixture('rabobank.csv'), { customColumns: [], complete: true });
    assert.equal(preview.delimiter, ',');
    assert.equal(preview.decimalSeparator, ',');
    assert.equal(preview.dateFormat, 'YYYY-MM-DD');
    assert.deepEqual(preview.mapping?.columns.description, ['Omschrijving-1', 'Omschrijving-2', 'Omschrijving-3']);
    assert.equal(preview.mapping?.columns.amount, 'Bedrag');
    assert.equal(preview.mapping?.columns.currency, 'Munt');
    assert.deepEqual(preview.mapping?.externalId, ['Volgnr']);
    assert.deepEqual(
      (preview.rows as StatementEntry[]).map((row) => [row.amount, row.description]),
      [
        ['-45.00', 'Factuur 123 Mobiel abonnement'],
        ['2500.00', 'Salaris januari 2024'],
        ['-1.09', 'Tol A4 Koers 1,000000'],
      ],
    );
  });

  it('US Chase checking: MM/DD/YYYY, one signed amount, a comma at the end of each row, no currency', async () => {
    const preview = await previewCsv(fixture('chase-checking.csv'), { customColumns: [], complete: true });
    assert.deepEqual(settings(preview), {
      encoding: 'utf-8',
      delimiter: ',',
      quote: '"',
      header: true,
      skipRows: 0,
      decimalSeparator: '.',
      thousandsSeparator: ',',
      dateFormat: 'MM/DD/YYYY',
      dateFormatAmbiguous: false,
      mapping: {
        delimiter: ',',
        quote: '"',
        skipRows: 0,
        header: true,
        decimalSeparator: '.',
        thousandsSeparator: ',',
        dateFormat: 'MM/DD/YYYY',
        columns: { timestamp: 'Posting Date', amount: 'Amount', description: 'Description', type: 'Type', reference: 'Check or Slip #' },
      },
      standardHeader: false,
      preset: null,
    });
    assert.deepEqual(
      preview.warnings.map((warning) => warning.message),
      [
        'no currency was found in the file: set the mapping\'s "currency", e.g. "EUR"',
        'rows end with empty fields that the header does not have (a delimiter at the end of each row, first at line 2); they are ignored',
      ],
    );
    assert.deepEqual(
      (preview.rows as StatementEntry[]).map((row) => row.amount),
      ['-500.00', '-140.00', '-30.00', '1250.00'],
    );
  });

  it('UK Lloyds: DD/MM/YYYY and separate debit and credit columns', async () => {
    const preview = await previewCsv(fixture('lloyds.csv'), { customColumns: [], complete: true });
    assert.equal(preview.dateFormat, 'DD/MM/YYYY');
    assert.equal(preview.dateFormatAmbiguous, false, '24/07/2026 settles the order');
    assert.deepEqual(preview.mapping?.amount, { debit: 'Debit Amount', credit: 'Credit Amount' });
    assert.deepEqual(preview.mapping?.columns, {
      timestamp: 'Transaction Date',
      description: 'Transaction Description',
      type: 'Transaction Type',
      accountId: 'Account Number',
    });
    assert.deepEqual(
      (preview.rows as StatementEntry[]).map((row) => row.amount),
      ['-10.99', '-45.61', '2450.00', '-31.15'],
    );
  });

  it('UK Nationwide: account lines before the header, "Paid out" and "Paid in" in pounds, a quoted line break', async () => {
    const text = [
      '"Account Name:","FlexAccount ****45678"',
      '"Account Balance:","£1,252.70"',
      '"Available Balance: ","£1,252.70"',
      '',
      '"Date","Transaction type","Description","Paid out","Paid in","Balance"',
      '"02/10/2026","Payment to","Page and\r\nSpine Books","£12.40","","£1,240.30"',
      '"04/10/2026","Direct debit","City Water","£31.15","","£1,209.15"',
      '"15/10/2026","Bank credit","ACME LTD","","£2,450.00","£3,659.15"',
      '',
    ].join('\r\n');
    const preview = await previewCsv(text, { customColumns: [], complete: true });
    assert.deepEqual(preview.mapping, {
      delimiter: ',',
      quote: '"',
      skipRows: 4,
      header: true,
      decimalSeparator: '.',
      thousandsSeparator: ',',
      dateFormat: 'DD/MM/YYYY',
      columns: { timestamp: 'Date', description: 'Description', type: 'Transaction type' },
      amount: { debit: 'Paid out', credit: 'Paid in' },
      currency: 'GBP',
    });
    assert.deepEqual(
      (preview.rows as StatementEntry[]).map((row) => [row.line, row.amount, row.description]),
      [
        [6, '-12.40', 'Page and Spine Books'],
        [8, '-31.15', 'City Water'],
        [9, '2450.00', 'ACME LTD'],
      ],
    );
  });

  it('French Crédit Agricole: ";", account lines, DD/MM/YYYY, débit and crédit columns, labels over several lines', async () => {
    const preview = await previewCsv(fixture('credit-agricole.csv', 'iso-8859-1'), { customColumns: [], encoding: 'iso-8859-1', complete: true });
    assert.deepEqual(preview.mapping, {
      encoding: 'iso-8859-1',
      delimiter: ';',
      quote: '"',
      skipRows: 8,
      header: true,
      decimalSeparator: ',',
      thousandsSeparator: ' ',
      dateFormat: 'DD/MM/YYYY',
      columns: { timestamp: 'Date', description: 'Libellé' },
      amount: { debit: 'Débit euros', credit: 'Crédit euros' },
      currency: 'EUR',
    });
    assert.deepEqual(preview.columns, ['Date', 'Libellé', 'Débit euros', 'Crédit euros', '']);
    assert.deepEqual(
      (preview.rows as StatementEntry[]).map((row) => [row.line, row.amount]),
      [
        [10, '-150.00'],
        [15, '-22.07'],
        [20, '2389.64'],
        [25, '23.53'],
        [30, '-1212.02'],
      ],
    );
  });

  it('an ERP export of general ledger line items: tabs, unquoted text with quotes, trailing minus, document numbers', async () => {
    const preview = await previewCsv(fixture('sap-gl-line-items.csv'), { customColumns: [], complete: true });
    assert.deepEqual(preview.mapping, {
      delimiter: '\t',
      quote: null,
      skipRows: 0,
      header: true,
      decimalSeparator: '.',
      thousandsSeparator: ',',
      dateFormat: 'DD.MM.YYYY',
      columns: {
        timestamp: 'Posting Date',
        amount: 'Amount in Local Currency',
        description: 'Text',
        type: 'Document Type',
        reference: 'Reference',
        accountId: 'G/L Account',
        currency: 'Local Currency',
      },
    });
    assert.deepEqual(
      (preview.rows as StatementEntry[]).map((row) => [row.amount, row.description]),
      [
        ['1234.56', 'Office supplies "Paper A4"'],
        ['250.00', 'Freight'],
        ['-99.90', 'Credit note'],
        ['12500.00', 'Consulting January'],
      ],
    );
  });

  it('PayPal: a date and a time column joined, a transaction id as externalId, pending rows left out', async () => {
    const preview = await previewCsv(fixture('paypal-de.csv'), { customColumns: [{ name: 'fee', type: 'money' }], complete: true });
    assert.equal(preview.dateFormat, 'DD.MM.YYYY HH:mm:ss');
    assert.deepEqual(preview.mapping?.columns.timestamp, ['Datum', 'Uhrzeit']);
    assert.deepEqual(preview.mapping?.externalId, ['Transaktionscode']);
    assert.deepEqual(preview.mapping?.skip, [{ column: 'Status', equals: ['Ausstehend'] }]);
    assert.match(preview.warnings[0]?.message ?? '', /the booking times carry no time zone/);
  });

  it('proposes mappings that import the whole fixture as the saved mapping does', async () => {
    for (const [file, encoding] of [
      ['sparkasse-camt.csv', 'windows-1252'],
      ['ing-nl.csv', 'iso-8859-1'],
      ['credit-agricole.csv', 'iso-8859-1'],
      ['rabobank.csv', 'utf-8'],
      ['lloyds.csv', 'utf-8'],
    ] as const) {
      const text = fixture(file, encoding);
      const saved = JSON.parse(readFileSync(new URL(`${file}.mapping.json`, FIXTURES), 'utf8')) as CsvMapping;
      const proposed = (await previewCsv(text, { customColumns: [], encoding, complete: true })).mapping as CsvMapping;
      const amounts = (entries: StatementEntry[]) => entries.map((entry) => [entry.line, entry.bookingDate, entry.amount]);
      assert.deepEqual(
        amounts(await importedWith(text, { ...proposed, currency: proposed.currency ?? saved.currency })),
        amounts(await importedWith(text, saved)),
        file,
      );
    }
  });
});

describe('previewCsv: settings', () => {
  it('says when DD/MM and MM/DD both fit, proposes DD/MM, and lets the header settle it', async () => {
    const text = 'Date,Description,Amount\n01/02/2024,Coffee,-3.50\n03/04/2024,Refund,1.00\n';
    const ambiguous = await previewCsv(text, { customColumns: [], complete: true });
    assert.equal(ambiguous.dateFormat, 'DD/MM/YYYY');
    assert.equal(ambiguous.dateFormatAmbiguous, true);
    assert.match(ambiguous.warnings.map((warning) => warning.message).join('\n'), /the dates fit both DD\/MM\/YYYY and MM\/DD\/YYYY/);
    const settled = await previewCsv(text.replace('Date,', 'Date (MM/DD/YYYY),'), { customColumns: [], complete: true });
    assert.equal(settled.dateFormat, 'MM/DD/YYYY');
    assert.equal(settled.dateFormatAmbiguous, false);
    const byValue = await previewCsv(`${text}12/31/2024,Fee,-1.00\n`, { customColumns: [], complete: true });
    assert.equal(byValue.dateFormat, 'MM/DD/YYYY');
    assert.equal(byValue.dateFormatAmbiguous, false);
  });

  it('reads a file without a header by the values of its columns', async () => {
    const preview = await previewCsv(fixture('hsbc-no-header.csv'), { customColumns: [], complete: true });
    assert.equal(preview.header, false);
    assert.deepEqual(preview.columns, ['column 1', 'column 2', 'column 3', 'column 4']);
    assert.deepEqual(preview.mapping?.columns, { timestamp: 0, amount: 2, description: 1 });
    assert.equal(preview.dateFormatAmbiguous, true);
    assert.deepEqual(
      (preview.rows as StatementEntry[]).map((row) => row.amount),
      ['-3.50', '20.00', '-12.75', '0.04'],
    );
  });

  it('recognises a header that names the standard columns: the file imports without a mapping', async () => {
    const preview = await previewCsv(fixture('standard-columns.csv'), { customColumns: [], complete: true });
    assert.equal(preview.standardHeader, true);
    const saved = JSON.parse(readFileSync(new URL('standard-columns.csv.mapping.json', FIXTURES), 'utf8')) as CsvMapping;
    assert.deepEqual(preview.mapping, { ...saved, quote: '"', skipRows: 0 });
    assert.equal(preview.thousandsSeparator, '');
    assert.equal((preview.rows as StatementEntry[]).length, 3);
  });

  it('maps header names to custom columns of the dataset', async () => {
    const preview = await previewCsv('Date;Amount;Cost centre\n02.01.2024;-1,00;K100\n', {
      customColumns: [{ name: 'costCentre', type: 'string' }],
      complete: true,
    });
    assert.equal(preview.mapping?.columns.costCentre, 'Cost centre');
    assert.deepEqual((preview.rows as StatementEntry[])[0]?.extra, { costCentre: 'K100' });
  });

  it('leaves out a last line the sample may have cut, unless the sample is the whole file', async () => {
    const text = 'Date,Amount,Currency\n2024-01-02,1.00,EUR\n2024-01-03,2.00,EUR\n2024-01-0';
    const cut = await previewCsv(text, { customColumns: [] });
    assert.equal((cut.rows as StatementEntry[]).length, 2);
    assert.deepEqual(cut.warnings, []);
  });

  it('proposes no mapping without a date or an amount, says why, and shows the raw rows', async () => {
    const preview = await previewCsv('Name,Team,City\nAda,Core,London\nGrace,Navy,Arlington\n', { customColumns: [], complete: true });
    assert.equal(preview.mapping, null);
    assert.equal(preview.dateFormat, null);
    assert.equal(preview.problems.length, 2);
    assert.match(preview.problems[0] as string, /no column of dates was found/);
    assert.match(preview.problems[1] as string, /no amount column was found/);
    assert.deepEqual(preview.rows, [
      ['Ada', 'Core', 'London'],
      ['Grace', 'Navy', 'Arlington'],
    ]);
  });

  it('says so when the sample is not delimited text', async () => {
    assert.deepEqual((await previewCsv('', { customColumns: [] })).problems, ['the file is empty']);
    const prose = await previewCsv('Dear customer\nyour statement follows\n', { customColumns: [], complete: true });
    assert.equal(prose.mapping, null);
    assert.match(prose.problems[0] as string, /no delimiter/);
  });

  it('reports a row the proposed mapping cannot read as a warning, with the rows read before it', async () => {
    const preview = await previewCsv('Date,Description,Debit,Credit\n02/01/2024,a,1.00,\n13/01/2024,b,2.00,3.00\n14/01/2024,c,,4.00\n', {
      customColumns: [],
      complete: true,
    });
    assert.deepEqual(preview.mapping?.amount, { debit: 'Debit', credit: 'Credit' });
    assert.deepEqual(
      (preview.rows as StatementEntry[]).map((row) => row.amount),
      ['-1.00'],
    );
    assert.deepEqual(preview.warnings.at(-1), {
      line: 3,
      message:
        'the proposed mapping fails: line 3, column "Debit": found "2.00" in "Debit" and "3.00" in "Credit"; expected an amount in only one of the two columns',
    });
    const impossible = await previewCsv('Date;Amount\n02.01.2024;1,00\n31.02.2024;3,00\n', { customColumns: [], complete: true });
    assert.equal(impossible.mapping, null);
    assert.match(impossible.problems[0] as string, /no column of dates was found/);
  });
});
