/**
 * What text the store can hold. PostgreSQL text holds any Unicode except NUL; a JavaScript
 * string can also hold lone UTF-16 surrogates, which are not text at all. Both are refused
 * wherever text enters (request bodies, query strings, imported files), never replaced.
 */

/** Whether a string can be stored as PostgreSQL text: no NUL and no lone surrogate. */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}

/** Why a string cannot be stored, for messages. */
export function unstorableTextProblem(text: string): string {
  return text.includes('\u0000')
    ? 'must not contain the NUL character (\\u0000), which cannot be stored; remove it'
    : 'contains a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape), which is not text and cannot be stored; send valid Unicode';
}
