/** A UUID in its text form, any letter case: the ids of the API's resources and of its requests. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `text` is an id of the API (a UUID). */
export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text);
}
