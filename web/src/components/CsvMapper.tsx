import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  Button,
  Checkbox,
  ComboBox,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  NumberField,
  Popover,
  Select,
  SelectValue,
  TextField,
  type Key,
} from 'react-aria-components';
import type { ImportPreview } from '@ledger-recon/sdk';
import {
  fittedTo,
  formFromMapping,
  hintsOf,
  mappingFromForm,
  roleChoices,
  withRole,
  type ColumnRole,
  type Hint,
  type MappingForm,
} from '../csv-mapping-form.ts';
import { formatAmount, formatCalendarDate } from '../format.ts';
import { messageOf, useSession } from '../session.tsx';

/**
 * The CSV mapper of the imports screen: the first rows of the file under its own header, a
 * picker above each column, the settings as fields, and how each row will be stored, read by the
 * server with the mapping as it is being made (a row that would fail says why).
 */

/** What the imports screen needs of the mapper to import the file. */
export interface MapperState {
  mapping: Record<string, unknown>;
  /** The name the mapping is saved under on the dataset. */
  name: string;
  /** Whether something must be picked before the file can be imported. */
  blocked: boolean;
}

const ENCODINGS = ['utf-8', 'windows-1252', 'iso-8859-1', 'iso-8859-15', 'windows-1250', 'iso-8859-2', 'cp850', 'cp437', 'cp852', 'utf-16le', 'utf-16be'];
const DELIMITERS: { value: string; label: string }[] = [
  { value: ';', label: 'Semicolon ( ; )' },
  { value: ',', label: 'Comma ( , )' },
  { value: '\t', label: 'Tab' },
  { value: '|', label: 'Vertical bar ( | )' },
];
const DECIMALS: { value: string; label: string }[] = [
  { value: ',', label: 'Comma: 1234,56' },
  { value: '.', label: 'Point: 1234.56' },
];
const THOUSANDS: { value: string; label: string }[] = [
  { value: '', label: 'None' },
  { value: '.', label: 'Point: 1.234' },
  { value: ',', label: 'Comma: 1,234' },
  { value: ' ', label: 'Space: 1 234' },
  { value: "'", label: "Apostrophe: 1'234" },
];
const DATE_FORMATS = [
  'DD.MM.YYYY',
  'DD/MM/YYYY',
  'MM/DD/YYYY',
  'YYYY-MM-DD',
  'DD-MM-YYYY',
  'YYYYMMDD',
  'D.M.YYYY',
  'DD.MM.YY',
  'DD/MM/YY',
  'MM/DD/YY',
  'DD MMM YYYY',
  'DD-MMM-YYYY',
  'DD.MM.YYYY HH:mm',
  'YYYY-MM-DD HH:mm:ss',
  'ISO',
];

/** A calendar date as written, in every time zone the same day. */
function calendarDateOf(date: unknown): string {
  return typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) ? formatCalendarDate(date) : '—';
}

/** A name the server takes for a saved mapping (letters, digits, spaces, . _ -), from a file's name. */
export function mappingNameFor(fileName: string): string {
  const base = fileName
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9 ._-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[^A-Za-z0-9]+/, '');
  return (base === '' ? 'CSV mapping' : base).slice(0, 100);
}

type Entry = { bookingDate?: unknown; amount?: unknown; currency?: unknown; description?: unknown };
type CheckedRow = ImportPreview['checkedRows'][number];

