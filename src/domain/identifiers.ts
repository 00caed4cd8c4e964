/** A UUID in its text form, any letter case (ids of the API, request ids, command-line arguments). */
export { UUID_PATTERN } from '../../sdk/src/identifiers.ts';
/** A bank account: kept without spaces in capitals, an IBAN checked by its check digits, shown in groups of four. */
export { ACCOUNT_ID_LENGTH_MAX, accountForPeople, accountIdOf, IBAN_SHAPE, ibanChecksumHolds } from '../../sdk/src/identifiers.ts';
