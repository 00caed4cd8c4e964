/**
 * A match's evidence in sentences a person reads at a glance: each condition with the two values
 * it compared, the score, the runners-up and a group's make-up, naming transactions by their
 * amount and description, never by an id, and times as durations, never as epoch numbers. Pure:
 * the web app and the command line say the same thing of the same evidence.
 */

/** What a sentence may say of a transaction the evidence names by id. */
export interface EvidenceTransaction {
  id: string;
  timestamp?: number | null;
  description?: string | null;
  reference?: string | null;
  amount?: string | null;
  currency?: string | null;
  datasetName?: string | null;
}

export interface EvidenceContext {
  /** The transactions the evidence may name (both sides, runners-up, a group's counterpart). */
  transactions?: readonly EvidenceTransaction[];
  /** The chosen pair, when the result is one: a runner-up is named by its transaction that is not in it. */
  pair?: { originId: string; targetId: string } | null;
  /** What each side is called (its dataset's name); "origin" and "target" otherwise. */
  originName?: string | null;
  targetName?: string | null;
  /** The adjustment a match books for a difference it allows. */
  adjustment?: { amount?: string | null; reason?: string | null } | null;
}

export interface EvidenceSentence {
  text: string;
  /** Whether the condition it states held; null for what is no condition (score, runners-up, a group's make-up). */
  held: boolean | null;
}

type Entry = Record<string, unknown>;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The sentences of one evidence object, in the order a reader wants them: conditions, group, score, runners-up. */
export function evidenceSentences(given: unknown, context: EvidenceContext = {}): EvidenceSentence[] {
  // A candidate's evidence is its conditions alone.
  const evidence = Array.isArray(given) ? { conditions: given } : given;
  if (!isEntry(evidence)) return [];
  const sentences: EvidenceSentence[] = [];
  const sides = { origin: context.originName || 'origin', target: context.targetName || 'target' };
  const byId = new Map((context.transactions ?? []).map((transaction) => [transaction.id, transaction]));
  const currency = currencyOf(evidence, context);
  if (evidence.audience === true) sentences.push({ text: "Fits the rule's filters", held: true });
  if (Array.isArray(evidence.conditions)) {
    for (const condition of evidence.conditions) if (isEntry(condition)) sentences.push(conditionSentence(condition, sides, currency));
  } else if (typeof evidence.conditionsUnavailable === 'string') {
    sentences.push({ text: `The conditions cannot be shown: ${evidence.conditionsUnavailable}`, held: null });
  }
  if (isEntry(evidence.group)) sentences.push(...groupSentences(evidence.group, byId, currency));
  if (context.adjustment?.amount) {
    sentences.push({
      text: `Difference of ${formatAmountForReading(context.adjustment.amount, currency)} booked as ${context.adjustment.reason ?? 'an adjustment'}`,
      held: null,
    });
  }
  if (typeof evidence.score === 'string' || typeof evidence.score === 'number')
    sentences.push({ text: `Score ${formatScore(evidence.score)} of 1`, held: null });
  if (Array.isArray(evidence.runnersUp)) {
    for (const runnerUp of evidence.runnersUp)
      if (isEntry(runnerUp)) sentences.push({ text: runnerUpSentence(runnerUp, byId, context.pair ?? null), held: null });
  }
  if (typeof evidence.candidates === 'number' && typeof evidence.limit === 'number') {
    sentences.push({ text: `${evidence.candidates} candidates, more than the ${evidence.limit} a search tries`, held: false });
  }
  return sentences;
}

function conditionSentence(condition: Entry, sides: { origin: string; target: string }, currency: string | null): EvidenceSentence {
  const held = typeof condition.held === 'boolean' ? condition.held : null;
  // A group's conditions other than the amount held for every pair that made it a candidate.
  if (typeof condition.pairs === 'number' && condition.origin === undefined) {
    return { text: `${conditionName(condition.type)} held for each of the ${condition.pairs} transactions`, held };
  }
  switch (condition.type) {
    case 'amount':
      return { text: amountSentence(condition, currency, held), held };
    case 'date':
      return { text: dateSentence(condition, held), held };
    case 'equals':
    case 'contains':
    case 'similar':
      return { text: valueSentence(condition, sides, held), held };
    case 'currency':
      return {
        text:
          held === false
            ? `Currencies differ: ${text(condition.origin)} and ${text(condition.target)}`
            : `Same currency: ${text(condition.origin ?? condition.target)}`,
        held,
      };
    case 'any': {
      const alternatives = Array.isArray(condition.alternatives) ? condition.alternatives.filter(isEntry) : [];
      const chosen = alternatives.find((alternative) => alternative.held === true);
      if (chosen) return { text: `One of ${alternatives.length} alternatives held: ${conditionSentence(chosen, sides, currency).text}`, held };
      return { text: `None of ${alternatives.length} alternatives held`, held };
    }
    default:
      return { text: `${conditionName(condition.type)} ${held === false ? 'did not hold' : 'held'}`, held };
  }
}

