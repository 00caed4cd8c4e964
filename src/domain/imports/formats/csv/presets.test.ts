import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { addDecimals } from '../../../money.ts';
import { ImportFormatError, type ParseEvent, type StatementEntry } from '../../statement-entries.ts';
import { textChunks } from '../../text.ts';
import { CSV_PRESETS, detectCsvPreset, parseCsvPreset, type CsvPresetName } from './presets.ts';
import { previewCsv } from './preview.ts';

const FIXTURES = new URL('../../../../../test/fixtures/imports/settlement/', import.meta.url);

function fixture(name: string): string {
  return readFileSync(new URL(name, FIXTURES), 'utf8');
}

async function parse(text: string, name: CsvPresetName, chunkSize?: number): Promise<ParseEvent[]> {
  const preset = CSV_PRESETS.find((candidate) => candidate.name === name)!;
  const events: ParseEvent[] = [];
  for await (const event of parseCsvPreset(textChunks(text, chunkSize), preset)) events.push(event);
  return events;
}

function entriesOf(events: ParseEvent[]): StatementEntry[] {
  return events.flatMap((event) => (event.kind === 'entry' ? [event.entry] : []));
}

function warningsOf(events: ParseEvent[]): string[] {
  return events.flatMap((event) => (event.kind === 'warning' ? [event.message] : []));
}

/** The net of each payout: payout id -> sum of its entries' amounts. */
function payouts(entries: StatementEntry[]): Record<string, string> {
  const sums: Record<string, string> = {};
  for (const entry of entries) {
    const key = String(entry.extra.payoutId);
    sums[key] = addDecimals(sums[key] ?? '0', entry.amount);
  }
  return sums;
}

/** The columns a rule reads, per entry. */
function rows(entries: StatementEntry[]) {
  return entries.map((entry) => [entry.extra.payoutId ?? null, entry.type, entry.amount, entry.extra.gross ?? null, entry.extra.fee, entry.currency]);
}

