/** How the app writes times, amounts and counts: the reader's locale, amounts exactly as the API sends them. */

// One formatter each, made once: building an Intl formatter costs far more than using one, and a
// table formats a date in every row.
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const DATE_TIME_SECONDS = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const COUNT = new Intl.NumberFormat();

/** A time by one of the formatters above; a dash for none. */
function formatTime(formatter: Intl.DateTimeFormat, value: string | number | null | undefined): string {
  return value === null || value === undefined ? '—' : formatter.format(new Date(value));
}

export function formatDateTime(value: string | number | null | undefined): string {
  return formatTime(DATE_TIME, value);
}

/** With seconds, for what happens several times a minute (webhook deliveries and their attempts). */
export function formatDateTimeSeconds(value: string | number | null | undefined): string {
  return formatTime(DATE_TIME_SECONDS, value);
}

export function formatDate(value: string | number | null | undefined): string {
  return formatTime(DATE, value);
}

export function formatCount(value: number): string {
  return COUNT.format(value);
}

/**
 * An amount as the decimal string the API sends, grouped for reading. The digits are never
 * turned into a float: a cent is never lost to rounding on the screen either.
 */
export function formatAmount(amount: string | null | undefined, currency?: string | null): string {
  if (amount === null || amount === undefined || amount === '') return '—';
  const negative = amount.startsWith('-');
  const [whole = '0', fraction] = amount.replace(/^[-+]/, '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '−' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}${currency ? ` ${currency}` : ''}`;
}