function amountSentence(condition: Entry, currency: string | null, held: boolean | null): string {
  const origin = formatAmountForReading(text(condition.origin), currency);
  const target = formatAmountForReading(text(condition.target), currency);
  const difference = text(condition.difference).replace(/^-/, '');
  const tolerance = text(condition.tolerance);
  const signs = condition.sign === 'opposite' ? ', opposite signs' : condition.sign === 'absolute' ? ', signs ignored' : '';
  if (isZero(difference)) return `Amounts equal${signs}: ${origin} and ${target}`;
  const allowed = isZero(tolerance) ? 'must be equal' : `allowed: ${formatAmountForReading(tolerance, currency)}`;
  return `Amounts ${held === false ? 'too far apart' : 'differ'} by ${formatAmountForReading(difference, currency)}: ${origin} and ${target} (${allowed}${signs})`;
}

function dateSentence(condition: Entry, held: boolean | null): string {
  const what = condition.path === 'timestamp' || condition.path === undefined ? 'Booked' : `${fieldName(text(condition.path), true)}s`;
  const difference = Math.abs(Number(condition.differenceMilliseconds));
  const min = Number(condition.min);
  const max = Number(condition.max);
  const apart = Number.isFinite(difference) ? (difference === 0 ? 'at the same time' : `${formatDuration(difference)} apart`) : 'apart';
  const window = Number.isFinite(min) && Number.isFinite(max) ? windowOf(min, max) : null;
  return `${what} ${apart}${window ? ` (allowed: ${window})` : ''}${held === false ? ', outside the window' : ''}`;
}

function windowOf(min: number, max: number): string {
  if (min === -max) return max === 0 ? 'the same time' : `${formatDuration(max)} either way`;
  const before = min < 0 ? `${formatDuration(-min)} before` : min === 0 ? 'the same time' : `${formatDuration(min)} after`;
  const after = max < 0 ? `${formatDuration(-max)} before` : max === 0 ? 'the same time' : `${formatDuration(max)} after`;
  return `from ${before} to ${after}`;
}

function valueSentence(condition: Entry, sides: { origin: string; target: string }, held: boolean | null): string {
  const originField = fieldOf(condition.originValue);
  const targetField = fieldOf(condition.targetValue);
  const origin = text(condition.origin);
  const target = text(condition.target);
  const originPlace = `the ${sides.origin} ${originField}`;
  const targetPlace = `the ${sides.target} ${targetField}`;
  if (condition.type === 'contains') {
    return held === false
      ? `${capitalize(originField)} ${origin || '(empty)'} not found in ${targetPlace}`
      : `${capitalize(originField)} ${origin} found in ${targetPlace}`;
  }
  if (condition.type === 'similar') {
    const similarity = Math.round(Number(condition.similarity) * 100);
    const needed = Math.round(Number(condition.min) * 100);
    return `${capitalize(originField)} ${similarity}% similar to ${targetPlace} (needed: ${needed}%): “${origin}” and “${target}”`;
  }
  if (held === false) return `${capitalize(originField)} differs: ${origin || '(empty)'} in ${originPlace}, ${target || '(empty)'} in ${targetPlace}`;
  if (originField === targetField) return `Same ${originField} on both sides: ${origin}`;
  return `${capitalize(originField)} ${origin} equals ${targetPlace}`;
}

function groupSentences(group: Entry, byId: Map<string, EvidenceTransaction>, currency: string | null): EvidenceSentence[] {
  const byType = Array.isArray(group.byType) ? group.byType.filter(isEntry) : [];
  const parts = byType.map((entry) => {
    const count = Number(entry.count);
    const type = typeof entry.type === 'string' && entry.type !== '' ? entry.type : 'without a type';
    const named =
      type === 'without a type' ? `${count} ${count === 1 ? 'transaction' : 'transactions'} without a type` : `${count} ${count === 1 ? type : plural(type)}`;
    return `${named} ${formatAmountForReading(text(entry.sum), currency)}`;
  });
  const sentences: EvidenceSentence[] = [];
  if (parts.length > 0) sentences.push({ text: parts.join(' · '), held: null });
  const counterpart = isEntry(group.counterpart) && typeof group.counterpart.id === 'string' ? byId.get(group.counterpart.id) : undefined;
  const total = formatAmountForReading(text(group.total), currency);
  sentences.push({
    text: `${group.transactions} transactions totalling ${total}${counterpart ? ` against ${describeTransaction(counterpart)}` : ''}`,
    held: null,
  });
  return sentences;
}

