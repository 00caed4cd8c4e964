/** A UUID in its text form, any letter case: the ids of the API's resources and of its requests. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `text` is an id of the API (a UUID). */
export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text);
}

/** The longest bank account a dataset keeps, in characters once spaces are removed. */
export const ACCOUNT_ID_LENGTH_MAX = 100;

/** An IBAN by its shape (ISO 13616): country, check digits, 11 to 30 letters and digits. */
export const IBAN_SHAPE = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;

/** The characters of an account as a dataset keeps it: letters and digits, and the separators banks write. */
const ACCOUNT_ID_CHARACTERS = /^[A-Z0-9/.:+-]+$/;

/** A bank account as a dataset keeps it: without spaces, in capitals (banks print IBANs in groups of four). */
export function accountIdOf(text: string): string {
  return text.replace(/\s+/g, '').toUpperCase();
}

/** The ISO 13616 check of an IBAN: rearranged and read as a number, it leaves 1 modulo 97. */
export function ibanChecksumHolds(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const character of rearranged) {
    const digits = /[0-9]/.test(character) ? character : String(character.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** An account as people read it: an IBAN in groups of four, as banks print it; any other account number as it is. */
export function accountForPeople(accountId: string): string {
  return IBAN_SHAPE.test(accountId) ? accountId.replace(/(.{4})(?=.)/g, '$1 ') : accountId;
}

/**
 * What is wrong with an account typed by a person, as a sentence with its fix, or null when the
 * server will take it; the rule the server checks a dataset's account by.
 */
export function accountIdProblem(text: string): string | null {
  const account = accountIdOf(text);
  if (account === '') return 'Enter the account number, or clear the account.';
  if (account.length > ACCOUNT_ID_LENGTH_MAX) return `The account has ${account.length} characters; an account number has at most ${ACCOUNT_ID_LENGTH_MAX}.`;
  if (!ACCOUNT_ID_CHARACTERS.test(account)) return 'An account number has only letters and digits (and "/", ".", ":", "+" or "-"); check what you typed.';
  if (IBAN_SHAPE.test(account) && !ibanChecksumHolds(account)) {
    return `${accountForPeople(account)} is not a valid IBAN: its check digits do not match. Check the number on a bank statement of the account.`;
  }
  return null;
}
