import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ImportCountMismatch, StatementLedger, type StatementReport } from './importer.ts';

/** The count every statement of an import must satisfy before it may commit (docs/IMPORTS.md). */
describe('StatementLedger', () => {
  const report = (): StatementReport => ({
    accountId: null,
    statementId: null,
    currency: null,
    openingBalance: null,
    closingBalance: null,
    entries: 0,
    inserted: 0,
    duplicates: 0,
    sumOfEntries: '0',
    balanced: null,
  });

  it('settles each listed statement with its stored and known entries when they account for every entry', () => {
    const ledger = new StatementLedger();
    const reports = [report(), report()];
    for (let index = 0; index < 3; index++) ledger.read(0);
    ledger.read(1);
    ledger.stored(0, 2, 1);
    ledger.stored(1, 0, 1);
    ledger.summarised(0, 0);
    ledger.summarised(1, 1);
    ledger.check(reports);
    assert.deepEqual(
      reports.map((item) => [item.inserted, item.duplicates]),
      [
        [2, 1],
        [0, 1],
      ],
    );
  });

  it('stops the import when a statement has an entry that was neither stored nor found, even past the listed statements', () => {
    const ledger = new StatementLedger();
    for (let statement = 0; statement < 40; statement++) {
      ledger.read(statement);
      ledger.stored(statement, statement === 37 ? 0 : 1, 0);
    }
    assert.throws(
      () => ledger.check([]),
      (error: unknown) => error instanceof ImportCountMismatch && /statement 38 of the file has 1 entries, but 0 were stored and 0 matched/.test(error.message),
    );
  });
});
