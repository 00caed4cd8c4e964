import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { Button, Disclosure, DisclosurePanel, Heading } from 'react-aria-components';
import { Link } from 'react-router';
import type { Rule, RuleValidation, Transaction } from '@ledger-recon/sdk';
import { formatAmount, formatTimestamp } from '../format.ts';
import {
  ADJUSTMENT_CHOICES,
  AMOUNT_SIGN_CHOICES,
  CARDINALITY_CHOICES,
  NORMALIZATION_STEPS,
  OUTCOME_CHOICES,
  TEXT_COMPARISONS,
  fieldOfPointer,
  inWords,
  isClassification,
  newCondition,
  newRuleForm,
  placeInWords,
  toForm,
  toRule,
  withStep,
  type ConditionForm,
  type NormalizationStep,
  type RuleForm,
  type ValueForm,
} from '../rule-form.ts';
import { valueAsServer } from '../rule-pattern.ts';
import { messageOf, useSession } from '../session.tsx';
import { useDatasets, type NamedDataset } from './DatasetSelect.tsx';
import { FormError } from './FormField.tsx';

const VALIDATE_DELAY_MILLISECONDS = 400;
const TRY_MATCHES_SHOWN = 10;
const TESTER_ROWS = 5;

// ---------------------------------------------------------------------------------------------
// Words for the choices.
// ---------------------------------------------------------------------------------------------

const SIGN_WORDS: Record<(typeof AMOUNT_SIGN_CHOICES)[number], string> = {
  same: 'equal, same sign',
  opposite: 'equal, opposite signs',
  absolute: 'equal, ignoring the sign',
};
const CARDINALITY_WORDS: Record<(typeof CARDINALITY_CHOICES)[number], string> = {
  '1:1': 'One transaction to one',
  '1:N': 'One to several on the second side',
  'N:1': 'Several on the first side to one',
  'N:M': 'Several to several',
};
const OUTCOME_WORDS: Record<(typeof OUTCOME_CHOICES)[number], string> = {
  match: 'Match them',
  suggest: 'Suggest them, for a person to confirm',
  informative: 'Mark the first side’s transactions informative',
  'out of scope': 'Mark the first side’s transactions out of scope',
};
const ADJUSTMENT_WORDS: Record<(typeof ADJUSTMENT_CHOICES)[number], string> = {
  '': 'Leave the difference open',
  fee: 'Record it as a bank fee',
  fx: 'Record it as an exchange difference',
  rounding: 'Record it as rounding',
  'write-off': 'Record it as a write-off',
};
const COMPARE_WORDS: Record<(typeof TEXT_COMPARISONS)[number], string> = {
  equals: 'is equal to',
  contains: 'is contained in',
  similar: 'is similar to',
};
const STEP_WORDS: Record<NormalizationStep, string> = {
  digits: 'digits only',
  alnum: 'letters and digits only',
  casefold: 'ignore case',
  'trim-zeros': 'without leading zeros',
};

/** A rule's cardinality in words, as the list of rules shows it. */
export function cardinalityWords(cardinality: unknown): string {
  return CARDINALITY_WORDS[cardinality as keyof typeof CARDINALITY_WORDS] ?? String(cardinality);
}

