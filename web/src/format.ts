/** How the app writes times, amounts and counts: the reader's locale, amounts exactly as the API sends them. */

export function formatDateTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatDate(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return new Date(value).toLocaleDateString(undefined, { dateStyle: 'medium' });
}

export function formatCount(value: number): string {
  return value.toLocaleString();
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