describe('settlement report presets', () => {
  it('recognises each report by its header, and nothing else', async () => {
    assert.equal((await detectCsvPreset(fixture('stripe-payout-reconciliation-itemized.csv')))?.preset.name, 'stripe-payout-reconciliation');
    assert.equal((await detectCsvPreset(fixture('adyen-settlement-details.csv')))?.preset.name, 'adyen-settlement-details');
    assert.equal((await detectCsvPreset(fixture('paypal-settlement-stl.csv')))?.preset.name, 'paypal-settlement');
    assert.equal(await detectCsvPreset('timestamp,amount,currency\n2026-10-01,12.50,EUR\n'), null);
    assert.equal(await detectCsvPreset('Date;Betrag\n01.10.2026;12,50\n'), null);
    assert.equal(await detectCsvPreset('"unclosed,\n'), null);
  });

  it('previews a report as its preset reads it, with nothing to map', async () => {
    const preview = await previewCsv(fixture('paypal-settlement-stl.csv'), { customColumns: [], complete: true });
    assert.deepEqual(preview.preset, { name: 'paypal-settlement', title: 'PayPal Settlement Report (STL)' });
    assert.deepEqual([preview.mapping, preview.standardHeader, preview.skipRows, preview.questions], [null, false, 3, []]);
    assert.equal(preview.columns[5], 'Transaction Event Code');
    const rows = preview.rows as StatementEntry[];
    assert.equal(rows.length, 9);
    assert.deepEqual([rows[0]!.amount, rows[0]!.extra.payoutId], ['115.62', 'paypal-2026-10-24-EUR']);
    const ordinary = await previewCsv('timestamp,amount,currency\n2026-10-01,12.50,EUR\n', { customColumns: [], complete: true });
    assert.equal(ordinary.preset, null);
    // A head cut in the middle of a report still previews its whole rows.
    const head = fixture('stripe-payout-reconciliation-itemized.csv').slice(0, 700);
    const cut = await previewCsv(head, { customColumns: [], complete: false });
    assert.equal(cut.preset?.name, 'stripe-payout-reconciliation');
    assert.ok((cut.rows as StatementEntry[]).length >= 2);
    assert.deepEqual(cut.warnings, []);
  });

  it('reads the Stripe itemized payout reconciliation report: net as amount, gross and fee beside it, two payouts', async () => {
    const events = await parse(fixture('stripe-payout-reconciliation-itemized.csv'), 'stripe-payout-reconciliation', 7);
    const entries = entriesOf(events);
    assert.deepEqual(rows(entries), [
      ['po_1QdemoAAAAAAAAAA1', 'charge', '116.27', '120.00', '3.73', 'EUR'],
      ['po_1QdemoAAAAAAAAAA1', 'charge', '77.43', '80.00', '2.57', 'EUR'],
      ['po_1QdemoAAAAAAAAAA1', 'charge', '48.68', '50.62', '1.94', 'EUR'],
      ['po_1QdemoAAAAAAAAAA1', 'refund', '-30.00', '-30.00', '0.00', 'EUR'],
      ['po_1QdemoAAAAAAAAAA1', 'fee', '-1.50', '-1.50', '0.00', 'EUR'],
      ['po_1QdemoBBBBBBBBBB2', 'charge', '193.95', '200.00', '6.05', 'EUR'],
      ['po_1QdemoBBBBBBBBBB2', 'dispute', '-95.00', '-80.00', '15.00', 'EUR'],
      ['po_1QdemoBBBBBBBBBB2', 'charge', '43.93', '45.50', '1.57', 'EUR'],
      ['po_1QdemoBBBBBBBBBB2', 'other_adjustment', '2.10', '2.10', '0.00', 'EUR'],
    ]);
    assert.deepEqual(payouts(entries), { po_1QdemoAAAAAAAAAA1: '210.88', po_1QdemoBBBBBBBBBB2: '144.98' });
    const converted = entries[2]!;
    assert.deepEqual([converted.extra.originalAmount, converted.extra.originalCurrency], ['55.00', 'USD']);
    assert.equal(entries[0]!.extra.originalAmount, undefined, 'a charge in the balance currency has no original amount');
    assert.deepEqual([entries[0]!.uniqueId, entries[0]!.reference, entries[0]!.description], ['txn_1QchargeAAAAAAA01', 'ch_3QchargeAAAAAAA01', 'Order 1001']);
    assert.equal(entries[0]!.bookingTimeMs, Date.UTC(2026, 9, 2, 9, 15, 4));
    assert.equal(entries[0]!.bookingDate, '2026-10-02');
    assert.equal(entries[7]!.description, 'Order 1005, gift wrap');
    assert.deepEqual(warningsOf(events), [
      'read as the Stripe payout reconciliation report (itemized) (preset "stripe-payout-reconciliation"; amount is each row\'s net, with gross and fee in their own columns): 9 rows below the header, 9 imported',
    ]);
  });

  it('refuses a Stripe row whose net is not its gross less its fee, and counts a payout row of a balance report as left out', async () => {
    const header = 'automatic_payout_id,balance_transaction_id,created_utc,currency,gross,fee,net,reporting_category\n';
    await assert.rejects(parse(`${header}po_1,txn_1,2026-10-02 09:15:04,eur,120.00,3.73,116.28,charge\n`, 'stripe-payout-reconciliation'), (error) => {
      assert.ok(error instanceof ImportFormatError);
      assert.equal(error.line, 2);
      assert.equal(error.column, 'net');
      assert.match(error.message, /gross less fee, 116\.27/);
      return true;
    });
    const events = await parse(
      `${header}po_1,txn_1,2026-10-02 09:15:04,eur,120.00,3.73,116.27,charge\n,txn_2,2026-10-03 00:00:00,eur,-116.27,0.00,-116.27,payout\n`,
      'stripe-payout-reconciliation',
    );
    assert.equal(entriesOf(events).length, 1);
    assert.match(warningsOf(events)[0]!, /2 rows below the header, 1 imported and 1 left out as no transaction of a payout \(1 payout \(the payout itself\)\)/);
  });

  it('reads the Adyen Settlement details report: net in the net currency, costs as fee, a converted gross kept as the original, payout rows counted', async () => {
    const events = await parse(fixture('adyen-settlement-details.csv'), 'adyen-settlement-details', 11);
    const entries = entriesOf(events);
    assert.deepEqual(rows(entries), [
      ['DemoShopEUR batch 41', 'Settled', '97.65', '100.00', '2.35', 'EUR'],
      ['DemoShopEUR batch 41', 'Settled', '53.60', null, '1.60', 'EUR'],
      ['DemoShopEUR batch 41', 'Refunded', '-25.12', '-25.00', '0.12', 'EUR'],
      ['DemoShopEUR batch 41', 'Chargeback', '-47.50', '-40.00', '7.50', 'EUR'],
      ['DemoShopEUR batch 41', 'Fee', '-1.20', '0.00', '0.00', 'EUR'],
      ['DemoShopEUR batch 42', 'Settled', '245.10', '250.00', '4.90', 'EUR'],
      ['DemoShopEUR batch 42', 'Settled', '19.54', '19.99', '0.45', 'EUR'],
      ['DemoShopEUR batch 42', 'DepositCorrection', '5.00', '0.00', '0.00', 'EUR'],
    ]);
    // What each batch's rows come to is what its MerchantPayout line pays out.
    assert.deepEqual(payouts(entries), { 'DemoShopEUR batch 41': '77.43', 'DemoShopEUR batch 42': '269.64' });
    assert.deepEqual([entries[1]!.extra.originalAmount, entries[1]!.extra.originalCurrency], ['60.00', 'USD']);
    // 10:12:40 in CEST is 08:12:40 UTC.
    assert.equal(entries[0]!.bookingTimeMs, Date.UTC(2026, 9, 1, 8, 12, 40));
    assert.equal(entries[0]!.uniqueId, 'DemoShopEUR|Settled|8816001000000001|8826001000000011|41');
    assert.equal(entries[2]!.uniqueId, 'DemoShopEUR|Refunded|8816001000000001|8826001000000013|41');
    assert.equal(entries[4]!.uniqueId, null, 'a fee line has no reference of its own: it is identified by its content');
    assert.equal(entries[4]!.description, 'Fee Transaction Fees September 2026');
    assert.match(
      warningsOf(events)[0]!,
      /10 rows below the header, 8 imported and 2 left out as no transaction of a payout \(2 MerchantPayout \(the payout itself\)\)/,
    );
  });

  it('imports an Adyen Balancetransfer line as its own type: it carries a balance into the batch', async () => {
    const text = fixture('adyen-settlement-details.csv').replace(
      'DemoCompany,DemoShopEUR,,,,2026-10-05 08:00:00,CEST,DepositCorrection,Correction of interchange September,EUR,,,,EUR,,5.00,',
      'DemoCompany,DemoShopEUR,,,,2026-10-05 08:00:00,CEST,Balancetransfer,Balance from batch 40,EUR,,,,EUR,12.00,,',
    );
    const entries = entriesOf(await parse(text, 'adyen-settlement-details'));
    const transfer = entries.find((entry) => entry.type === 'Balancetransfer')!;
    assert.deepEqual(
      [transfer.amount, transfer.extra.payoutId, transfer.description],
      ['-12.00', 'DemoShopEUR batch 42', 'Balancetransfer Balance from batch 40'],
    );
  });

  it('refuses a PayPal record of no kind the report has, and body records before the column header', async () => {
    const text = fixture('paypal-settlement-stl.csv');
    await assert.rejects(parse(text.replace('"SC",11', '"XX",11'), 'paypal-settlement'), (error) => {
      assert.ok(error instanceof ImportFormatError);
      assert.match(error.message, /found a record of kind "XX"; expected a record of the Settlement Report/);
      return true;
    });
    const lines = text.split('\r\n');
    const sbFirst = [...lines.slice(0, 3), lines[4], lines[3], ...lines.slice(5)].join('\r\n');
    await assert.rejects(parse(sbFirst, 'paypal-settlement'), /a section body record \(SB\) before any column header \(CH\)/);
  });

  it('reads the PayPal Settlement Report: minor units with their own debit/credit marks, one payout per day and currency, conversions in both', async () => {
    const events = await parse(fixture('paypal-settlement-stl.csv'), 'paypal-settlement', 13);
    const entries = entriesOf(events);
    assert.deepEqual(rows(entries), [
      ['paypal-2026-10-24-EUR', 'payment', '115.62', '120.00', '4.38', 'EUR'],
      ['paypal-2026-10-24-EUR', 'payment', '43.08', '45.00', '1.92', 'EUR'],
      ['paypal-2026-10-24-EUR', 'refund', '-19.65', '-20.00', '-0.35', 'EUR'],
      ['paypal-2026-10-24-EUR', 'chargeback', '-30.00', '-30.00', '0.00', 'EUR'],
      ['paypal-2026-10-24-EUR', 'fee', '-10.00', '-10.00', '0.00', 'EUR'],
      ['paypal-2026-10-24-USD', 'payment', '47.96', '50.00', '2.04', 'USD'],
      ['paypal-2026-10-24-USD', 'currency conversion', '-50.00', '-50.00', '0.00', 'USD'],
      ['paypal-2026-10-24-EUR', 'currency conversion', '46.10', '46.10', '0.00', 'EUR'],
      ['paypal-2026-10-24-USD', 'payment', '23.83', '25.00', '1.17', 'USD'],
    ]);
    // Each day's withdrawal (left out) is what the day's rows of its currency come to.
    assert.deepEqual(payouts(entries), { 'paypal-2026-10-24-EUR': '145.15', 'paypal-2026-10-24-USD': '21.79' });
    assert.equal(entries[0]!.bookingTimeMs, Date.UTC(2026, 9, 24, 15, 5, 47));
    assert.deepEqual([entries[0]!.bankReference, entries[0]!.reference, entries[0]!.description], ['1AB23456CD7890101', 'INV-5001', 'T0006 INV-5001']);
    assert.match(
      warningsOf(events)[0]!,
      /20 records, 9 imported and 11 left out as no transaction of a payout \(1 RH \(report header\), 1 FH \(file header\), 1 SH \(section header\), 1 CH \(column header\), 2 T0400 \(withdrawal to the bank, the payout itself\), 1 SF \(section footer\), 1 SC \(section count\), 1 RF \(report footer\), 1 RC \(report count\), 1 FF \(file footer\)\)/,
    );
  });

  it('reads amounts of currencies without cents in PayPal units as they are, and refuses a decimal point', async () => {
    const text = fixture('paypal-settlement-stl.csv');
    const yen = text.replace('"CR",12000,"EUR","DR",438,"EUR"', '"CR",12000,"JPY","DR",438,"JPY"');
    const entries = entriesOf(await parse(yen, 'paypal-settlement'));
    assert.deepEqual(rows(entries)[0], ['paypal-2026-10-24-JPY', 'payment', '11562', '12000', '438', 'JPY']);
    await assert.rejects(parse(text.replace('"CR",12000,"EUR"', '"CR",120.00,"EUR"'), 'paypal-settlement'), (error) => {
      assert.ok(error instanceof ImportFormatError);
      assert.equal(error.column, 'Gross Transaction Amount');
      assert.equal(error.line, 5);
      return true;
    });
  });
});
