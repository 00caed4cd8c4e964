/** A UUID in its text form, any letter case (ids of the API, request ids, command-line arguments). */
export { UUID_PATTERN } from '../../sdk/src/identifiers.ts';
