import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.ts';
import type { DatasetColumn } from '../../db/repositories/transaction-query.ts';
import { describeValidPaths, onlyStandardPaths, parseColumns, parseSearch, resolvePath } from './search.ts';

const columns: DatasetColumn[] = [
  { name: 'counterparty', type: 'string' },
  { name: 'vatRate', type: 'number' },
  { name: 'fee', type: 'money' },
  { name: 'valueDate', type: 'date' },
  { name: 'disputed', type: 'boolean' },
];

/** Asserts a 400 naming the query by index, with the detail path given and the valid paths listed. */
function assertQueryError(run: () => unknown, detailPath: string, messagePart?: RegExp) {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof AppError, `expected an AppError, got ${String(error)}`);
    assert.equal(error.kind, 'invalid_request');
    assert.equal(error.details[0]?.path, detailPath);
    const index = detailPath.split('/')[2];
    assert.match(error.message, new RegExp(`\\[${index}\\]`));
    assert.match(error.message, /Valid paths: id \(string\), description \(string\)/);
    assert.match(error.message, /vatRate \(number\)/);
    if (messagePart) assert.match(error.message, messagePart);
    return true;
  });
}

describe('SearchQuery paths', () => {
  it('match standard fields and columns without regard to case', () => {
    assert.deepEqual(resolvePath('Description', columns), { source: 'standard', name: 'description', type: 'string' });
    assert.deepEqual(resolvePath('RECONCILIATIONSTATUS', columns), { source: 'standard', name: 'reconciliationStatus', type: 'string' });
    assert.deepEqual(resolvePath('VATRATE', columns), { source: 'custom', name: 'vatRate', type: 'number' });
    assert.equal(resolvePath('nope', columns), undefined);
  });

  it('know when the dataset columns are not needed', () => {
    assert.equal(onlyStandardPaths([{ path: 'Amount' }, { path: 'timestamp' }]), true);
    assert.equal(onlyStandardPaths([{ path: 'vatRate' }]), false);
    assert.equal(onlyStandardPaths([{ path: 3 }]), false);
  });

  it('list every valid path with its type', () => {
    assert.equal(
      describeValidPaths(columns),
      'id (string), description (string), type (string), timestamp (date), amount (money), currency (string), reconciliationStatus (string), ' +
        'reference (string), bankReference (string), externalId (string), counterparty (string), vatRate (number), fee (money), valueDate (date), disputed (boolean)',
    );
  });
});

