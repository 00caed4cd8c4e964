import type { ImportPreview } from '@ledger-recon/sdk';

/**
 * The CSV mapper's form and the mapping it stands for (docs/IMPORTS.md, "The mapping"): what each
 * column of the file is, and the settings that cut the file into rows and read its values. Pure:
 * the imports screen keeps a form, shows its hints, and sends the mapping made of it to the
 * preview and the import; a proposed or saved mapping becomes a form again.
 */

/** What a column of the file is. A text target (description, reference ...) may take several columns, joined with a space. */
export type ColumnRole =
  'ignore' | 'date' | 'time' | 'amount' | 'debit' | 'credit' | 'sign' | 'currency' | 'externalId' | `target:${string}` | `custom:${string}`;

/** The targets a column may fill besides date, time, amount and currency, as the picker names them. */
export const TEXT_TARGETS: readonly { target: string; label: string }[] = [
  { target: 'description', label: 'Description' },
  { target: 'reference', label: 'Reference' },
  { target: 'counterpartyName', label: 'Counterparty' },
  { target: 'valueDate', label: 'Value date' },
  { target: 'bookingDate', label: 'Booking date (besides the transaction date)' },
  { target: 'counterpartyAccount', label: 'Counterparty account' },
  { target: 'type', label: 'Type' },
  { target: 'bankReference', label: 'Bank reference' },
  { target: 'endToEndId', label: 'End-to-end id' },
  { target: 'accountId', label: 'Account' },
  { target: 'statementId', label: 'Statement number' },
  { target: 'bankTransactionCode', label: 'Bank transaction code' },
];

/** The columns an import gives a dataset itself: not custom columns a person picks. */
const BANK_COLUMNS = new Set([
  ...TEXT_TARGETS.map((entry) => entry.target),
  'mandateId',
  'creditorId',
  'ultimateDebtorName',
  'ultimateCreditorName',
  'reversal',
]);

/** The choices of a column's picker, in the order shown. */
export function roleChoices(customColumns: readonly string[]): { role: ColumnRole; label: string }[] {
  return [
    { role: 'ignore', label: 'Ignore' },
    { role: 'date', label: 'Date' },
    { role: 'time', label: 'Time' },
    { role: 'amount', label: 'Amount (signed)' },
    { role: 'debit', label: 'Debit (money out)' },
    { role: 'credit', label: 'Credit (money in)' },
    { role: 'sign', label: 'Sign indicator (in/out)' },
    { role: 'currency', label: 'Currency' },
    ...TEXT_TARGETS.slice(0, 4).map(({ target, label }) => ({ role: `target:${target}` as ColumnRole, label })),
    { role: 'externalId', label: 'External id (identifies the row)' },
    ...customColumns.map((name) => ({ role: `custom:${name}` as ColumnRole, label: `Dataset column: ${name}` })),
    ...TEXT_TARGETS.slice(4).map(({ target, label }) => ({ role: `target:${target}` as ColumnRole, label })),
  ];
}

/** The custom columns of a dataset a column may fill: its columns that are neither standard nor filled by imports themselves. */
export function customColumnsOf(columns: readonly { name: string; standard: boolean }[]): string[] {
  return columns.filter((column) => !column.standard && !BANK_COLUMNS.has(column.name)).map((column) => column.name);
}

export interface MappingForm {
  encoding: string;
  delimiter: string;
  header: boolean;
  skipRows: number;
  decimalSeparator: '.' | ',';
  thousandsSeparator: string;
  dateFormat: string;
  /** The currency of rows without one ("" for none). */
  currency: string;
  /** Turns every sign (a card export that writes charges as positive). */
  invertSign: boolean;
  /** The marks of the sign indicator column, comma-separated, for money out and money in. */
  debitMarks: string;
  creditMarks: string;
  /** One role per column of the file, by position. */
  roles: ColumnRole[];
  /** Kept from the proposal or the saved mapping as they were: the form does not show them. */
  kept: { quote?: string | null; timezone?: string; skip?: { column: string | number; equals: string[] }[] };
}

/** The settings the preview detected, which a new form starts from. */
export type DetectedSettings = Pick<
  ImportPreview,
  'encoding' | 'delimiter' | 'quote' | 'header' | 'skipRows' | 'decimalSeparator' | 'thousandsSeparator' | 'dateFormat'
>;

type Reference = string | number;

/** How the mapping names a column: its header text when that names it alone, else its position. */
export function referenceTo(columns: readonly string[], index: number, header: boolean): Reference {
  const text = columns[index]?.trim() ?? '';
  if (!header || text === '' || columns.filter((other) => other.trim().toLowerCase() === text.toLowerCase()).length > 1) return index;
  return text;
}

/** The position of a column a mapping names, or -1. */
function indexOf(columns: readonly string[], reference: unknown): number {
  if (typeof reference === 'number') return reference < columns.length ? reference : -1;
  if (typeof reference !== 'string') return -1;
  const exact = columns.indexOf(reference);
  if (exact >= 0) return exact;
  const loose = reference.trim().toLowerCase();
  const index = columns.findIndex((column) => column.trim().toLowerCase() === loose);
  if (index >= 0) return index;
  return /^\d+$/.test(reference) && Number(reference) < columns.length ? Number(reference) : -1;
}