/** A small select of react-aria-components: a label, a button showing the value, a list in a popover. */
function Choice({
  label,
  value,
  options,
  onChange,
  className,
  labelHidden = false,
}: {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
  className?: string;
  labelHidden?: boolean;
}) {
  return (
    <Select
      className={`choice${className ? ` ${className}` : ''}`}
      selectedKey={value}
      onSelectionChange={(key: Key | null) => key !== null && onChange(String(key))}
      aria-label={labelHidden ? label : undefined}
    >
      {!labelHidden && <Label className="field-label">{label}</Label>}
      <Button className="choice-button">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover className="choice-popover">
        <ListBox className="choice-list">
          {options.map((option) => (
            <ListBoxItem key={option.value} id={option.value} textValue={option.label} className="choice-item">
              {option.label}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}

function HintList({ hints }: { hints: Hint[] }) {
  if (hints.length === 0) return null;
  return (
    <ul className="mapper-hints" aria-label="Still to settle">
      {hints.map((hint) => (
        <li key={hint.message} className={hint.blocking ? 'blocking' : undefined}>
          {hint.message}
        </li>
      ))}
    </ul>
  );
}

export function CsvMapper({
  datasetId,
  file,
  preview,
  customColumns,
  onChange,
}: {
  datasetId: string;
  file: File;
  preview: ImportPreview;
  customColumns: readonly string[];
  onChange: (state: MapperState) => void;
}) {
  const { recon } = useSession();
  const saved = preview.savedMapping;
  const [form, setForm] = useState<MappingForm>(() =>
    formFromMapping((saved?.mapping ?? preview.mapping ?? null) as Record<string, unknown> | null, preview.checkedColumns, preview),
  );
  const [name, setName] = useState(saved?.name ?? mappingNameFor(file.name));
  const [columns, setColumns] = useState<string[]>(preview.checkedColumns);
  const mapping = useMemo(() => mappingFromForm(form, columns), [form, columns]);
  const mappingText = JSON.stringify(mapping);
  // The server reads the rows again a moment after the last choice, not at every key stroke.
  const [sent, setSent] = useState(mappingText);
  useEffect(() => {
    const timer = setTimeout(() => setSent(mappingText), 250);
    return () => clearTimeout(timer);
  }, [mappingText]);
  const checked = useQuery({
    queryKey: ['csv-mapper', datasetId, file.name, file.size, file.lastModified, sent],
    queryFn: () => recon.imports.preview(datasetId, file, { mapping: JSON.parse(sent) as Record<string, unknown> }),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
  const answer = checked.data ?? preview;
  useEffect(() => {
    if (!checked.data) return;
    const next = checked.data.checkedColumns;
    setColumns((current) => (JSON.stringify(current) === JSON.stringify(next) ? current : next));
    setForm((current) => fittedTo(current, next.length));
  }, [checked.data]);

  const hints = hintsOf(form, columns);
  if (preview.dateFormatAmbiguous && form.dateFormat === preview.dateFormat) {
    hints.push({
      about: 'dateFormat',
      message: `The dates fit both ${form.dateFormat} and its day and month swapped: check a date whose day is above 12 in the preview.`,
      blocking: false,
    });
  }
  const problem = answer.mappingProblem;
  if (!/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$/.test(name.trim())) {
    hints.push({ about: 'columns', message: 'Give the mapping a name that starts with a letter or a digit, to save it on the dataset.', blocking: true });
  }
  const blocked = hints.some((hint) => hint.blocking) || problem !== null;
  // The screen hears of every change of the mapping, its name or whether it can be imported.
  const report = useRef(onChange);
  report.current = onChange;
  useEffect(() => {
    report.current({ mapping, name: name.trim(), blocked });
  }, [mapping, name, blocked]);

  const choices = useMemo(() => roleChoices(customColumns).map((choice) => ({ value: choice.role, label: choice.label })), [customColumns]);
  const rows = answer.checkedRows;
  const width = Math.max(columns.length, ...rows.map((row) => row.fields.length));
  const failing = rows.filter((row) => row.problem !== null).length;
  const set = (patch: Partial<MappingForm>) => setForm((current) => ({ ...current, ...patch }));
  const dateFormatError = problem?.field === 'dateFormat' ? problem.message : null;
  // While a hint says what is missing, the server's word on the same gap would only repeat it.
  const generalProblem = problem !== null && problem.field !== 'dateFormat' && !hints.some((hint) => hint.blocking) ? problem.message : null;
  const formatId = useId();
  const roleOf = (index: number): ColumnRole => form.roles[index] ?? 'ignore';

  return (
    <div className="csv-mapper">
      {saved && (
        <p className="success" role="status">
          This file has the header of the mapping “{saved.name}” saved on this dataset: its columns are picked as they were last time.
        </p>
      )}
      <fieldset className="mapper-settings">
        <legend>How the file is written</legend>
        <Choice
          label="Encoding"
          value={form.encoding}
          options={[...new Set([form.encoding, ...ENCODINGS])].map((value) => ({ value, label: value }))}
          onChange={(encoding) => set({ encoding })}
        />
        <Choice label="Delimiter" value={form.delimiter} options={DELIMITERS} onChange={(delimiter) => set({ delimiter })} />
        <NumberField
          className="number-field"
          value={form.skipRows}
          minValue={0}
          maxValue={1000}
          step={1}
          onChange={(skipRows) => set({ skipRows: Number.isFinite(skipRows) ? skipRows : 0 })}
        >
          <Label className="field-label">Lines to skip at the top</Label>
          <Input />
        </NumberField>
        <Checkbox className="checkbox" isSelected={form.header} onChange={(header) => set({ header })}>
          <span className="box" aria-hidden="true">
            {form.header ? '✓' : ''}
          </span>
          The first row names the columns
        </Checkbox>
        <Choice
          label="Decimal separator"
          value={form.decimalSeparator}
          options={DECIMALS}
          onChange={(decimalSeparator) => set({ decimalSeparator: decimalSeparator === ',' ? ',' : '.' })}
        />
        <Choice
          label="Thousands separator"
          value={form.thousandsSeparator}
          options={THOUSANDS}
          onChange={(thousandsSeparator) => set({ thousandsSeparator })}
        />
        <ComboBox
          className="combo"
          inputValue={form.dateFormat}
          onInputChange={(dateFormat) => set({ dateFormat })}
          allowsCustomValue
          menuTrigger="focus"
          isInvalid={dateFormatError !== null}
          aria-describedby={dateFormatError ? `${formatId}-error` : `${formatId}-help`}
        >
          <Label className="field-label">Date format</Label>
          <div className="combo-group">
            <Input />
            <Button className="choice-button" aria-label="Show date formats">
              ▾
            </Button>
          </div>
          <Popover className="choice-popover">
            <ListBox className="choice-list">
              {DATE_FORMATS.map((format) => (
                <ListBoxItem key={format} id={format} textValue={format} className="choice-item">
                  {format}
                </ListBoxItem>
              ))}
            </ListBox>
          </Popover>
        </ComboBox>
        <TextField className="text-field" value={form.currency} onChange={(currency) => set({ currency: currency.toUpperCase().slice(0, 3) })}>
          <Label className="field-label">Currency of rows without one</Label>
          <Input placeholder="e.g. EUR" />
        </TextField>
        <Checkbox className="checkbox" isSelected={form.invertSign} onChange={(invertSign) => set({ invertSign })}>
          <span className="box" aria-hidden="true">
            {form.invertSign ? '✓' : ''}
          </span>
          Amounts are written the other way round (charges positive)
        </Checkbox>
        {form.roles.includes('sign') && (
          <>
            <TextField className="text-field" value={form.debitMarks} onChange={(debitMarks) => set({ debitMarks })}>
              <Label className="field-label">Marks for money out</Label>
              <Input placeholder="e.g. D, Af, S" />
            </TextField>
            <TextField className="text-field" value={form.creditMarks} onChange={(creditMarks) => set({ creditMarks })}>
              <Label className="field-label">Marks for money in</Label>
              <Input placeholder="e.g. C, Bij, H" />
            </TextField>
          </>
        )}
      </fieldset>
      <p className="hint" id={`${formatId}-help`}>
        Date format: DD day, MM month, YYYY year, MMM month name (Jan), HH:mm time.
      </p>
      {dateFormatError && (
        <p className="error" id={`${formatId}-error`} role="alert">
          Date format: {dateFormatError}
        </p>
      )}

      <h3>What each column holds</h3>
      {rows.length === 0 && columns.length === 0 && (
        <p className="error" role="alert">
          No rows could be read from the file: check the encoding, the delimiter and the lines to skip.
        </p>
      )}
      <div className="mapper-table" role="region" aria-label="First rows of the file with a picker above each column" tabIndex={0}>
        <table>
          <thead>
            <tr className="mapper-pickers">
              {Array.from({ length: width }, (_, index) => (
                <th key={index} scope="col">
                  <Choice
                    label={`Column ${columns[index] ? `“${columns[index]}”` : index + 1} holds`}
                    labelHidden
                    className={roleOf(index) === 'ignore' ? 'ignored' : 'picked'}
                    value={roleOf(index)}
                    options={choices}
                    onChange={(role) => setForm((current) => withRole(fittedTo(current, width), index, role as ColumnRole))}
                  />
                </th>
              ))}
            </tr>
            <tr>
              {Array.from({ length: width }, (_, index) => (
                <th key={index} scope="col" className="mapper-header">
                  {columns[index] ?? `column ${index + 1}`}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.line} className={row.problem ? 'row-failing' : undefined}>
                {Array.from({ length: width }, (_, index) => (
                  <td key={index}>{row.fields[index] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <HintList hints={hints} />
      {generalProblem && (
        <p className="error" role="alert">
          The file cannot be read this way: {generalProblem}
        </p>
      )}
      <h3>How each row will be stored</h3>
      <p role="status" className={failing > 0 ? 'error' : 'hint'}>
        {checked.isFetching ? 'Reading the rows again… ' : ''}
        {rows.length === 0
          ? 'No rows to show.'
          : failing > 0
            ? `${failing} of the first ${rows.length} rows would not be imported; the import is all or nothing, so correct the choices or the file first.`
            : `The first ${rows.length} rows read.`}
      </p>
      <table className="mapper-result">
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Date</th>
            <th scope="col" className="number">
              Amount
            </th>
            <th scope="col">Description</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row: CheckedRow) => {
            const entry = (row.entry ?? null) as Entry | null;
            return (
              <tr key={row.line} className={row.problem ? 'row-failing' : undefined}>
                <td data-label="Line">{row.line}</td>
                <td data-label="Date">{entry ? calendarDateOf(entry.bookingDate) : '—'}</td>
                <td data-label="Amount" className="number">
                  {entry
                    ? formatAmount(String(entry.amount), typeof entry.currency === 'string' ? entry.currency : form.currency.trim().toUpperCase() || null)
                    : '—'}
                </td>
                <td data-label="Description">{entry && typeof entry.description === 'string' ? entry.description : '—'}</td>
                <td data-label="Result">
                  {row.problem ? (
                    <span className="error">Will not import: {row.problem}</span>
                  ) : row.skipped ? (
                    'Left out (not an entry)'
                  ) : entry ? (
                    'Reads'
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>

      <TextField className="text-field mapper-name" value={name} onChange={(next) => setName(next.replace(/[^A-Za-z0-9 ._-]/g, '').slice(0, 100))} isRequired>
        <Label className="field-label">Save this mapping on the dataset as</Label>
        <Input />
      </TextField>
      <p className="hint">The next file with the same header is read with it without being mapped again.</p>
      {checked.isError && (
        <p className="error" role="alert">
          {messageOf(checked.error)}
        </p>
      )}
      <details>
        <summary>The mapping as JSON (for engineers)</summary>
        <pre>{JSON.stringify(mapping, null, 2)}</pre>
      </details>
    </div>
  );
}