describe('parseSearch', () => {
  it('reads string filters: substring by default, equality with exact, one value or any of several', () => {
    assert.deepEqual(parseSearch([{ path: 'description', search: { type: 'string', value: 'Rent' } }], columns), [
      { type: 'string', field: { source: 'standard', name: 'description', type: 'string' }, values: ['Rent'], exact: false },
    ]);
    assert.deepEqual(parseSearch([{ path: 'counterparty', search: { type: 'string', value: ['Acme', 'Globex'], exact: true } }], columns), [
      { type: 'string', field: { source: 'custom', name: 'counterparty', type: 'string' }, values: ['Acme', 'Globex'], exact: true },
    ]);
  });

  it('reads boolean filters', () => {
    assert.deepEqual(parseSearch([{ path: 'disputed', search: { type: 'boolean', value: false } }], columns), [
      { type: 'boolean', field: { source: 'custom', name: 'disputed', type: 'boolean' }, value: false },
    ]);
  });

  it('reads date filters as inclusive ranges by default', () => {
    const [filter] = parseSearch([{ path: 'timestamp', search: { type: 'date', value: { start: 1000, end: 2000, includeEnd: false } } }], columns);
    assert.deepEqual(filter, {
      type: 'numeric',
      field: { source: 'standard', name: 'timestamp', type: 'date' },
      condition: { kind: 'range', start: '1000', end: '2000', includeStart: true, includeEnd: false },
      currencies: null,
    });
  });

  it('reads every form of number filter', () => {
    const read = (value: unknown) => {
      const [filter] = parseSearch([{ path: 'vatRate', search: { type: 'number', value } }], columns);
      assert.ok(filter?.type === 'numeric');
      return filter.condition;
    };
    assert.deepEqual(read(5.5), { kind: 'anyOf', values: ['5.5'] });
    assert.deepEqual(read([0, 11]), { kind: 'anyOf', values: ['0', '11'] });
    assert.deepEqual(read({ operator: 'gt', value: 5 }), { kind: 'compare', operator: 'gt', value: '5' });
    assert.deepEqual(read({ start: 1 }), { kind: 'range', start: '1', end: null, includeStart: true, includeEnd: true });
    assert.deepEqual(read({}), { kind: 'range', start: null, end: null, includeStart: true, includeEnd: true });
  });

  it('reads money filters exactly, from decimal strings or numbers, with currencies', () => {
    const [filter] = parseSearch(
      [{ path: 'amount', search: { type: 'money', value: { start: '-1250.00', end: 99.99 }, currencies: ['eur', 'USD'] } }],
      columns,
    );
    assert.deepEqual(filter, {
      type: 'numeric',
      field: { source: 'standard', name: 'amount', type: 'money' },
      condition: { kind: 'range', start: '-1250.00', end: '99.99', includeStart: true, includeEnd: true },
      currencies: ['EUR', 'USD'],
    });
    const [expression] = parseSearch([{ path: 'fee', search: { type: 'money', value: { operator: 'ne', value: '0.10' } } }], columns);
    assert.deepEqual(expression?.type === 'numeric' && expression.condition, { kind: 'compare', operator: 'ne', value: '0.10' });
  });

  it('accepts number filters on money and date fields', () => {
    const [money] = parseSearch([{ path: 'amount', search: { type: 'number', value: '12.30' } }], columns);
    assert.deepEqual(money?.type === 'numeric' && money.condition, { kind: 'anyOf', values: ['12.30'] });
    const [date] = parseSearch([{ path: 'valueDate', search: { type: 'number', value: { operator: 'ge', value: 1700000000000 } } }], columns);
    assert.deepEqual(date?.type === 'numeric' && date.condition, { kind: 'compare', operator: 'ge', value: '1700000000000' });
  });

  it('refuses an unknown path, naming the query and listing the valid paths', () => {
    assertQueryError(
      () =>
        parseSearch(
          [
            { path: 'amount', search: { type: 'money', value: 1 } },
            { path: 'colour', search: { type: 'string', value: 'x' } },
          ],
          columns,
        ),
      '/search/1/path',
      /unknown path "colour"/,
    );
  });

  it('refuses a filter type that does not fit the field', () => {
    assertQueryError(() => parseSearch([{ path: 'description', search: { type: 'number', value: 1 } }], columns), '/search/0/search/type', /use string/);
    assertQueryError(() => parseSearch([{ path: 'disputed', search: { type: 'string', value: 'x' } }], columns), '/search/0/search/type');
    assertQueryError(() => parseSearch([{ path: 'vatRate', search: { type: 'money', value: 1 } }], columns), '/search/0/search/type');
    assertQueryError(() => parseSearch([{ path: 'timestamp', search: { type: 'string', value: '2024' } }], columns), '/search/0/search/type');
  });

  it('refuses malformed filters, pointing at the bad part', () => {
    const cases: Array<[unknown, string]> = [
      [{ path: 'description', search: { type: 'string' } }, '/search/0/search/value'],
      [{ path: 'description', search: { type: 'string', value: 3 } }, '/search/0/search/value'],
      [{ path: 'description', search: { type: 'string', value: [] } }, '/search/0/search/value'],
      [{ path: 'description', search: { type: 'string', value: ['a', 1] } }, '/search/0/search/value/1'],
      [{ path: 'description', search: { type: 'string', value: 'a', exact: 'yes' } }, '/search/0/search/exact'],
      [{ path: 'description', search: { type: 'string', value: 'a', currencies: ['EUR'] } }, '/search/0/search/currencies'],
      [{ path: 'description', search: { type: 'text', value: 'a' } }, '/search/0/search/type'],
      [{ path: 'description', search: 'Rent' }, '/search/0/search'],
      [{ path: 'description', search: { type: 'string', value: 'a' }, extra: 1 }, '/search/0/extra'],
      [{ path: 'disputed', search: { type: 'boolean', value: 'true' } }, '/search/0/search/value'],
      [{ path: 'timestamp', search: { type: 'date', value: 1000 } }, '/search/0/search/value'],
      [{ path: 'timestamp', search: { type: 'date', value: { start: 1.5 } } }, '/search/0/search/value/start'],
      [{ path: 'timestamp', search: { type: 'date', value: { start: 10, end: 5 } } }, '/search/0/search/value'],
      [{ path: 'timestamp', search: { type: 'date', value: { from: 10 } } }, '/search/0/search/value/from'],
      [{ path: 'vatRate', search: { type: 'number', value: '5' } }, '/search/0/search/value'],
      [{ path: 'vatRate', search: { type: 'number', value: { operator: 'eq', value: 5 } } }, '/search/0/search/value/operator'],
      [{ path: 'vatRate', search: { type: 'number', value: { operator: 'gt' } } }, '/search/0/search/value/value'],
      [{ path: 'vatRate', search: { type: 'number', value: { start: 1, includeStart: 'no' } } }, '/search/0/search/value/includeStart'],
      [{ path: 'amount', search: { type: 'money', value: '12.3.4' } }, '/search/0/search/value'],
      [{ path: 'amount', search: { type: 'money', value: 1, currencies: 'EUR' } }, '/search/0/search/currencies'],
      [{ path: 'amount', search: { type: 'money', value: 1, currencies: ['E UR'] } }, '/search/0/search/currencies/0'],
      [{ path: 'amount', search: { type: 'money', value: Array.from({ length: 101 }, () => 1) } }, '/search/0/search/value'],
    ];
    for (const [query, detailPath] of cases) {
      assertQueryError(() => parseSearch([query], columns), detailPath);
    }
  });

  it('caps the number of queries', () => {
    const query = { path: 'description', search: { type: 'string', value: 'a' } };
    assert.equal(
      parseSearch(
        Array.from({ length: 20 }, () => query),
        columns,
      ).length,
      20,
    );
    assert.throws(
      () =>
        parseSearch(
          Array.from({ length: 21 }, () => query),
          columns,
        ),
      /at most 20/,
    );
  });
});

describe('parseColumns', () => {
  it('uses only the path, ignores search, adds each field once under its declared name', () => {
    assert.deepEqual(
      parseColumns([{ path: 'VATRATE', search: { type: 'nonsense' } }, { path: 'amount' }, { path: 'vatrate' }, { path: 'Description' }], columns),
      [
        { source: 'custom', name: 'vatRate', type: 'number' },
        { source: 'standard', name: 'amount', type: 'money' },
        { source: 'standard', name: 'description', type: 'string' },
      ],
    );
  });

  it('refuses an unknown path, naming the column query by index', () => {
    assertQueryError(() => parseColumns([{ path: 'amount' }, { path: 'nope' }], columns), '/columns/1/path', /unknown path "nope"/);
    assertQueryError(() => parseColumns([{ path: 'amount', sort: 'asc' }], columns), '/columns/0/sort');
  });

  it('caps the number of columns', () => {
    assert.throws(
      () =>
        parseColumns(
          Array.from({ length: 41 }, () => ({ path: 'amount' })),
          columns,
        ),
      /at most 40/,
    );
  });
});
