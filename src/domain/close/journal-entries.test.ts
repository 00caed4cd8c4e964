import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { AppError } from '../../errors.ts';
import { SAMPLE_IDS, sampleStatement } from '../../../support/close-statement-sample.ts';
import { journalEntriesCsv, proposeJournalEntries, type JournalEntryAccounts } from './journal-entries.ts';
import type { StatementAdjustment } from './statement-shape.ts';

const ACCOUNTS: JournalEntryAccounts = {
  cashAccount: '1200 Bank',
  adjustmentAccounts: { fee: '6820 Bank charges', fx: '7900 Exchange differences', rounding: '6990 Rounding', 'write-off': '6950 Bad debts written off' },
};

function withAdjustments(items: StatementAdjustment[]) {
  // The entries read the adjustments alone; the statement's other figures are the sample's.
  return sampleStatement({ adjustments: { total: '0', items } });
}

describe('proposed journal entries', () => {
  const entries = proposeJournalEntries(sampleStatement(), ACCOUNTS);
  const byGroup = (id: string) => entries.find((entry) => entry.matchGroupId === id)!;

  it('posts a bank fee as an expense: debit the fee account, credit the bank', () => {
    assert.deepEqual(byGroup(SAMPLE_IDS.feeGroup), {
      date: '2026-03-12',
      debitAccount: '6820 Bank charges',
      creditAccount: '1200 Bank',
      amount: '6.50',
      currency: 'EUR',
      memo: 'Bank charges: Card acquirer charge on receipt INV-1017 — Operating account EUR ↔ GL 1200, period to 2026-03-31',
      reason: 'fee',
      bankReference: 'NTRF-5521',
      matchGroupId: SAMPLE_IDS.feeGroup,
    });
  });

  it('posts an fx gain as a credit to the exchange account and an fx loss as a debit', () => {
    const gain = byGroup(SAMPLE_IDS.fxGainGroup);
    assert.deepEqual([gain.debitAccount, gain.creditAccount, gain.amount, gain.bankReference], ['1200 Bank', '7900 Exchange differences', '3.10', 'FX-88120']);
    const loss = byGroup(SAMPLE_IDS.fxLossGroup);
    assert.deepEqual([loss.debitAccount, loss.creditAccount, loss.amount, loss.bankReference], ['7900 Exchange differences', '1200 Bank', '1.25', 'FX-88177']);
  });

  it('posts rounding and a write-off by their sign', () => {
    const rounding = byGroup(SAMPLE_IDS.roundingGroup);
    assert.deepEqual([rounding.debitAccount, rounding.creditAccount, rounding.amount, rounding.bankReference], ['1200 Bank', '6990 Rounding', '0.01', null]);
    const writeOff = byGroup(SAMPLE_IDS.writeOffGroup);
    assert.deepEqual([writeOff.debitAccount, writeOff.creditAccount, writeOff.amount], ['6950 Bad debts written off', '1200 Bank', '0.50']);
    assert.equal(entries.length, 5);
    assert.deepEqual(
      entries.map((entry) => entry.reason),
      ['fee', 'fx', 'fx', 'rounding', 'write-off'],
    );
  });

  it('brings the ledger to the bank: the entries on cash come to the adjustments’ total', () => {
    const cents = entries.reduce((total, entry) => {
      const amount = Math.round(Number(entry.amount) * 100);
      return total + (entry.debitAccount === ACCOUNTS.cashAccount ? amount : -amount);
    }, 0);
    assert.equal(cents, -514);
  });

  it('proposes nothing for an adjustment of zero, and nothing at all without adjustments', () => {
    const zero: StatementAdjustment = {
      reason: 'rounding',
      amount: '0.00',
      date: '2026-03-02',
      description: 'Exact',
      bankReference: null,
      matchGroupId: SAMPLE_IDS.roundingGroup,
    };
    assert.deepEqual(proposeJournalEntries(withAdjustments([zero]), { cashAccount: null, adjustmentAccounts: {} }), []);
    assert.deepEqual(proposeJournalEntries(withAdjustments([]), { cashAccount: null, adjustmentAccounts: {} }), []);
  });

  it('refuses when a reason among the adjustments has no account, naming each such reason', () => {
    assert.throws(
      () =>
        proposeJournalEntries(sampleStatement(), {
          cashAccount: '1200 Bank',
          adjustmentAccounts: { fee: '6820 Bank charges', rounding: ' ', 'write-off': '6950' },
        }),
      (error: unknown) =>
        error instanceof AppError &&
        error.kind === 'conflict' &&
        error.messageId === 'journalEntries.reasonsNotMapped' &&
        /has fx, rounding adjustments, but the reconciliation "Operating account EUR ↔ GL 1200" maps no ledger account for those reasons/.test(error.message),
    );
    // A reason without account is no matter when the period has none of it.
    const feeOnly = withAdjustments([sampleStatement().adjustments.items[0]!]);
    assert.equal(proposeJournalEntries(feeOnly, { cashAccount: '1200 Bank', adjustmentAccounts: { fee: '6820 Bank charges' } }).length, 1);
  });

  it('refuses when the bank’s ledger account is not set', () => {
    assert.throws(
      () => proposeJournalEntries(sampleStatement(), { ...ACCOUNTS, cashAccount: null }),
      (error: unknown) => error instanceof AppError && error.messageId === 'journalEntries.cashAccountNotMapped',
    );
  });

  it('exports as CSV lines that balance per journal number', () => {
    const csv = journalEntriesCsv(entries, '2026-03-31');
    assert.ok(csv.startsWith('\uFEFFJournal number,Date,Account,Debit,Credit,Currency,Memo,Bank reference,Match group\r\n'));
    const records = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    assert.equal(records.length, 10);
    assert.deepEqual(records.slice(0, 2), [
      {
        'Journal number': 'ADJ-20260331-001',
        Date: '2026-03-12',
        Account: '6820 Bank charges',
        Debit: '6.50',
        Credit: '',
        Currency: 'EUR',
        Memo: 'Bank charges: Card acquirer charge on receipt INV-1017 — Operating account EUR ↔ GL 1200, period to 2026-03-31',
        'Bank reference': 'NTRF-5521',
        'Match group': SAMPLE_IDS.feeGroup,
      },
      {
        'Journal number': 'ADJ-20260331-001',
        Date: '2026-03-12',
        Account: '1200 Bank',
        Debit: '',
        Credit: '6.50',
        Currency: 'EUR',
        Memo: 'Bank charges: Card acquirer charge on receipt INV-1017 — Operating account EUR ↔ GL 1200, period to 2026-03-31',
        'Bank reference': 'NTRF-5521',
        'Match group': SAMPLE_IDS.feeGroup,
      },
    ]);
    const numbers = [...new Set(records.map((record) => record['Journal number']))];
    assert.deepEqual(numbers, ['ADJ-20260331-001', 'ADJ-20260331-002', 'ADJ-20260331-003', 'ADJ-20260331-004', 'ADJ-20260331-005']);
    for (const number of numbers) {
      const lines = records.filter((record) => record['Journal number'] === number);
      assert.equal(lines.length, 2);
      assert.equal(lines[0]!.Debit, lines[1]!.Credit, number);
    }
  });

  it('writes an account or memo that looks like a formula as text', () => {
    const csv = journalEntriesCsv(proposeJournalEntries(sampleStatement(), { ...ACCOUNTS, cashAccount: '=1200' }), '2026-03-31');
    const records = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    assert.equal(records[1]!.Account, "'=1200");
  });
});
