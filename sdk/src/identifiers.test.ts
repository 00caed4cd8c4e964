import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accountForPeople, accountIdOf, accountIdProblem, ibanChecksumHolds } from './identifiers.ts';

describe('bank accounts', () => {
  it('keeps an account without spaces in capitals, and shows an IBAN in groups of four', () => {
    assert.equal(accountIdOf(' nl91 abna 0417 1643 00 '), 'NL91ABNA0417164300');
    assert.equal(accountForPeople('NL91ABNA0417164300'), 'NL91 ABNA 0417 1643 00');
    assert.equal(accountForPeople('87052000/123456789'), '87052000/123456789', 'an account number that is no IBAN stays as written');
  });

  it('checks an IBAN by its check digits, and takes account numbers that are no IBAN', () => {
    for (const iban of ['NL91ABNA0417164300', 'DE89370400440532013000', 'GB82WEST12345698765432', 'HU42117730161111101800000000']) {
      assert.equal(ibanChecksumHolds(iban), true, iban);
      assert.equal(accountIdProblem(iban), null, iban);
    }
    assert.equal(accountIdProblem('nl91 abna 0417 1643 00'), null, 'spaces and small letters are how people type it');
    assert.equal(accountIdProblem('87052000/123456789'), null);
    assert.equal(ibanChecksumHolds('NL91ABNA0417164301'), false);
  });

  it('says what is wrong with a typed account, in a sentence with its fix', () => {
    const refused: [typed: string, problem: string][] = [
      [
        'NL91 ABNA 0417 1643 01',
        'NL91 ABNA 0417 1643 01 is not a valid IBAN: its check digits do not match. Check the number on a bank statement of the account.',
      ],
      ['   ', 'Enter the account number, or clear the account.'],
      ['NL91 ABNA #0417', 'An account number has only letters and digits (and "/", ".", ":", "+" or "-"); check what you typed.'],
      ['1'.repeat(101), 'The account has 101 characters; an account number has at most 100.'],
    ];
    for (const [typed, problem] of refused) assert.equal(accountIdProblem(typed), problem, typed);
  });
});