function runnerUpSentence(runnerUp: Entry, byId: Map<string, EvidenceTransaction>, pair: { originId: string; targetId: string } | null): string {
  const score = `score ${formatScore(runnerUp.score as string)}`;
  const ids: string[] = [];
  if (typeof runnerUp.originId === 'string' || typeof runnerUp.targetId === 'string') {
    // A runner-up pair shares one end with the chosen pair: it is named by its other end.
    const others = [runnerUp.originId, runnerUp.targetId].filter(
      (id): id is string => typeof id === 'string' && (pair === null || (id !== pair.originId && id !== pair.targetId)),
    );
    ids.push(...others);
  } else {
    for (const list of [runnerUp.origins, runnerUp.targets]) if (Array.isArray(list)) ids.push(...list.filter((id): id is string => typeof id === 'string'));
  }
  const known = ids.map((id) => byId.get(id)).filter((transaction): transaction is EvidenceTransaction => transaction !== undefined);
  if (known.length === 0) return `Runner-up with ${score}`;
  if (known.length > 2) return `Runner-up: ${known.length} transactions, ${score}`;
  return `Runner-up: ${known.map(describeTransaction).join(' and ')}, ${score}`;
}

/** A transaction as a sentence names it: its amount and description (its reference when it has no description). */
export function describeTransaction(transaction: EvidenceTransaction): string {
  const amount = transaction.amount ? formatAmountForReading(transaction.amount, transaction.currency ?? null) : null;
  const words = transaction.description || transaction.reference || null;
  return [amount, words].filter(Boolean).join(' ') || 'a transaction';
}

/** A duration in the largest units that say it: "3 days", "11 hours", "1 day 2 hours", "45 minutes". */
export function formatDuration(milliseconds: number): string {
  const value = Math.abs(milliseconds);
  const unit = (count: number, name: string) => `${count} ${name}${count === 1 ? '' : 's'}`;
  if (value >= DAY) {
    const days = Math.floor(value / DAY);
    const hours = Math.round((value - days * DAY) / HOUR);
    return hours === 0 ? unit(days, 'day') : hours === 24 ? unit(days + 1, 'day') : `${unit(days, 'day')} ${unit(hours, 'hour')}`;
  }
  if (value >= HOUR) return unit(Math.round(value / HOUR), 'hour');
  if (value >= MINUTE) return unit(Math.round(value / MINUTE), 'minute');
  return unit(Math.round(value / SECOND), 'second');
}

/** An exact decimal grouped for reading, with a true minus sign and its currency; never through a float. */
export function formatAmountForReading(amount: string | null | undefined, currency?: string | null): string {
  if (amount === null || amount === undefined || amount === '') return '—';
  const negative = amount.startsWith('-');
  const [whole = '0', fraction] = amount.replace(/^[-+]/, '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '−' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}${currency ? ` ${currency}` : ''}`;
}

function formatScore(score: string | number): string {
  const value = String(score);
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '.0') : value;
}

function currencyOf(evidence: Entry, context: EvidenceContext): string | null {
  const entry = Array.isArray(evidence.conditions) ? evidence.conditions.find((condition) => isEntry(condition) && condition.type === 'currency') : undefined;
  if (isEntry(entry) && typeof entry.origin === 'string') return entry.origin;
  const first = context.transactions?.find((transaction) => transaction.currency);
  return first?.currency ?? null;
}

/** The field a value description ("description | extract (...) | casefold") reads, in words. */
function fieldOf(described: unknown): string {
  const value = text(described);
  if (value.startsWith('constant ')) return 'value';
  return fieldName(value.split(' | ')[0] ?? value, false);
}

function fieldName(path: string, capital: boolean): string {
  const words: Record<string, string> = { description: 'text', externalId: 'external id', bankReference: 'bank reference', timestamp: 'booking' };
  const name = words[path] ?? path.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return capital ? capitalize(name) : name;
}

function conditionName(type: unknown): string {
  const names: Record<string, string> = {
    amount: 'The amount',
    date: 'The date window',
    equals: 'The equal values',
    contains: 'The text found',
    similar: 'The similarity',
    currency: 'The same currency',
    any: 'One of the alternatives',
  };
  return names[text(type)] ?? 'The condition';
}

function plural(word: string): string {
  if (/(s|x|ch|sh)$/.test(word)) return `${word}es`;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

function isZero(decimal: string): boolean {
  return /^[-+]?0*(\.0*)?$/.test(decimal) && decimal !== '';
}

function capitalize(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}

function text(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
