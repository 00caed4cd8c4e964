import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  customColumnsOf,
  fittedTo,
  formFromMapping,
  hintsOf,
  mappingFromForm,
  referenceTo,
  withRole,
  type DetectedSettings,
  type MappingForm,
} from '../../web/src/csv-mapping-form.ts';
import { checkCsvMapping } from '../../src/domain/imports/formats/csv/check-mapping.ts';

/** The CSV mapper's form and the mapping it stands for: pure, without a browser. */

const COLUMNS = ['Datum', 'Soll', 'Haben', 'Text 1', 'Text 2', 'Beleg', 'Kostenstelle'];
const DETECTED: DetectedSettings = {
  encoding: 'utf-8',
  delimiter: ';',
  quote: '"',
  header: true,
  skipRows: 0,
  decimalSeparator: ',',
  thousandsSeparator: '.',
  dateFormat: 'DD.MM.YYYY',
};

function pick(form: MappingForm, roles: Record<number, MappingForm['roles'][number]>): MappingForm {
  return Object.entries(roles).reduce((next, [index, role]) => withRole(next, Number(index), role), form);
}

describe('the CSV mapper form', () => {
  it('starts from the detected settings with every column ignored, and says what is missing', () => {
    const form = formFromMapping(null, COLUMNS, DETECTED);
    assert.deepEqual(form.roles, Array(7).fill('ignore'));
    assert.equal(form.delimiter, ';');
    assert.equal(form.decimalSeparator, ',');
    assert.equal(form.dateFormat, 'DD.MM.YYYY');
    assert.deepEqual(
      hintsOf(form, COLUMNS).map((hint) => [hint.about, hint.blocking]),
      [
        ['date', true],
        ['amount', true],
        ['currency', false],
      ],
    );
  });

  it('makes the mapping of debit and credit columns and a description joined from two columns; the hints are gone once settled', () => {
    let form = formFromMapping(null, COLUMNS, DETECTED);
    form = pick(form, { 0: 'date', 1: 'debit', 3: 'target:description', 4: 'target:description', 5: 'target:reference', 6: 'custom:costCentre' });
    assert.deepEqual(
      hintsOf(form, COLUMNS).map((hint) => hint.message),
      ['Pick the credit column (money in) too.', 'No column gives the currency: choose the currency of the amounts.'],
    );
    form = { ...pick(form, { 2: 'credit' }), currency: 'eur' };
    assert.deepEqual(hintsOf(form, COLUMNS), []);
    const mapping = mappingFromForm(form, COLUMNS);
    assert.deepEqual(mapping, {
      encoding: 'utf-8',
      delimiter: ';',
      quote: '"',
      header: true,
      skipRows: 0,
      decimalSeparator: ',',
      thousandsSeparator: '.',
      dateFormat: 'DD.MM.YYYY',
      columns: { timestamp: 'Datum', description: ['Text 1', 'Text 2'], reference: 'Beleg', costCentre: 'Kostenstelle' },
      amount: { debit: 'Soll', credit: 'Haben' },
      currency: 'EUR',
    });
    // The server's own checker takes it as it is.
    checkCsvMapping(mapping, [{ name: 'costCentre', type: 'string' }]);
  });

  it('gives back the same form for the mapping it made (a saved mapping reused)', () => {
    const form = {
      ...pick(formFromMapping(null, COLUMNS, DETECTED), {
        0: 'date',
        1: 'debit',
        2: 'credit',
        3: 'target:description',
        4: 'target:description',
        5: 'externalId',
      }),
      currency: 'EUR',
    };
    const again = formFromMapping(mappingFromForm(form, COLUMNS), COLUMNS, { ...DETECTED, delimiter: ',' });
    assert.deepEqual(again.roles, form.roles);
    assert.equal(again.delimiter, ';', 'the mapping wins over what was detected');
    assert.deepEqual(mappingFromForm(again, COLUMNS), mappingFromForm(form, COLUMNS));
  });

  it('reads a proposal with an indicator column, a time column and skip rules', () => {
    const columns = ['Date', 'Time', 'Amount', 'Af Bij', 'Memo'];
    const proposal = {
      delimiter: ',',
      dateFormat: 'YYYY-MM-DD HH:mm',
      columns: { timestamp: ['Date', 'Time'], description: 'Memo' },
      amount: { column: 'Amount', indicator: { column: 'Af Bij', debit: ['Af'], credit: ['Bij'] } },
      skip: [{ column: 'Memo', equals: ['Total'] }],
      timezone: 'Europe/Amsterdam',
    };
    const form = formFromMapping(proposal, columns, DETECTED);
    assert.deepEqual(form.roles, ['date', 'time', 'amount', 'sign', 'target:description']);
    assert.equal(form.debitMarks, 'Af');
    assert.deepEqual(mappingFromForm(form, columns).amount, proposal.amount);
    assert.deepEqual(mappingFromForm(form, columns).columns, proposal.columns);
    assert.deepEqual(mappingFromForm(form, columns).skip, proposal.skip);
    assert.equal(mappingFromForm(form, columns).timezone, 'Europe/Amsterdam');
    assert.deepEqual(hintsOf({ ...form, creditMarks: ' ' }, columns)[0]?.about, 'sign');
    assert.deepEqual(hintsOf({ ...form, dateFormat: 'YYYY-MM-DD' }, columns)[0]?.about, 'dateFormat');
  });

  it('names a column by its place when its header text is empty or repeated, or without a header', () => {
    const columns = ['Date', 'Währung', 'Amount', 'Währung', ''];
    assert.equal(referenceTo(columns, 0, true), 'Date');
    assert.equal(referenceTo(columns, 3, true), 3);
    assert.equal(referenceTo(columns, 4, true), 4);
    assert.equal(referenceTo(columns, 0, false), 0);
  });

  it('says when one role is picked twice, and fits the roles to a file cut otherwise', () => {
    const form = pick(formFromMapping(null, COLUMNS, DETECTED), { 0: 'date', 3: 'date', 1: 'amount' });
    assert.match(hintsOf(form, COLUMNS)[0]!.message, /Only one column can be the date: "Datum" and "Text 1"/);
    assert.deepEqual(fittedTo(form, 2).roles, ['date', 'amount']);
    assert.deepEqual(fittedTo(form, 9).roles.slice(7), ['ignore', 'ignore']);
  });

  it('offers the custom columns of a dataset, not its standard or bank columns', () => {
    assert.deepEqual(
      customColumnsOf([
        { name: 'amount', standard: true },
        { name: 'valueDate', standard: false },
        { name: 'costCentre', standard: false },
      ]),
      ['costCentre'],
    );
  });
});