function asList(source: unknown): unknown[] {
  return Array.isArray(source) ? source : source === undefined || source === null ? [] : [source];
}

const text = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

/** The form that stands for a mapping (a proposed or saved one), for a file with these columns; the detected settings fill what it leaves out. */
export function formFromMapping(mapping: Record<string, unknown> | null, columns: readonly string[], detected: DetectedSettings): MappingForm {
  const given = mapping ?? {};
  const roles: ColumnRole[] = columns.map(() => 'ignore');
  const assign = (source: unknown, role: ColumnRole) => {
    for (const reference of asList(source)) {
      const index = indexOf(columns, reference);
      if (index >= 0 && roles[index] === 'ignore') roles[index] = role;
    }
  };
  const mapped = (given.columns ?? {}) as Record<string, unknown>;
  let dateFormat = text(given.dateFormat, detected.dateFormat ?? 'ISO');
  for (const [target, source] of Object.entries(mapped)) {
    if (target === 'timestamp') {
      const [date, ...times] = asList(source);
      assign(date, 'date');
      assign(times, 'time');
    } else if (target === 'bookingDate' && mapped.timestamp === undefined) assign(source, 'date');
    else if (target === 'amount') assign(source, 'amount');
    else if (target === 'currency') assign(source, 'currency');
    else if (TEXT_TARGETS.some((entry) => entry.target === target)) assign(source, `target:${target}`);
    else assign(source, `custom:${target}`);
  }
  const amount = given.amount as
    { debit?: unknown; credit?: unknown; column?: unknown; indicator?: { column: unknown; debit: string[]; credit: string[] } } | undefined;
  let debitMarks = '';
  let creditMarks = '';
  if (amount && 'debit' in amount && amount.debit !== undefined) {
    assign(amount.debit, 'debit');
    assign(amount.credit, 'credit');
  } else if (amount?.indicator) {
    assign(amount.column, 'amount');
    assign(amount.indicator.column, 'sign');
    debitMarks = amount.indicator.debit.join(', ');
    creditMarks = amount.indicator.credit.join(', ');
  }
  assign(given.externalId, 'externalId');
  if (dateFormat === '') dateFormat = 'ISO';
  const kept: MappingForm['kept'] = {};
  kept.quote = given.quote === undefined ? detected.quote : (given.quote as string | null);
  if (typeof given.timezone === 'string') kept.timezone = given.timezone;
  if (Array.isArray(given.skip)) kept.skip = given.skip as MappingForm['kept']['skip'];
  return {
    encoding: text(given.encoding, detected.encoding),
    delimiter: text(given.delimiter, detected.delimiter),
    header: typeof given.header === 'boolean' ? given.header : detected.header,
    skipRows: typeof given.skipRows === 'number' ? given.skipRows : detected.skipRows,
    decimalSeparator: text(given.decimalSeparator, detected.decimalSeparator) === ',' ? ',' : '.',
    thousandsSeparator: text(given.thousandsSeparator, detected.thousandsSeparator),
    dateFormat,
    currency: text(given.currency, ''),
    invertSign: given.invertSign === true,
    debitMarks,
    creditMarks,
    roles,
    kept,
  };
}

/** The columns of the file with each role, in the file's order. */
function columnsWith(form: MappingForm, role: ColumnRole): number[] {
  return form.roles.flatMap((each, index) => (each === role ? [index] : []));
}

function marks(list: string): string[] {
  return list
    .split(',')
    .map((mark) => mark.trim())
    .filter((mark) => mark !== '');
}

