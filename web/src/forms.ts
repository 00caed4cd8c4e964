import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { LedgerReconError } from '@ledger-recon/sdk';
import { asSentence, cleaned, messageOf, pointerInWords } from './messages.ts';

/**
 * What the forms share: the shapes checked before a request is sent, and the way the server's
 * answer is spread over a form, each problem next to the field it names.
 */

/** An email address as the server takes it: something, an at sign, a host with a dot. */
export const EMAIL_SHAPE = /^[^\s@]{1,200}@[^\s@]{1,200}\.[^\s@]{1,60}$/;

/** The server's shortest password; it refuses shorter ones, so the form says so before asking it. */
export const PASSWORD_LENGTH_MIN = 12;

/**
 * The form field a JSON pointer of the server names, with the part of the pointer inside the
 * field's value (for a field that holds a document, such as a mapping); null when it names none.
 */
function fieldOfPointer(pointer: string, labels: Record<string, string>): { name: string; inside: string } | null {
  // The webhook target check names its field under /body; the schema checks name it from the body's root.
  const raw = pointer
    .replace(/^\/body(?=\/|$)/, '')
    .split('/')
    .slice(1);
  const segments = raw.map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  // The longest prefix that is a field: /columns/0/name is that column's name, /eventTypes/3 the event types.
  for (let length = segments.length; length > 0; length--) {
    const name = segments.slice(0, length).join('.');
    if (name in labels)
      return {
        name,
        inside: raw
          .slice(length)
          .map((segment) => `/${segment}`)
          .join(''),
      };
  }
  return null;
}

/**
 * Shows a failed request on its form: each problem the server tied to one of the fields in
 * `labels` next to that field, as a sentence that starts with the field's label (the server
 * words its problems as what follows a field's name: "must be an email address such as …"),
 * and anything else above the submit button, as the form's own error. The first field with a
 * problem takes the focus, so that a screen reader reads it with its problem at once.
 */
export function showServerErrors<Values extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<Values>,
  labels: Partial<Record<Path<Values>, string>>,
): void {
  const named = labels as Record<string, string>;
  const placed = new Set<string>();
  const elsewhere: string[] = [];
  for (const detail of error instanceof LedgerReconError ? error.details : []) {
    const field = fieldOfPointer(detail.path, named);
    if (field === null) {
      const words = cleaned(`${pointerInWords(detail.path)}: ${detail.message}`);
      if (words !== null) elsewhere.push(asSentence(words));
    } else if (!placed.has(field.name)) {
      // A problem inside a field's document names its place there, once: "Mapping: /columns/amount is missing".
      const inside = detail.message.startsWith(`${field.inside}: `) ? detail.message.slice(field.inside.length + 2) : detail.message;
      const message = field.inside === '' ? `${named[field.name]} ${detail.message}` : `${named[field.name]}: ${pointerInWords(field.inside)} ${inside}`;
      const words = cleaned(message) ?? `${named[field.name]} is not valid; check it`;
      setError(field.name as Path<Values>, { type: 'server', message: asSentence(words) }, { shouldFocus: placed.size === 0 });
      placed.add(field.name);
    }
  }
  if (placed.size === 0) setError('root.server', { type: 'server', message: messageOf(error) });
  else if (elsewhere.length > 0) setError('root.server', { type: 'server', message: elsewhere.join(' ') });
}