/** A field's name for a person: "bankReference" is "Bank reference". */
export function fieldWords(path: string): string {
  if (path === 'timestamp') return 'Booking date';
  if (path === 'externalId') return 'Entry id';
  const words = path.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// ---------------------------------------------------------------------------------------------
// Fields and their problems.
// ---------------------------------------------------------------------------------------------

type Problems = ReadonlyMap<string, string[]>;

/** The problems of one field, right below it; announced as they appear. */
function Problem({ id, messages }: { id: string; messages: string[] | undefined }) {
  if (messages === undefined || messages.length === 0) return null;
  return (
    <div className="error field-error" id={id} role="alert">
      {messages.map((message, index) => (
        <p key={index}>{message}</p>
      ))}
    </div>
  );
}

/** A labelled control with its problems; the control gets the attributes that tie it to them. */
function Labelled({
  label,
  messages,
  className,
  children,
}: {
  label: ReactNode;
  messages: string[] | undefined;
  className?: string;
  children: (aria: { 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const invalid = messages !== undefined && messages.length > 0;
  return (
    <div className={`form-field ${className ?? ''}`}>
      <label>
        {label}
        {children(invalid ? { 'aria-invalid': true, 'aria-describedby': id } : {})}
      </label>
      <Problem id={id} messages={messages} />
    </div>
  );
}

/** The columns every chosen dataset of a side has, by name, with their type. */
function columnsOf(datasets: NamedDataset[], ids: string[]): { name: string; type: string }[] {
  const chosen = datasets.filter((dataset) => ids.includes(dataset.id));
  if (chosen.length === 0) return [];
  const [first, ...rest] = chosen;
  return first!.columns.filter((column) => rest.every((dataset) => dataset.columns.some((other) => other.name === column.name && other.type === column.type)));
}

function FieldSelect({
  label,
  value,
  onChange,
  columns,
  messages,
  none,
  disabled,
}: {
  label: ReactNode;
  value: string;
  onChange: (path: string) => void;
  columns: { name: string }[];
  messages: string[] | undefined;
  none?: string;
  disabled: boolean;
}) {
  const names = columns.map((column) => column.name);
  if (value !== '' && !names.includes(value)) names.push(value);
  return (
    <Labelled label={label} messages={messages}>
      {(aria) => (
        <select value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)} {...aria}>
          {none !== undefined && <option value="">{none}</option>}
          {names.map((name) => (
            <option key={name} value={name}>
              {fieldWords(name)}
            </option>
          ))}
        </select>
      )}
    </Labelled>
  );
}

// ---------------------------------------------------------------------------------------------
// The pattern tester: what a value becomes on a few real rows of the side's dataset.
// ---------------------------------------------------------------------------------------------

function PatternTester({ datasetId, value }: { datasetId: string | undefined; value: Extract<ValueForm, { kind: 'field' }> }) {
  const { recon } = useSession();
  const rows = useQuery({
    queryKey: ['rule-tester', datasetId, value.path],
    enabled: datasetId !== undefined,
    staleTime: 60_000,
    queryFn: async () => (await recon.transactions.page({ datasetId: datasetId!, limit: TESTER_ROWS, columns: [{ path: value.path }] })).transactions,
  });
  if (datasetId === undefined) return <p className="hint">Choose this side’s dataset to try the pattern on its transactions.</p>;
  if (rows.error) return <p className="error">{messageOf(rows.error)}</p>;
  if (!rows.data) return <p className="hint">Reading a few transactions…</p>;
  if (rows.data.length === 0) return <p className="hint">This dataset has no transactions to try the pattern on yet.</p>;
  return (
    <table className="pattern-tester" aria-label={`What the rule reads from ${fieldWords(value.path).toLowerCase()}`}>
      <thead>
        <tr>
          <th scope="col">{fieldWords(value.path)}</th>
          <th scope="col">The rule compares</th>
        </tr>
      </thead>
      <tbody>
        {rows.data.map((row) => {
          const raw = (row as Record<string, unknown>)[value.path];
          const text = raw === null || raw === undefined ? null : String(raw);
          const result = valueAsServer(text, value.extract, value.normalize);
          return (
            <tr key={row.id}>
              <td>{text ?? '—'}</td>
              <td>{result === null ? <em>nothing: no match with this transaction</em> : <strong>{result}</strong>}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

// ---------------------------------------------------------------------------------------------
// Condition rows.
// ---------------------------------------------------------------------------------------------

interface RowProps<C extends ConditionForm> {
  index: number;
  condition: C;
  change: (next: C) => void;
  problems: Problems;
  disabled: boolean;
}

function AmountRow({ index, condition, change, problems, disabled }: RowProps<Extract<ConditionForm, { kind: 'amount' }>>) {
  const at = `conditions.${index}`;
  return (
    <>
      <Labelled label="Amounts" messages={problems.get(`${at}.sign`)}>
        {(aria) => (
          <select
            value={condition.sign}
            disabled={disabled}
            onChange={(event) => change({ ...condition, sign: event.target.value as typeof condition.sign })}
            {...aria}
          >
            {AMOUNT_SIGN_CHOICES.map((sign) => (
              <option key={sign} value={sign}>
                {SIGN_WORDS[sign]}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      <Labelled label="Within (amount, optional)" messages={problems.get(`${at}.toleranceAbsolute`)}>
        {(aria) => (
          <input
            inputMode="decimal"
            placeholder="to the cent"
            value={condition.toleranceAbsolute}
            disabled={disabled}
            onChange={(event) => change({ ...condition, toleranceAbsolute: event.target.value })}
            {...aria}
          />
        )}
      </Labelled>
      <Labelled label="or within (%, optional)" messages={problems.get(`${at}.tolerancePercent`)}>
        {(aria) => (
          <input
            inputMode="decimal"
            value={condition.tolerancePercent}
            disabled={disabled}
            onChange={(event) => change({ ...condition, tolerancePercent: event.target.value })}
            {...aria}
          />
        )}
      </Labelled>
    </>
  );
}

function DateRow({
  index,
  condition,
  change,
  problems,
  disabled,
  dateColumns,
}: RowProps<Extract<ConditionForm, { kind: 'date' }>> & { dateColumns: { name: string }[] }) {
  const at = `conditions.${index}`;
  const bound = (which: 'from' | 'to', label: string) => {
    const days = which === 'from' ? 'fromDays' : 'toDays';
    const direction = which === 'from' ? 'fromDirection' : 'toDirection';
    return (
      <div className="date-bound">
        <Labelled label={`${label} (days)`} messages={problems.get(`${at}.${which}`)}>
          {(aria) => (
            <input
              inputMode="numeric"
              className="days"
              value={condition[days]}
              disabled={disabled}
              onChange={(event) => change({ ...condition, [days]: event.target.value })}
              {...aria}
            />
          )}
        </Labelled>
        <Labelled label={<span className="visually-hidden">{label}: before or after</span>} messages={undefined}>
          {() => (
            <select value={condition[direction]} disabled={disabled} onChange={(event) => change({ ...condition, [direction]: event.target.value })}>
              <option value="before">days before</option>
              <option value="after">days after</option>
            </select>
          )}
        </Labelled>
      </div>
    );
  };
  return (
    <>
      <FieldSelect
        label="Which date"
        value={condition.path}
        columns={dateColumns.length > 0 ? dateColumns : [{ name: 'timestamp' }]}
        onChange={(path) => change({ ...condition, path })}
        messages={problems.get(`${at}.path`)}
        disabled={disabled}
      />
      <p className="condition-words">The second side’s date lies from</p>
      {bound('from', 'From')}
      <p className="condition-words">to</p>
      {bound('to', 'To')}
      <p className="condition-words">the first side’s date.</p>
    </>
  );
}

function ValueFields({
  side,
  at,
  value,
  change,
  problems,
  disabled,
  columns,
  datasetId,
  allowText,
}: {
  side: 'origin' | 'target';
  at: string;
  value: ValueForm;
  change: (next: ValueForm) => void;
  problems: Problems;
  disabled: boolean;
  columns: { name: string; type: string }[];
  datasetId: string | undefined;
  allowText: boolean;
}) {
  const sideWords = side === 'origin' ? 'First side' : 'Second side';
  const textColumns = columns.filter((column) => column.type === 'string');
  const [testing, setTesting] = useState(false);
  return (
    <fieldset className="value-fields">
      <legend>{sideWords}</legend>
      <Labelled label="Compare" messages={problems.get(`${at}.${value.kind === 'text' ? 'value' : 'path'}`)}>
        {(aria) => {
          const names = textColumns.map((column) => column.name);
          if (value.kind === 'field' && !names.includes(value.path)) names.push(value.path);
          return (
            <select
              value={value.kind === 'text' ? '' : value.path}
              disabled={disabled}
              onChange={(event) =>
                change(event.target.value === '' ? { kind: 'text', value: '' } : { kind: 'field', path: event.target.value, extract: '', normalize: [] })
              }
              {...aria}
            >
              {names.map((name) => (
                <option key={name} value={name}>
                  {fieldWords(name)}
                </option>
              ))}
              {allowText && <option value="">A fixed text</option>}
            </select>
          );
        }}
      </Labelled>
      {value.kind === 'text' ? (
        <Labelled label="The text" messages={undefined}>
          {() => <input value={value.value} disabled={disabled} onChange={(event) => change({ ...value, value: event.target.value })} />}
        </Labelled>
      ) : (
        <>
          <Labelled label="Take only the part a pattern finds (optional)" messages={problems.get(`${at}.extract`)}>
            {(aria) => (
              <input
                className="pattern"
                spellCheck={false}
                placeholder="e.g. (INV[0-9]+)"
                value={value.extract}
                disabled={disabled}
                onChange={(event) => change({ ...value, extract: event.target.value })}
                {...aria}
              />
            )}
          </Labelled>
          <fieldset className="chips">
            <legend>Tidy the text</legend>
            {NORMALIZATION_STEPS.map((step) => (
              <label className="chip" key={step}>
                <input
                  type="checkbox"
                  checked={value.normalize.includes(step)}
                  disabled={disabled}
                  onChange={(event) => change({ ...value, normalize: withStep(value.normalize, step, event.target.checked) })}
                />
                {STEP_WORDS[step]}
              </label>
            ))}
          </fieldset>
          <Problem id={`${at}-normalize`} messages={problems.get(`${at}.normalize`)} />
          <button type="button" className="secondary" aria-expanded={testing} onClick={() => setTesting(!testing)}>
            {testing ? 'Hide the test' : `Test on ${sideWords.toLowerCase()} transactions`}
          </button>
          {testing && <PatternTester datasetId={datasetId} value={value} />}
        </>
      )}
    </fieldset>
  );
}

function TextRow({
  index,
  condition,
  change,
  problems,
  disabled,
  form,
  datasets,
}: RowProps<Extract<ConditionForm, { kind: 'text' }>> & { form: RuleForm; datasets: NamedDataset[] }) {
  const at = `conditions.${index}`;
  const standard = [
    { name: 'description', type: 'string' },
    { name: 'reference', type: 'string' },
  ];
  const originColumns = columnsOf(datasets, form.originDatasetIds);
  const targetColumns = columnsOf(datasets, form.targetDatasetIds);
  return (
    <>
      <ValueFields
        side="origin"
        at={`${at}.origin`}
        value={condition.origin}
        change={(origin) => change({ ...condition, origin })}
        problems={problems}
        disabled={disabled}
        columns={originColumns.length > 0 ? originColumns : standard}
        datasetId={form.originDatasetIds[0]}
        allowText={false}
      />
      <div className="compare">
        <Labelled label="How they compare" messages={problems.get(`${at}.compare`)}>
          {(aria) => (
            <select
              value={condition.compare}
              disabled={disabled}
              onChange={(event) => {
                const compare = event.target.value as typeof condition.compare;
                change({ ...condition, compare, minimum: compare === 'similar' ? condition.minimum || '0.8' : '' });
              }}
              {...aria}
            >
              {TEXT_COMPARISONS.map((compare) => (
                <option key={compare} value={compare}>
                  {COMPARE_WORDS[compare]}
                </option>
              ))}
            </select>
          )}
        </Labelled>
        {condition.compare === 'similar' && (
          <Labelled label="At least (0 to 1)" messages={problems.get(`${at}.minimum`)}>
            {(aria) => (
              <input
                inputMode="decimal"
                className="days"
                value={condition.minimum}
                disabled={disabled}
                onChange={(event) => change({ ...condition, minimum: event.target.value })}
                {...aria}
              />
            )}
          </Labelled>
        )}
      </div>
      <ValueFields
        side="target"
        at={`${at}.target`}
        value={condition.target}
        change={(target) => change({ ...condition, target })}
        problems={problems}
        disabled={disabled}
        columns={isClassification(form) ? [] : targetColumns.length > 0 ? targetColumns : standard}
        datasetId={form.targetDatasetIds[0]}
        allowText
      />
    </>
  );
}

const CONDITION_TITLES: Record<ConditionForm['kind'], string> = { amount: 'Amount', date: 'Date', text: 'Reference or text' };

// ---------------------------------------------------------------------------------------------
// Checks the form makes before the service's: each says what to write, in words.
// ---------------------------------------------------------------------------------------------

const WHOLE_DAYS = /^\d{1,3}$/;
const DECIMAL = /^\d{1,18}(\.\d{1,6})?$/;

function localProblems(form: RuleForm): Map<string, string[]> {
  const problems = new Map<string, string[]>();
  const add = (key: string, message: string) => problems.set(key, [message]);
  if (form.name.trim() === '') add('name', 'Give the rule a name that says what it matches.');
  if (form.originDatasetIds.length === 0) add('origin', 'Choose the dataset (or datasets) whose transactions are to be matched.');
  if (!isClassification(form) && form.targetDatasetIds.length === 0) add('target', 'Choose the dataset (or datasets) to match them with.');
  form.conditions.forEach((condition, index) => {
    const at = `conditions.${index}`;
    if (condition.kind === 'date') {
      for (const [key, days] of [
        ['from', condition.fromDays],
        ['to', condition.toDays],
      ] as const) {
        if (!WHOLE_DAYS.test(days.trim()) || Number(days) > 366) add(`${at}.${key}`, 'Write a whole number of days, from 0 to 366.');
      }
    }
    if (condition.kind === 'amount') {
      if (condition.toleranceAbsolute.trim() !== '' && !DECIMAL.test(condition.toleranceAbsolute.trim())) {
        add(`${at}.toleranceAbsolute`, 'Write an amount such as 10.00 (a point before the cents), or leave it empty for amounts equal to the cent.');
      }
      if (condition.tolerancePercent.trim() !== '' && !DECIMAL.test(condition.tolerancePercent.trim())) {
        add(`${at}.tolerancePercent`, 'Write a percentage such as 0.5, or leave it empty.');
      }
    }
    if (condition.kind === 'text' && condition.compare === 'similar') {
      const minimum = Number(condition.minimum.trim());
      if (condition.minimum.trim() === '' || !Number.isFinite(minimum) || minimum < 0 || minimum > 1)
        add(`${at}.minimum`, 'Write a number from 0 to 1, such as 0.8.');
    }
  });
  return problems;
}

/** The keys of the fields the form shows now: a problem elsewhere is shown above the buttons. */
function shownFields(form: RuleForm): Set<string> {
  const keys = ['name', 'origin', 'cardinality', 'conditions', 'outcome', 'adjustment', 'currency', 'runOnIngest', 'enabled'];
  if (!isClassification(form)) keys.push('target');
  if (form.cardinality !== '1:1' || form.groupOrigin !== '' || form.groupTarget !== '') keys.push('groupOrigin', 'groupTarget', 'maxGroupSize');
  form.conditions.forEach((condition, index) => {
    const at = `conditions.${index}`;
    keys.push(at);
    if (condition.kind === 'amount') keys.push(`${at}.sign`, `${at}.toleranceAbsolute`, `${at}.tolerancePercent`);
    if (condition.kind === 'date') keys.push(`${at}.path`, `${at}.from`, `${at}.to`);
    if (condition.kind === 'text') {
      keys.push(`${at}.compare`);
      if (condition.compare === 'similar') keys.push(`${at}.minimum`);
      for (const side of ['origin', 'target'] as const) {
        const value = condition[side];
        if (value.kind === 'text') keys.push(`${at}.${side}.value`);
        else keys.push(`${at}.${side}.path`, `${at}.${side}.extract`, `${at}.${side}.normalize`);
      }
    }
  });
  return new Set(keys);
}

// ---------------------------------------------------------------------------------------------
// Try it: a dry run of this rule alone.
// ---------------------------------------------------------------------------------------------

interface TriedMatch {
  origins: Transaction[];
  targets: Transaction[];
}
interface Tried {
  runId: string;
  matched: number;
  suggested: number;
  ambiguous: number;
  classified: number;
  matches: TriedMatch[];
}

function TransactionLines({ transactions }: { transactions: Transaction[] }) {
  return (
    <ul className="tried-side">
      {transactions.map((transaction) => (
        <li key={transaction.id}>
          <span className="tried-date">{formatTimestamp(transaction.timestamp)}</span>{' '}
          <span className="tried-description">{transaction.description ?? '—'}</span>{' '}
          <span className="tried-amount">{formatAmount(transaction.amount as string | null, transaction.currency as string | null)}</span>
        </li>
      ))}
    </ul>
  );
}

function TryResults({ tried }: { tried: Tried }) {
  const counted = [
    [tried.matched, 'would be matched'],
    [tried.suggested, 'suggested'],
    [tried.ambiguous, 'left for a person to choose (equally good options)'],
    [tried.classified, 'marked'],
  ].filter(([count]) => Number(count) > 0);
  return (
    <section className="try-results" aria-label="What this rule would do">
      <h3>What this rule would do</h3>
      <p>
        {counted.length === 0 ? 'Nothing: no transactions fit this rule now.' : `${counted.map(([count, words]) => `${count} ${words}`).join(', ')}.`} Nothing
        was changed. <Link to={`/runs/${tried.runId}`}>See all results</Link>
      </p>
      {tried.matches.length > 0 && (
        <table className="tried">
          <caption className="visually-hidden">The first matches it would make</caption>
          <thead>
            <tr>
              <th scope="col">First side</th>
              <th scope="col">Second side</th>
            </tr>
          </thead>
          <tbody>
            {tried.matches.map((match, index) => (
              <tr key={index}>
                <td data-label="First side">
                  <TransactionLines transactions={match.origins} />
                </td>
                <td data-label="Second side">
                  <TransactionLines transactions={match.targets} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// The builder.
// ---------------------------------------------------------------------------------------------

const SERVICE_KEPT = ['id', 'version', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy'];
const withoutServiceMembers = (rule: Rule) => Object.fromEntries(Object.entries(rule).filter(([key]) => !SERVICE_KEPT.includes(key)));
const jsonOf = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * A rule as a form: its datasets by name, its conditions as rows, its choices in words, each
 * field with the service's check of it below it. The JSON view, for engineers, follows the form
 * and the form follows it; a rule the form cannot show is edited there, with the reason said.
 */
export function RuleBuilder({ rule, onSaved, onClose }: { rule: Rule | null; onSaved: () => void; onClose: () => void }) {
  const { recon, session } = useSession();
  const client = useQueryClient();
  const datasets = useDatasets();
  const jsonId = useId();
  const canWrite = session.user.role !== 'View-only';
  const initial = useMemo(() => {
    if (rule === null) return { form: newRuleForm(), reason: null as string | null, json: jsonOf(toRule(newRuleForm())) };
    const read = toForm(withoutServiceMembers(rule));
    return 'form' in read
      ? { form: read.form, reason: null, json: jsonOf(toRule(read.form)) }
      : { form: newRuleForm(), reason: read.reason, json: jsonOf(withoutServiceMembers(rule)) };
  }, [rule?.id, rule?.version]);
  const [form, setForm] = useState<RuleForm>(initial.form);
  const [json, setJson] = useState(initial.json);
  const [jsonReason, setJsonReason] = useState<string | null>(initial.reason);
  const [jsonSyntax, setJsonSyntax] = useState(false);
  const [jsonOpen, setJsonOpen] = useState(initial.reason !== null);
  const [validation, setValidation] = useState<RuleValidation | null>(null);
  const [saving, setSaving] = useState(false);
  // A new rule's empty fields are not called problems before the person has started on it.
  const [touched, setTouched] = useState(rule !== null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [trying, setTrying] = useState(false);
  const [tried, setTried] = useState<Tried | null>(null);
  const [tryError, setTryError] = useState<string | null>(null);
  useEffect(() => {
    setForm(initial.form);
    setJson(initial.json);
    setJsonReason(initial.reason);
    setJsonSyntax(false);
    setJsonOpen(initial.reason !== null);
    setTried(null);
    setTouched(rule !== null);
  }, [initial]);

  const formInCharge = jsonReason === null && !jsonSyntax;
  const draft: unknown = useMemo(() => {
    if (formInCharge) return toRule(form);
    try {
      return JSON.parse(json) as unknown;
    } catch {
      return null;
    }
  }, [formInCharge, form, json]);
  const draftText = JSON.stringify(draft);

  function update(next: RuleForm) {
    setTouched(true);
    setForm(next);
    setJson(jsonOf(toRule(next)));
    setTried(null);
  }
  function editJson(text: string) {
    setTouched(true);
    setJson(text);
    setTried(null);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      setJsonSyntax(true);
      return;
    }
    setJsonSyntax(false);
    const read = toForm(parsed);
    if ('form' in read) {
      setForm(read.form);
      setJsonReason(null);
    } else {
      setJsonReason(read.reason);
    }
  }

  // The service checks the draft a moment after the last change.
  useEffect(() => {
    if (draft === null) {
      setValidation(null);
      return;
    }
    const timer = setTimeout(async () => {
      try {
        setValidation(await recon.rules.validate(draft as never, rule ? { ruleId: rule.id } : {}));
      } catch {
        setValidation(null);
      }
    }, VALIDATE_DELAY_MILLISECONDS);
    return () => clearTimeout(timer);
  }, [draftText, rule?.id]);

  const datasetNames = useMemo(() => new Map(datasets.map((dataset) => [dataset.id.toLowerCase(), `${dataset.sourceName} · ${dataset.name}`])), [datasets]);
  const local = formInCharge ? localProblems(form) : new Map<string, string[]>();
  const quiet = !touched && rule === null;
  const problems = new Map<string, string[]>(local);
  const elsewhere: string[] = [];
  const warnings: string[] = [];
  const shown = shownFields(form);
  for (const problem of validation?.problems ?? []) {
    const message = inWords(problem.message, datasetNames);
    if (problem.severity !== 'error') {
      warnings.push(message);
      continue;
    }
    const key = formInCharge ? fieldOfPointer(problem.path, form) : 'rule';
    if (local.has(key)) continue;
    if (formInCharge && shown.has(key)) problems.set(key, [...(problems.get(key) ?? []), message]);
    else {
      // Away from its field, a problem says where it is, in words.
      const place = placeInWords(problem.path);
      elsewhere.push(place === '' ? message : `${place}: ${message.charAt(0).toLowerCase()}${message.slice(1)}`);
    }
  }
  const invalid = draft === null || local.size > 0 || validation?.valid === false;
  if (quiet) {
    problems.clear();
    elsewhere.length = 0;
  }

  async function save() {
    setSaving(true);
    setSaveError(null);
    try {
      if (rule) await recon.rules.update(rule.id, { ...(draft as object), version: rule.version } as never);
      else await recon.rules.create(draft as never);
      onSaved();
    } catch (error) {
      setSaveError(messageOf(error));
    } finally {
      setSaving(false);
    }
  }

  /**
   * A dry run of this rule alone. A saved rule runs as it is; a draft runs as a disabled copy
   * kept only while the run lasts. Nothing is changed either way.
   */
  async function tryIt() {
    setTrying(true);
    setTryError(null);
    setTried(null);
    let copyId: string | null = null;
    try {
      const unchanged = rule !== null && initial.reason === null && formInCharge && JSON.stringify(toRule(form)) === JSON.stringify(toRule(initial.form));
      let ruleId = rule?.id;
      if (!unchanged) {
        const draftRule = draft as Record<string, unknown>;
        const copy = await recon.rules.create({
          ...draftRule,
          name: `${String(draftRule.name ?? '')} (trying)`.slice(0, 200),
          enabled: false,
          runOnIngest: false,
        } as never);
        copyId = copy.id;
        ruleId = copy.id;
      }
      const started = await recon.runs.start({ mode: 'dry-run', ruleIds: [ruleId!] });
      const run = await recon.runs.wait(started.id);
      void client.invalidateQueries({ queryKey: ['runs'] });
      if (run.status !== 'completed') throw new Error(run.error?.message ?? 'The trial did not finish; try again.');
      const results = [];
      for await (const result of recon.runs.results(run.id, { kind: 'matches' })) {
        results.push(result);
        if (results.length >= TRY_MATCHES_SHOWN) break;
      }
      const links = results.map((result) => (result.links ?? []) as { originId: string; targetId: string }[]);
      const ids = [...new Set(links.flat().flatMap((link) => [link.originId, link.targetId]))];
      const transactions = new Map(
        (await Promise.all(ids.map((id) => recon.transactions.get(id, { columns: ['amount', 'currency'] })))).map((transaction) => [
          transaction.id,
          transaction,
        ]),
      );
      const pick = (list: string[]) => [...new Set(list)].flatMap((id) => (transactions.has(id) ? [transactions.get(id)!] : []));
      setTried({
        runId: run.id,
        matched: run.totals.matched,
        suggested: run.totals.suggested,
        ambiguous: run.totals.ambiguous,
        classified: run.totals.classified,
        matches: links.map((group) => ({ origins: pick(group.map((link) => link.originId)), targets: pick(group.map((link) => link.targetId)) })),
      });
    } catch (error) {
      setTryError(messageOf(error));
    } finally {
      if (copyId !== null) await recon.rules.delete(copyId).catch(() => undefined);
      setTrying(false);
    }
  }

  const disabled = !canWrite || !formInCharge;
  const classification = isClassification(form);
  const grouping = form.cardinality !== '1:1' || form.groupOrigin !== '' || form.groupTarget !== '';
  const hasAmount = form.conditions.some((condition) => condition.kind === 'amount');
  const dateColumns = columnsOf(datasets, [...form.originDatasetIds, ...form.targetDatasetIds]).filter((column) => column.type === 'date');
  const sideDatasets = (side: 'origin' | 'target') => {
    const key = side === 'origin' ? 'originDatasetIds' : 'targetDatasetIds';
    const audience = side === 'origin' ? form.originAudience : form.targetAudience;
    const id = `${side}-problems`;
    const messages = problems.get(side);
    return (
      <fieldset className="side" aria-describedby={messages ? id : undefined}>
        <legend>{side === 'origin' ? 'First side: match transactions of (usually the bank)' : 'Second side: with transactions of (usually the ledger)'}</legend>
        {datasets.length === 0 && <p className="hint">No datasets yet: create one on the Datasets page.</p>}
        <div className="chips">
          {datasets.map((dataset) => (
            <label className="chip" key={dataset.id}>
              <input
                type="checkbox"
                disabled={disabled}
                checked={form[key].includes(dataset.id)}
                onChange={(event) =>
                  update({ ...form, [key]: event.target.checked ? [...form[key], dataset.id] : form[key].filter((chosen) => chosen !== dataset.id) })
                }
              />
              {dataset.sourceName} · {dataset.name}
            </label>
          ))}
        </div>
        {audience.length > 0 && (
          <p className="hint">
            Only transactions that pass {audience.length === 1 ? 'one more filter' : `${audience.length} more filters`} take part (shown in the JSON view).
          </p>
        )}
        <Problem id={id} messages={[...(messages ?? []), ...(problems.get(`${side}Audience`) ?? [])]} />
      </fieldset>
    );
  };

  return (
    <section className="card rule-builder" aria-label="Rule editor">
      <h2>{rule ? `Edit “${rule.name}” (version ${rule.version})` : 'New rule'}</h2>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        {jsonReason !== null && (
          <p className="warning" role="status">
            The form cannot show this rule: {jsonReason.charAt(0).toLowerCase() + jsonReason.slice(1)} Edit it in the JSON view below.
          </p>
        )}
        {jsonReason === null && (
          <>
            <div className="rule-basics">
              <Labelled label="Name" messages={problems.get('name')}>
                {(aria) => (
                  <input className="wide" value={form.name} disabled={disabled} onChange={(event) => update({ ...form, name: event.target.value })} {...aria} />
                )}
              </Labelled>
              <Labelled label="What to do with what fits" messages={[...(problems.get('outcome') ?? [])]}>
                {(aria) => (
                  <select
                    value={form.outcome}
                    disabled={disabled}
                    onChange={(event) => {
                      const outcome = event.target.value as RuleForm['outcome'];
                      const classifying = outcome === 'informative' || outcome === 'out of scope';
                      update({ ...form, outcome, ...(classifying ? { targetDatasetIds: [], targetAudience: [], cardinality: '1:1', adjustment: '' } : {}) });
                    }}
                    {...aria}
                  >
                    {OUTCOME_CHOICES.map((outcome) => (
                      <option key={outcome} value={outcome}>
                        {OUTCOME_WORDS[outcome]}
                      </option>
                    ))}
                  </select>
                )}
              </Labelled>
              <label className="chip">
                <input type="checkbox" checked={form.enabled} disabled={disabled} onChange={(event) => update({ ...form, enabled: event.target.checked })} />
                Enabled (runs with the others)
              </label>
            </div>
            <div className="sides">
              {sideDatasets('origin')}
              {!classification && sideDatasets('target')}
            </div>

            <fieldset className="conditions" aria-describedby={problems.has('conditions') ? 'conditions-problems' : undefined}>
              <legend>Conditions (all must hold)</legend>
              <Problem id="conditions-problems" messages={problems.get('conditions')} />
              {form.conditions.length === 0 && <p className="hint">No conditions: every pair of transactions would fit.</p>}
              <ol className="condition-list">
                {form.conditions.map((condition, index) => {
                  const change = (next: ConditionForm) => update({ ...form, conditions: form.conditions.map((kept, at) => (at === index ? next : kept)) });
                  const common = { index, problems, disabled };
                  return (
                    <li
                      key={index}
                      className={`condition condition-${condition.kind}`}
                      aria-label={`Condition ${index + 1}: ${CONDITION_TITLES[condition.kind]}`}
                    >
                      <div className="condition-head">
                        <strong>{CONDITION_TITLES[condition.kind]}</strong>
                        {!disabled && (
                          <button
                            type="button"
                            className="secondary"
                            aria-label={`Remove condition ${index + 1} (${CONDITION_TITLES[condition.kind].toLowerCase()})`}
                            onClick={() => update({ ...form, conditions: form.conditions.filter((_, at) => at !== index) })}
                          >
                            Remove
                          </button>
                        )}
                      </div>
                      <Problem id={`condition-${index}-problems`} messages={problems.get(`conditions.${index}`)} />
                      <div className="condition-fields">
                        {condition.kind === 'amount' && <AmountRow {...common} condition={condition} change={change} />}
                        {condition.kind === 'date' && <DateRow {...common} condition={condition} change={change} dateColumns={dateColumns} />}
                        {condition.kind === 'text' && <TextRow {...common} condition={condition} change={change} form={form} datasets={datasets} />}
                      </div>
                    </li>
                  );
                })}
              </ol>
              {!disabled && (
                <div className="buttons">
                  <span>Add a condition:</span>
                  <button
                    type="button"
                    className="secondary"
                    disabled={hasAmount}
                    onClick={() => update({ ...form, conditions: [...form.conditions, newCondition('amount')] })}
                  >
                    Amount
                  </button>
                  <button type="button" className="secondary" onClick={() => update({ ...form, conditions: [...form.conditions, newCondition('date')] })}>
                    Date
                  </button>
                  <button type="button" className="secondary" onClick={() => update({ ...form, conditions: [...form.conditions, newCondition('text')] })}>
                    Reference or text
                  </button>
                </div>
              )}
            </fieldset>

            <div className="rule-choices">
              {!classification && (
                <Labelled label="How many on each side" messages={problems.get('cardinality')}>
                  {(aria) => (
                    <select
                      value={form.cardinality}
                      disabled={disabled}
                      onChange={(event) => update({ ...form, cardinality: event.target.value as RuleForm['cardinality'] })}
                      {...aria}
                    >
                      {CARDINALITY_CHOICES.map((cardinality) => (
                        <option key={cardinality} value={cardinality}>
                          {CARDINALITY_WORDS[cardinality]}
                        </option>
                      ))}
                    </select>
                  )}
                </Labelled>
              )}
              {grouping && !classification && (
                <>
                  <FieldSelect
                    label="Group the first side by"
                    none="No grouping"
                    value={form.groupOrigin}
                    columns={columnsOf(datasets, form.originDatasetIds)}
                    onChange={(groupOrigin) => update({ ...form, groupOrigin })}
                    messages={problems.get('groupOrigin')}
                    disabled={disabled}
                  />
                  <FieldSelect
                    label="Group the second side by"
                    none="No grouping"
                    value={form.groupTarget}
                    columns={columnsOf(datasets, form.targetDatasetIds)}
                    onChange={(groupTarget) => update({ ...form, groupTarget })}
                    messages={problems.get('groupTarget')}
                    disabled={disabled}
                  />
                  <Labelled label="Largest set to try (without grouping)" messages={problems.get('maxGroupSize')}>
                    {(aria) => (
                      <select
                        value={form.maxGroupSize}
                        disabled={disabled}
                        onChange={(event) => update({ ...form, maxGroupSize: Number(event.target.value) })}
                        {...aria}
                      >
                        {Array.from({ length: 10 }, (_, at) => at + 1).map((size) => (
                          <option key={size} value={size}>
                            {size}
                          </option>
                        ))}
                      </select>
                    )}
                  </Labelled>
                </>
              )}
              {!classification && (
                <Labelled label="A difference within the tolerance" messages={problems.get('adjustment')}>
                  {(aria) => (
                    <select
                      value={form.adjustment}
                      disabled={disabled}
                      onChange={(event) => update({ ...form, adjustment: event.target.value as RuleForm['adjustment'] })}
                      {...aria}
                    >
                      {ADJUSTMENT_CHOICES.map((adjustment) => (
                        <option key={adjustment} value={adjustment}>
                          {ADJUSTMENT_WORDS[adjustment]}
                        </option>
                      ))}
                    </select>
                  )}
                </Labelled>
              )}
              <div className="form-field">
                <label className="chip">
                  <input
                    type="checkbox"
                    checked={form.runOnIngest}
                    disabled={disabled}
                    onChange={(event) => update({ ...form, runOnIngest: event.target.checked })}
                  />
                  Run after every import
                </label>
                <Problem id="run-on-ingest-problems" messages={problems.get('runOnIngest')} />
              </div>
              {!classification && (
                <div className="form-field">
                  <label className="chip">
                    <input
                      type="checkbox"
                      checked={form.currency === 'any'}
                      disabled={disabled}
                      onChange={(event) => update({ ...form, currency: event.target.checked ? 'any' : 'same' })}
                    />
                    Match across different currencies
                  </label>
                  <Problem id="currency-problems" messages={problems.get('currency')} />
                </div>
              )}
            </div>
          </>
        )}
        <div aria-live="polite" className="rule-problems">
          {elsewhere.length > 0 && (
            <ul className="problems">
              {elsewhere.map((message, index) => (
                <li key={index} className="error">
                  {message}
                </li>
              ))}
            </ul>
          )}
          {warnings.length > 0 && (
            <ul className="problems">
              {warnings.map((message, index) => (
                <li key={index} className="warning">
                  {message}
                </li>
              ))}
            </ul>
          )}
          {validation?.valid === true && local.size === 0 && <p className="success">The rule is valid.</p>}
        </div>

        <Disclosure className="json-view" isExpanded={jsonOpen} onExpandedChange={setJsonOpen}>
          <Heading level={3}>
            <Button slot="trigger" className="disclosure-trigger">
              {jsonOpen ? '▾' : '▸'} JSON view (for engineers)
            </Button>
          </Heading>
          <DisclosurePanel>
            <label htmlFor={jsonId}>The rule as the API takes it</label>
            <textarea id={jsonId} rows={16} spellCheck={false} readOnly={!canWrite} value={json} onChange={(event) => editJson(event.target.value)} />
            {jsonSyntax && <p className="error">This is not complete JSON yet; the form waits until it is.</p>}
          </DisclosurePanel>
        </Disclosure>

        <div className="buttons">
          {canWrite && (
            <button type="submit" disabled={invalid || saving}>
              {saving ? 'Saving…' : rule ? 'Save as a new version' : 'Create rule'}
            </button>
          )}
          {canWrite && (
            <button type="button" className="secondary" disabled={invalid || trying} onClick={() => void tryIt()}>
              {trying ? 'Trying…' : 'Try it'}
            </button>
          )}
          <button type="button" className="secondary" onClick={onClose}>
            Close
          </button>
        </div>
        <FormError error={saveError === null ? undefined : { message: saveError }} />
        {tryError !== null && (
          <p className="error" role="alert">
            {tryError}
          </p>
        )}
        {tried && <TryResults tried={tried} />}
      </form>
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// A rule read, not edited: what a View-only person sees, in sentences, with no form.
// ---------------------------------------------------------------------------------------------

function valueWords(value: ValueForm): string {
  if (value.kind === 'text') return `the text “${value.value}”`;
  const steps = value.normalize.map((step) => STEP_WORDS[step]).join(', ');
  return `${fieldWords(value.path).toLowerCase()}${value.extract ? ` (the part matching ${value.extract})` : ''}${steps ? ` (${steps})` : ''}`;
}

function conditionWords(condition: ConditionForm): string {
  switch (condition.kind) {
    case 'amount': {
      const tolerance = [
        condition.toleranceAbsolute && `${condition.toleranceAbsolute} either way`,
        condition.tolerancePercent && `${condition.tolerancePercent}%`,
      ]
        .filter(Boolean)
        .join(' or ');
      return `Amounts ${SIGN_WORDS[condition.sign]}${tolerance ? `, within ${tolerance}` : ''}`;
    }
    case 'date':
      return `${fieldWords(condition.path)} on the second side from ${condition.fromDays} day${condition.fromDays === '1' ? '' : 's'} ${condition.fromDirection} to ${condition.toDays} day${condition.toDays === '1' ? '' : 's'} ${condition.toDirection} the first side’s`;
    case 'text':
      return `On the first side, ${valueWords(condition.origin)} ${COMPARE_WORDS[condition.compare]} the second side’s ${valueWords(condition.target)}${condition.compare === 'similar' && condition.minimum ? ` (at least ${condition.minimum})` : ''}`;
  }
}

/** A rule in sentences: its sides by dataset name, its conditions, and what it does. */
export function RuleInWords({ rule, onClose }: { rule: Rule; onClose: () => void }) {
  const datasets = useDatasets();
  const names = (ids: string[]) =>
    ids.map((id) => {
      const dataset = datasets.find((candidate) => candidate.id === id);
      return dataset ? `${dataset.sourceName} · ${dataset.name}` : 'a dataset no longer listed';
    });
  const read = toForm(rule);
  return (
    <section className="card rule-in-words" aria-label={`Rule ${rule.name}`}>
      <h2>{rule.name}</h2>
      <p className="hint">You can read this rule; changing rules needs the Full member or Administrator role.</p>
      {'reason' in read ? (
        <p>This rule uses settings the form cannot show: {read.reason}</p>
      ) : (
        <dl className="rule-words">
          <div>
            <dt>First side</dt>
            <dd>{names(read.form.originDatasetIds).join(', ') || 'Every dataset'}</dd>
          </div>
          {!isClassification(read.form) && (
            <div>
              <dt>Second side</dt>
              <dd>{names(read.form.targetDatasetIds).join(', ') || 'Every dataset'}</dd>
            </div>
          )}
          {!isClassification(read.form) && (
            <div>
              <dt>How many on each side</dt>
              <dd>{CARDINALITY_WORDS[read.form.cardinality]}</dd>
            </div>
          )}
          <div>
            <dt>When</dt>
            <dd>
              {read.form.conditions.length === 0 ? (
                'Always'
              ) : (
                <ul>
                  {read.form.conditions.map((condition, index) => (
                    <li key={index}>{conditionWords(condition)}</li>
                  ))}
                </ul>
              )}
            </dd>
          </div>
          <div>
            <dt>Then</dt>
            <dd>
              {OUTCOME_WORDS[read.form.outcome]}
              {read.form.adjustment ? `; a difference: ${ADJUSTMENT_WORDS[read.form.adjustment].toLowerCase()}` : ''}
            </dd>
          </div>
          <div>
            <dt>Runs</dt>
            <dd>
              {read.form.enabled ? 'Enabled' : 'Disabled'}
              {read.form.runOnIngest ? ', and after every import' : ''}
            </dd>
          </div>
        </dl>
      )}
      <button type="button" className="secondary" onClick={onClose}>
        Close
      </button>
    </section>
  );
}
