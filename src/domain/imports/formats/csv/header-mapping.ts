import { KNOWN_TARGETS, type CsvColumnSource, type CsvCustomColumn, type CsvMapping } from './mapping.ts';

/**
 * The mapping for a file whose header names the dataset's columns themselves ("timestamp",
 * "amount", "description", bank columns, custom columns, and "externalId"), compared without
 * regard to case or surrounding spaces. Such a file imports without a mapping; its dates are
 * ISO 8601 and its amounts plain decimals ("-12.50"). Null when the header lacks a date or an
 * amount column. The delimiter is not known from the header's fields: the caller sets it.
 */
export function mappingFromHeader(header: readonly string[], customColumns: readonly CsvCustomColumn[] = []): CsvMapping | null {
  const names = new Map<string, string>();
  for (const name of [...KNOWN_TARGETS, ...customColumns.map((column) => column.name)]) names.set(name.toLowerCase(), name);
  const columns: Record<string, CsvColumnSource> = {};
  let externalId: string | null = null;
  for (const field of header) {
    const key = field.trim().toLowerCase();
    if (key === 'externalid' && externalId === null) {
      externalId = field;
      continue;
    }
    const target = names.get(key);
    if (target !== undefined && columns[target] === undefined) columns[target] = field;
  }
  if (columns.amount === undefined || (columns.timestamp === undefined && columns.bookingDate === undefined)) return null;
  const mapping: CsvMapping = { header: true, decimalSeparator: '.', thousandsSeparator: '', dateFormat: 'ISO', columns };
  if (externalId !== null) mapping.externalId = [externalId];
  return mapping;
}