/** The mapping the form stands for, naming the columns of a file with these columns. */
export function mappingFromForm(form: MappingForm, columns: readonly string[]): Record<string, unknown> {
  const reference = (index: number) => referenceTo(columns, index, form.header);
  const one = (indexes: number[]): Reference | Reference[] => (indexes.length === 1 ? reference(indexes[0]!) : indexes.map(reference));
  const mapped: Record<string, Reference | Reference[]> = {};
  const dates = columnsWith(form, 'date');
  const times = columnsWith(form, 'time');
  if (dates.length > 0) mapped.timestamp = times.length > 0 ? [...dates.slice(0, 1), ...times].map(reference) : reference(dates[0]!);
  const currencies = columnsWith(form, 'currency');
  if (currencies.length > 0) mapped.currency = reference(currencies[0]!);
  const targets = new Set(
    form.roles.filter((role): role is `target:${string}` | `custom:${string}` => role.startsWith('target:') || role.startsWith('custom:')),
  );
  for (const role of targets) mapped[role.slice(role.indexOf(':') + 1)] = one(columnsWith(form, role));

  const mapping: Record<string, unknown> = {
    encoding: form.encoding,
    delimiter: form.delimiter,
    ...(form.kept.quote !== undefined ? { quote: form.kept.quote } : {}),
    header: form.header,
    skipRows: form.skipRows,
    decimalSeparator: form.decimalSeparator,
    thousandsSeparator: form.thousandsSeparator,
    dateFormat: form.dateFormat.trim() === '' ? 'ISO' : form.dateFormat.trim(),
    ...(form.kept.timezone !== undefined ? { timezone: form.kept.timezone } : {}),
    columns: mapped,
  };
  const amounts = columnsWith(form, 'amount');
  const debits = columnsWith(form, 'debit');
  const credits = columnsWith(form, 'credit');
  const signs = columnsWith(form, 'sign');
  if (debits.length > 0 || credits.length > 0) {
    if (debits.length > 0 && credits.length > 0) mapping.amount = { debit: reference(debits[0]!), credit: reference(credits[0]!) };
  } else if (amounts.length > 0 && signs.length > 0) {
    mapping.amount = {
      column: reference(amounts[0]!),
      indicator: { column: reference(signs[0]!), debit: marks(form.debitMarks), credit: marks(form.creditMarks) },
    };
  } else if (amounts.length > 0) {
    mapped.amount = reference(amounts[0]!);
  }
  if (form.invertSign) mapping.invertSign = true;
  if (form.currency.trim() !== '') mapping.currency = form.currency.trim().toUpperCase();
  const ids = columnsWith(form, 'externalId');
  if (ids.length > 0) mapping.externalId = ids.map(reference);
  // A skip rule is kept while the column it reads is still in the file.
  const skip = (form.kept.skip ?? []).filter((rule) => indexOf(columns, rule.column) >= 0);
  if (skip.length > 0) mapping.skip = skip;
  return mapping;
}

export interface Hint {
  /** What the hint is about: a role of the pickers, or a setting of the form. */
  about: 'date' | 'amount' | 'sign' | 'currency' | 'dateFormat' | 'columns';
  message: string;
  /** Whether the file cannot be imported until it is settled. */
  blocking: boolean;
}

const ROLE_NAMES: Partial<Record<ColumnRole, string>> = {
  date: 'date',
  time: 'time',
  amount: 'amount',
  debit: 'debit',
  credit: 'credit',
  sign: 'sign indicator',
  currency: 'currency',
};

/** What the form still lacks or has twice, in words; each hint is there only while it applies. */
export function hintsOf(form: MappingForm, columns: readonly string[]): Hint[] {
  const hints: Hint[] = [];
  const count = (role: ColumnRole) => columnsWith(form, role).length;
  const names = (role: ColumnRole) =>
    columnsWith(form, role)
      .map((index) => `"${columns[index] ?? `column ${index + 1}`}"`)
      .join(' and ');
  if (count('date') === 0) hints.push({ about: 'date', message: 'Pick the column that holds the date of each row.', blocking: true });
  for (const role of ['date', 'time', 'amount', 'debit', 'credit', 'sign', 'currency'] as const) {
    if (count(role) > 1) hints.push({ about: 'columns', message: `Only one column can be the ${ROLE_NAMES[role]}: ${names(role)} both are.`, blocking: true });
  }
  const split = count('debit') > 0 || count('credit') > 0;
  if (!split && count('amount') === 0) {
    hints.push({ about: 'amount', message: 'Pick the amount column, or a debit column and a credit column.', blocking: true });
  }
  if (split && count('amount') > 0) {
    hints.push({ about: 'amount', message: 'Pick either one amount column or a debit and a credit column, not both.', blocking: true });
  }
  if (count('debit') > 0 && count('credit') === 0) hints.push({ about: 'amount', message: 'Pick the credit column (money in) too.', blocking: true });
  if (count('credit') > 0 && count('debit') === 0) hints.push({ about: 'amount', message: 'Pick the debit column (money out) too.', blocking: true });
  if (count('sign') > 0) {
    if (count('amount') === 0) hints.push({ about: 'sign', message: 'A sign indicator needs the amount column it signs.', blocking: true });
    else if (marks(form.debitMarks).length === 0 || marks(form.creditMarks).length === 0) {
      hints.push({ about: 'sign', message: 'Say which marks of the sign indicator mean money out and which mean money in.', blocking: true });
    }
  }
  if (count('time') > 0 && count('date') > 0 && !/HH/.test(form.dateFormat)) {
    hints.push({ about: 'dateFormat', message: 'With a time column, the date format includes the time, e.g. "DD.MM.YYYY HH:mm".', blocking: false });
  }
  if (count('currency') === 0 && form.currency.trim() === '') {
    hints.push({ about: 'currency', message: 'No column gives the currency: choose the currency of the amounts.', blocking: false });
  }
  return hints;
}

/** The form with one column's role changed. */
export function withRole(form: MappingForm, index: number, role: ColumnRole): MappingForm {
  const roles = [...form.roles];
  roles[index] = role;
  return { ...form, roles };
}

/** The form's roles fitted to a file cut into `width` columns (after its delimiter or header changed). */
export function fittedTo(form: MappingForm, width: number): MappingForm {
  if (form.roles.length === width) return form;
  return { ...form, roles: Array.from({ length: width }, (_, index) => form.roles[index] ?? 'ignore') };
}
