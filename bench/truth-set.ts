/**
 * A truth set for the matching engine (used by bench/matching.ts; not part of the tests): a
 * realistic bank statement and sales/purchase ledger generated together, with the true match
 * groups known. Pure and deterministic: the same options (seed included) give the same records.
 *
 * What it contains, by case (origin = bank statement, target = ledger):
 * - `1:1 exact reference`: the payer quoted the invoice number as the structured reference
 *   (incoming customer payments and outgoing supplier payments, negative on both sides).
 * - `1:1 reference in text`: the invoice number is buried in the bank text among other words and
 *   numbers ("SEPA CREDIT ... Inv.Nr.104711 ... EREF+..."), in the spellings people use; a few
 *   are mangled beyond any pattern ("INV 104 711") and only the customer number and amount are left.
 * - `1:1 bank fee`: the bank deducted a charge (0.35 to 6.00) from the payment.
 * - `1:1 FX`: an invoice in USD booked in EUR at one rate and paid at another (up to 0.4 % apart).
 * - `1:1 customer and amount`: no reference, only the customer number in the text.
 * - `1:N deposit`: one deposit pays several invoices of one customer (their exact sum).
 * - `N:1 instalments`: one invoice paid in two to four instalments a fortnight apart.
 * and, not true groups:
 * - `decoy`: beside a true pair, a bank line and an invoice with the same amount and the same day
 *   but another reference; they must stay unmatched.
 * - `two invoices`: a payment without reference that two invoices of its customer fit equally
 *   (same amount, same day); `two payments`: two such payments and one invoice. Must never be
 *   matched automatically; a suggestion listing the options is the right outcome.
 * - unpaid invoices and bank lines with no counterpart (card payments, salaries, interest).
 *
 * Payments arrive 0 to 5 days after the invoice. Amounts are built from integer cents and
 * formatted as decimal strings. The generator checks itself (checkTruthSet): every true group
 * sums within its case's tolerance and date range, and no combination other than the intended
 * ones fits the evidence the matching rules use (reference, customer number, amount, date); with
 * `unique` (the default) it moves on to the next seed until that holds.
 */

export const TRUE_CASES = [
  '1:1 exact reference',
  '1:1 reference in text',
  '1:1 bank fee',
  '1:1 FX',
  '1:1 customer and amount',
  '1:N deposit',
  'N:1 instalments',
] as const;
export type TrueCase = (typeof TRUE_CASES)[number];

export const AMBIGUOUS_CASES = ['decoy', 'two invoices', 'two payments'] as const;
export type AmbiguousCaseName = (typeof AMBIGUOUS_CASES)[number];

/** A record in the shape of the ingest API (POST /datasets/{id}/transactions). */
export interface IngestRecord {
  externalId: string;
  /** Epoch milliseconds. */
  timestamp: number;
  description: string;
  reference: string | null;
  /** A decimal string with two decimals, never a float. */
  amount: string;
  currency: string;
}

/** A true match group: origins are bank lines, targets are ledger entries. */
export interface TrueGroup {
  case: TrueCase;
  originExternalIds: string[];
  targetExternalIds: string[];
}

/** Transactions that must not be matched automatically (decoys and ambiguous choices). */
export interface AmbiguousCase {
  case: AmbiguousCaseName;
  originExternalIds: string[];
  targetExternalIds: string[];
}

export interface TruthSet {
  /** The seed the set was made with (the requested one, or a later one when `unique` moved on). */
  seed: number;
  bank: IngestRecord[];
  ledger: IngestRecord[];
  groups: TrueGroup[];
  ambiguous: AmbiguousCase[];
  /** Records with no counterpart at all. */
  unmatched: { originExternalIds: string[]; targetExternalIds: string[] };
  /** Fits that nobody intended (a subset of invoices that happens to sum to a payment); 0 when `unique`. */
  coincidentalFits: number;
  /** What those fits are ("bank BNK-… (customer …) also fits GL-…"). */
  coincidences: string[];
}

export type MixKey = TrueCase | AmbiguousCaseName | 'unpaid';

export interface TruthSetOptions {
  seed: number;
  /** About this many ledger entries (the last case may add a few). */
  invoices: number;
  /** Customers that invoices belong to (default: one per 12 invoices). */
  customers?: number;
  /** Invoice dates are spread over this many days (default 60). */
  days?: number;
  /** Share of the invoices each case takes (default DEFAULT_MIX); normalised. */
  mix?: Partial<Record<MixKey, number>>;
  /** How many invoices one deposit pays (default 2 to 5). */
  depositSize?: { min: number; max: number };
  /** Bank lines with no counterpart, per invoice (default 0.05). */
  bankNoise?: number;
  /** Try the following seeds until no coincidental fit exists (default true). */
  unique?: boolean;
}

export const DEFAULT_MIX: Record<MixKey, number> = {
  '1:1 exact reference': 0.36,
  '1:1 reference in text': 0.24,
  '1:1 bank fee': 0.07,
  '1:1 FX': 0.05,
  '1:1 customer and amount': 0.03,
  '1:N deposit': 0.1,
  'N:1 instalments': 0.04,
  decoy: 0.03,
  'two invoices': 0.02,
  'two payments': 0.01,
  unpaid: 0.05,
};

/** What the cases promise, and what the rules of the bench are written against. */
export const TRUTH_LIMITS = {
  /** Payments are booked this many days after the invoice (inclusive). */
  paymentDelayDays: { min: 0, max: 5 },
  /** Instalment j (from 0) is paid j × this many days later than the first. */
  instalmentIntervalDays: 14,
  instalments: { min: 2, max: 4 },
  /** A deducted bank charge, in cents. */
  feeCents: [35, 50, 100, 150, 250, 390, 500, 600] as readonly number[],
  /** The largest gap between the booking rate and the payment rate of an FX invoice, in percent. */
  fxDriftPercent: 0.4,
  /** What the bench's rules allow: a fee up to this absolute amount, an FX gap up to this percent. */
  feeToleranceAbsolute: '7.50',
  fxTolerancePercent: '0.5',
  maxGroupSize: 5,
} as const;

/** The patterns the bench's rules extract with (PostgreSQL regular expressions, also valid in JavaScript). */
export const PATTERNS = {
  /** An invoice number after "INV" (any case), up to 12 other characters between. */
  invoiceNumber: '[Ii][Nn][Vv][^0-9]{0,12}([0-9]{5,8})',
  /** A customer number after "CUST" (any case): "CUST-40123", "Cust.No 40123", "customer 40123". */
  customerNumber: '[Cc][Uu][Ss][Tt][^0-9]{0,10}([0-9]{5})',
} as const;

const DAY_MS = 86_400_000;
/** 2026-01-01T00:00:00Z. */
export const TRUTH_START_MS = Date.UTC(2026, 0, 1);

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** mulberry32: a small, fast, seeded generator of numbers in [0, 1). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Integer cents as a decimal string: -12345 → "-123.45". */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new Error(`not a whole number of cents: ${cents}`);
  const absolute = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

/** A decimal string with at most two decimals as integer cents (no float arithmetic). */
export function decimalToCents(decimal: string): number {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(decimal);
  if (!match) throw new Error(`not a decimal with at most two decimals: "${decimal}"`);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] === '-' ? -cents : cents;
}

/** What the rules' `extract` + `normalize: ["digits", "trim-zeros"]` make of a text (null: nothing found). */
export function extractNumber(pattern: string, text: string | null): string | null {
  if (text === null) return null;
  const match = new RegExp(pattern).exec(text);
  if (!match || match[1] === undefined) return null;
  return normalizeNumber(match[1]);
}

/** `normalize: ["digits", "trim-zeros"]`. */
export function normalizeNumber(value: string): string {
  return value.replace(/[^0-9]/g, '').replace(/^0+(?=.)/, '');
}

const COMPANY_NAMES = [
  'Acme',
  'Globex',
  'Initech',
  'Umbrella',
  'Hooli',
  'Stark Industries',
  'Wayne Enterprises',
  'Wonka',
  'Tyrell',
  'Cyberdyne',
  'Soylent',
  'Vandelay',
  'Kramerica',
  'Dunder Mifflin',
  'Sterling Cooper',
  'Pied Piper',
  'Massive Dynamic',
  'Oscorp',
  'Nakatomi',
  'Gringotts',
  'Aperture',
  'Black Mesa',
  'Monarch',
  'Prestige',
  'Zorg',
  'Weyland',
  'Bluth',
  'Paper Street',
  'Duff',
  'Krusty',
];
const COMPANY_FORMS = ['GmbH', 'Ltd', 'SA', 'BV', 'AG', 'Inc', 'SARL', 'Oy', 'KG', 'SpA'];
const BANK_PREFIXES = ['SEPA CREDIT TRANSFER', 'GUTSCHRIFT', 'CREDIT', 'SEPA-UEBERWEISUNG', 'TRF FROM', 'INCOMING PAYMENT'];
const BANK_SUFFIXES = ['THANK YOU', 'KIND REGARDS', '', '', 'SVWZ'];
/** What a payment without any reference says. */
const NO_REFERENCE_WORDS = ['PAYMENT', 'ZAHLUNG', 'SETTLEMENT', 'OPEN ITEMS', 'ACCOUNT BALANCE'];
/** Consonants and digits only, so that no bank id spells INV or CUST by chance. */
const ID_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ0123456789';

interface Customer {
  number: string;
  name: string;
}

/** A record while the set is built; external ids are given once all records are sorted. */
interface Draft {
  side: 'bank' | 'ledger';
  timestamp: number;
  description: string;
  reference: string | null;
  cents: number;
  currency: string;
  externalId?: string;
}

interface DraftGroup {
  case: TrueCase;
  bank: Draft[];
  ledger: Draft[];
}

interface DraftAmbiguous {
  case: AmbiguousCaseName;
  bank: Draft[];
  ledger: Draft[];
}

/** Builds a truth set; see the file's comment. Throws if it cannot satisfy its own checks. */
export function generateTruthSet(options: TruthSetOptions): TruthSet {
  const unique = options.unique ?? true;
  for (let attempt = 0; attempt < 50; attempt++) {
    const set = buildOnce({ ...options, seed: options.seed + attempt });
    const problems = checkTruthSet(set, { coincidences: false });
    if (problems.length > 0) throw new Error(`the truth set (seed ${set.seed}) is inconsistent: ${problems.slice(0, 5).join('; ')}`);
    set.coincidences = findCoincidences(set);
    set.coincidentalFits = set.coincidences.length;
    if (!unique || set.coincidentalFits === 0) return set;
  }
  throw new Error(`no seed from ${options.seed} to ${options.seed + 49} gives a truth set without coincidental fits`);
}

function buildOnce(options: TruthSetOptions): TruthSet {
  const next = random(options.seed);
  const integer = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chance = (p: number) => next() < p;
  /** Log-uniform cents between two amounts in units. */
  const amountCents = (min: number, max: number) => Math.round(Math.exp(Math.log(min * 100) + next() * (Math.log(max * 100) - Math.log(min * 100))));
  const bankId = (length: number) => Array.from({ length }, () => ID_ALPHABET[Math.floor(next() * ID_ALPHABET.length)]).join('');

  const days = options.days ?? 60;
  const depositSize = options.depositSize ?? { min: 2, max: 5 };
  if (depositSize.min < 1 || depositSize.max > TRUTH_LIMITS.maxGroupSize || depositSize.min > depositSize.max)
    throw new Error('depositSize must lie within 1..5');
  const mix = { ...(options.mix ? Object.fromEntries(Object.keys(DEFAULT_MIX).map((key) => [key, 0])) : DEFAULT_MIX), ...options.mix } as Record<
    MixKey,
    number
  >;

  // Customers: unique five-digit numbers and a name each.
  const customerCount = Math.max(5, options.customers ?? Math.round(options.invoices / 12));
  if (customerCount > 80_000) throw new Error('at most 80,000 customers (five-digit numbers)');
  const usedNumbers = new Set<number>();
  const customers: Customer[] = [];
  while (customers.length < customerCount) {
    const number = integer(10_000, 99_999);
    if (usedNumbers.has(number)) continue;
    usedNumbers.add(number);
    customers.push({ number: String(number), name: `${pick(COMPANY_NAMES)} ${pick(COMPANY_FORMS)}` });
  }
  const suppliers = Array.from({ length: 40 }, () => `${pick(COMPANY_NAMES)} ${pick(COMPANY_FORMS)}`);

  let invoiceNumber = 100_000;
  let billNumber = 600_000;
  let phantomNumber = 900_000;
  const nextInvoiceNumber = () => (invoiceNumber += integer(1, 3));
  const bank: Draft[] = [];
  const ledger: Draft[] = [];
  const groups: DraftGroup[] = [];
  const ambiguous: DraftAmbiguous[] = [];
  const unmatchedBank: Draft[] = [];
  const unmatchedLedger: Draft[] = [];

  const invoiceDay = () => TRUTH_START_MS + integer(0, days - 1) * DAY_MS;
  const paymentDelay = () => integer(TRUTH_LIMITS.paymentDelayDays.min, TRUTH_LIMITS.paymentDelayDays.max) * DAY_MS;
  const addBank = (draft: Omit<Draft, 'side'>) => {
    const record: Draft = { side: 'bank', ...draft };
    bank.push(record);
    return record;
  };
  const addLedger = (draft: Omit<Draft, 'side'>) => {
    const record: Draft = { side: 'ledger', ...draft };
    ledger.push(record);
    return record;
  };
  const invoice = (customer: Customer, timestamp: number, cents: number, extra = '') => {
    const number = nextInvoiceNumber();
    return addLedger({
      timestamp,
      description: `Invoice INV-${number} ${customer.name} (cust. ${customer.number})${extra}`,
      reference: `INV-${number}`,
      cents,
      currency: 'EUR',
    });
  };
  const numberOf = (invoiceDraft: Draft) => invoiceDraft.reference!.replace(/^INV-/, '');

  // The ways people write an invoice number and a customer number in a transfer.
  const invoiceToken = (number: string) =>
    pick([
      `INV-${number}`,
      `INV${number}`,
      `inv ${number}`,
      `Invoice no. 0${number}`,
      `RE: INV/${number}`,
      `Inv.Nr.${number}`,
      `INVOICE ${number}`,
      `RECHNUNG/INVOICE INV ${number}`,
    ]);
  const mangledToken = (number: string) => pick([`INV ${number.slice(0, 3)} ${number.slice(3)}`, `Rechnung ${number}`, `IN V${number}`, `RG${number}`]);
  const customerToken = (customer: Customer) =>
    pick([`CUST-${customer.number}`, `Cust.No ${customer.number}`, `CUSTOMER ${customer.number}`, `cust ${customer.number}`]);
  const payer = (customer: Customer) => (chance(0.5) ? customer.name.toUpperCase() : customer.name);
  const endToEnd = () => (chance(0.3) ? 'NOTPROVIDED' : `E2E${bankId(12)}`);
  const bankText = (customer: Customer, middle: string, withCustomer: boolean) =>
    [pick(BANK_PREFIXES), payer(customer), withCustomer ? customerToken(customer) : '', middle, chance(0.4) ? `EREF+${bankId(10)}` : '', pick(BANK_SUFFIXES)]
      .filter((part) => part !== '')
      .join(' ');

  /** A customer payment quoting an invoice, in the bank's words. */
  const referencedPayment = (invoiceDraft: Draft, customer: Customer, cents: number, style: 'exact' | 'text' | 'mangled', extra = '', timestamp?: number) => {
    const number = numberOf(invoiceDraft);
    const token = style === 'mangled' ? mangledToken(number) : invoiceToken(number);
    return addBank({
      timestamp: timestamp ?? invoiceDraft.timestamp + paymentDelay(),
      description: bankText(customer, `${token}${extra}`, style === 'mangled' || chance(0.7)),
      reference: style === 'exact' ? invoiceDraft.reference : endToEnd(),
      cents,
      currency: 'EUR',
    });
  };

  const generators: Record<MixKey, () => number> = {
    '1:1 exact reference': () => {
      if (chance(0.12)) {
        // An outgoing payment of a supplier's bill: negative on both sides.
        const supplier = pick(suppliers);
        const number = (billNumber += integer(1, 3));
        const cents = -amountCents(20, 30_000);
        const bill = addLedger({
          timestamp: invoiceDay(),
          description: `Bill BILL-${number} ${supplier}`,
          reference: `BILL-${number}`,
          cents,
          currency: 'EUR',
        });
        const payment = addBank({
          timestamp: bill.timestamp + paymentDelay(),
          description: `SEPA DEBIT TRANSFER TO ${supplier.toUpperCase()} BILL-${number}`,
          reference: `BILL-${number}`,
          cents,
          currency: 'EUR',
        });
        groups.push({ case: '1:1 exact reference', bank: [payment], ledger: [bill] });
        return 1;
      }
      const customer = pick(customers);
      const cents = amountCents(20, 20_000);
      const entry = invoice(customer, invoiceDay(), cents);
      groups.push({ case: '1:1 exact reference', bank: [referencedPayment(entry, customer, cents, 'exact')], ledger: [entry] });
      return 1;
    },
    '1:1 reference in text': () => {
      const customer = pick(customers);
      const cents = amountCents(20, 20_000);
      const entry = invoice(customer, invoiceDay(), cents);
      groups.push({ case: '1:1 reference in text', bank: [referencedPayment(entry, customer, cents, chance(0.03) ? 'mangled' : 'text')], ledger: [entry] });
      return 1;
    },
    '1:1 bank fee': () => {
      const customer = pick(customers);
      const cents = amountCents(20, 20_000);
      const entry = invoice(customer, invoiceDay(), cents);
      const fee = pick(TRUTH_LIMITS.feeCents);
      groups.push({
        case: '1:1 bank fee',
        bank: [referencedPayment(entry, customer, cents - fee, chance(0.5) ? 'exact' : 'text', pick([' CHARGES SHA', ' FEE DEDUCTED', '']))],
        ledger: [entry],
      });
      return 1;
    },
    '1:1 FX': () => {
      const customer = pick(customers);
      const usdCents = amountCents(20, 20_000);
      const bookingRate = 1.05 + next() * 0.07;
      const drift = (0.05 + next() * (TRUTH_LIMITS.fxDriftPercent - 0.05)) / 100;
      const paymentRate = bookingRate * (chance(0.5) ? 1 + drift : 1 - drift);
      const ledgerCents = Math.round(usdCents / bookingRate);
      const bankCents = Math.round(usdCents / paymentRate);
      const usd = `USD ${centsToDecimal(usdCents)}`;
      const entry = invoice(customer, invoiceDay(), ledgerCents, ` ${usd} @ ${bookingRate.toFixed(4)}`);
      groups.push({
        case: '1:1 FX',
        bank: [referencedPayment(entry, customer, bankCents, chance(0.5) ? 'exact' : 'text', ` ${usd} FX ${paymentRate.toFixed(4)}`)],
        ledger: [entry],
      });
      return 1;
    },
    '1:1 customer and amount': () => {
      const customer = pick(customers);
      const cents = amountCents(20, 20_000);
      const entry = invoice(customer, invoiceDay(), cents);
      const payment = addBank({
        timestamp: entry.timestamp + paymentDelay(),
        description: bankText(customer, pick(NO_REFERENCE_WORDS), true),
        reference: endToEnd(),
        cents,
        currency: 'EUR',
      });
      groups.push({ case: '1:1 customer and amount', bank: [payment], ledger: [entry] });
      return 1;
    },
    '1:N deposit': () => {
      const customer = pick(customers);
      const size = integer(depositSize.min, depositSize.max);
      const paidOn = invoiceDay() + TRUTH_LIMITS.paymentDelayDays.max * DAY_MS;
      const entries = Array.from({ length: size }, () => invoice(customer, paidOn - paymentDelay(), amountCents(20, 5_000)));
      const total = entries.reduce((sum, entry) => sum + entry.cents, 0);
      const listed =
        size > 1 && chance(0.5)
          ? entries.map((entry) => entry.reference).join(' ')
          : pick(['COLLECTIVE PAYMENT', 'SAMMELZAHLUNG', `${size} INVOICES`, 'PAYMENT']);
      const deposit = addBank({ timestamp: paidOn, description: bankText(customer, listed, true), reference: endToEnd(), cents: total, currency: 'EUR' });
      groups.push({ case: '1:N deposit', bank: [deposit], ledger: entries });
      return size;
    },
    'N:1 instalments': () => {
      const customer = pick(customers);
      const cents = amountCents(500, 30_000);
      const entry = invoice(customer, invoiceDay(), cents);
      const count = integer(TRUTH_LIMITS.instalments.min, TRUTH_LIMITS.instalments.max);
      const part = Math.floor(cents / count);
      const firstPaid = entry.timestamp + paymentDelay();
      const payments = Array.from({ length: count }, (_, index) => {
        const share = index === count - 1 ? cents - part * (count - 1) : part;
        const payment = referencedPayment(
          entry,
          customer,
          share,
          'text',
          ` ${pick(['INSTALMENT', 'RATE', 'TEILZAHLUNG'])} ${index + 1}/${count}`,
          firstPaid + index * TRUTH_LIMITS.instalmentIntervalDays * DAY_MS,
        );
        if (chance(0.5)) payment.reference = entry.reference;
        return payment;
      });
      groups.push({ case: 'N:1 instalments', bank: payments, ledger: [entry] });
      return 1;
    },
    decoy: () => {
      // A true pair, and beside it an invoice and a bank line of the same amount on the same days.
      const customer = pick(customers);
      let other = pick(customers);
      while (other === customer) other = pick(customers);
      const cents = amountCents(20, 20_000);
      const entry = invoice(customer, invoiceDay(), cents);
      const style = chance(0.5) ? 'exact' : 'text';
      const payment = referencedPayment(entry, customer, cents, style);
      groups.push({ case: style === 'exact' ? '1:1 exact reference' : '1:1 reference in text', bank: [payment], ledger: [entry] });
      const decoyInvoice = invoice(customer, entry.timestamp, cents);
      const phantom = String((phantomNumber += integer(1, 3)));
      const decoyPayment = addBank({
        timestamp: payment.timestamp,
        description: bankText(other, invoiceToken(phantom), true),
        reference: style === 'exact' ? `INV-${phantom}` : endToEnd(),
        cents,
        currency: 'EUR',
      });
      ambiguous.push({ case: 'decoy', bank: [decoyPayment], ledger: [decoyInvoice] });
      return 2;
    },
    'two invoices': () => {
      const customer = pick(customers);
      const cents = amountCents(20, 20_000);
      const first = invoice(customer, invoiceDay(), cents);
      const second = invoice(customer, first.timestamp, cents);
      const payment = addBank({
        timestamp: first.timestamp + paymentDelay(),
        description: bankText(customer, pick(NO_REFERENCE_WORDS), true),
        reference: endToEnd(),
        cents,
        currency: 'EUR',
      });
      ambiguous.push({ case: 'two invoices', bank: [payment], ledger: [first, second] });
      return 2;
    },
    'two payments': () => {
      const customer = pick(customers);
      const cents = amountCents(20, 20_000);
      const entry = invoice(customer, invoiceDay(), cents);
      const paidOn = entry.timestamp + paymentDelay();
      const payments = [0, 1].map(() =>
        addBank({ timestamp: paidOn, description: bankText(customer, pick(NO_REFERENCE_WORDS), true), reference: endToEnd(), cents, currency: 'EUR' }),
      );
      ambiguous.push({ case: 'two payments', bank: payments, ledger: [entry] });
      return 1;
    },
    unpaid: () => {
      unmatchedLedger.push(invoice(pick(customers), invoiceDay(), amountCents(20, 20_000)));
      return 1;
    },
  };

  // Cases are drawn with probabilities that give each its share of the invoices.
  const invoicesPerCase = (key: MixKey) =>
    key === '1:N deposit' ? (depositSize.min + depositSize.max) / 2 : key === 'decoy' || key === 'two invoices' ? 2 : 1;
  const keys = (Object.keys(mix) as MixKey[]).filter((key) => mix[key] > 0);
  if (keys.length === 0) throw new Error('the mix names no case');
  const weights = keys.map((key) => mix[key] / invoicesPerCase(key));
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
  let invoices = 0;
  while (invoices < options.invoices) {
    let draw = next() * totalWeight;
    let index = 0;
    while (index < keys.length - 1 && draw >= weights[index]!) draw -= weights[index++]!;
    invoices += generators[keys[index]!]();
  }

  // Bank lines with no counterpart: fees, card payments, salaries, interest, refunds.
  const noise = Math.round(options.invoices * (options.bankNoise ?? 0.05));
  for (let index = 0; index < noise; index++) {
    const kind = integer(0, 4);
    const timestamp = TRUTH_START_MS + integer(0, days + TRUTH_LIMITS.paymentDelayDays.max) * DAY_MS;
    const [description, cents] =
      kind === 0
        ? ['ACCOUNT MAINTENANCE FEE', -pick([500, 990, 1250, 2500])]
        : kind === 1
          ? [`CARD ${integer(1000, 9999)} ${pick(['AMAZON MKTPLACE', 'SHELL 4711', 'LUFTHANSA', 'OFFICE DEPOT', 'HOTEL IBIS'])}`, -amountCents(5, 2_000)]
          : kind === 2
            ? [`SALARY ${pick(['JAN', 'FEB', 'MAR'])} EMPLOYEE ${integer(100, 999)}`, -amountCents(1_500, 6_000)]
            : kind === 3
              ? ['INTEREST CREDIT', amountCents(1, 50)]
              : [`REFUND ${pick(['AMAZON MKTPLACE', 'LUFTHANSA', 'HOTEL IBIS'])} ${bankId(8)}`, amountCents(5, 800)];
    unmatchedBank.push(addBank({ timestamp, description: description as string, reference: null, cents: cents as number, currency: 'EUR' }));
  }

  // External ids follow the order of the statement and of the ledger (by date), as in real data.
  const order = (left: Draft, right: Draft) => left.timestamp - right.timestamp;
  bank.sort(order).forEach((draft, index) => (draft.externalId = `BNK-${String(index + 1).padStart(7, '0')}`));
  ledger.sort(order).forEach((draft, index) => (draft.externalId = `GL-${String(index + 1).padStart(7, '0')}`));
  const ids = (drafts: Draft[]) => drafts.map((draft) => draft.externalId!);
  const record = (draft: Draft): IngestRecord => ({
    externalId: draft.externalId!,
    timestamp: draft.timestamp,
    description: draft.description,
    reference: draft.reference,
    amount: centsToDecimal(draft.cents),
    currency: draft.currency,
  });
  return {
    seed: options.seed,
    bank: bank.map(record),
    ledger: ledger.map(record),
    groups: groups.map((group) => ({ case: group.case, originExternalIds: ids(group.bank), targetExternalIds: ids(group.ledger) })),
    ambiguous: ambiguous.map((item) => ({ case: item.case, originExternalIds: ids(item.bank), targetExternalIds: ids(item.ledger) })),
    unmatched: { originExternalIds: ids(unmatchedBank), targetExternalIds: ids(unmatchedLedger) },
    coincidentalFits: 0,
    coincidences: [],
  };
}

// ---------------------------------------------------------------------------------------------
// Self-checks
// ---------------------------------------------------------------------------------------------

const REFERENCE_CASES: ReadonlySet<TrueCase> = new Set(['1:1 exact reference', '1:1 reference in text', '1:1 bank fee', '1:1 FX', 'N:1 instalments']);

/** The invoice number a bank line's reference evidence points at (exact reference, or extracted from the text). */
function referencedNumber(line: IngestRecord): string | null {
  if (line.reference !== null && /^(INV|BILL)-\d+$/.test(line.reference)) return normalizeNumber(line.reference);
  return extractNumber(PATTERNS.invoiceNumber, line.description);
}

/**
 * Checks a truth set against what it promises: ids unique, every transaction in at most one
 * group or ambiguous case, each group's sums within its case's tolerance and its dates within the
 * case's range. With `coincidences`, also that nothing else fits (see findCoincidences).
 * Answers the problems found (empty: consistent).
 */
export function checkTruthSet(set: TruthSet, options: { coincidences?: boolean } = {}): string[] {
  const problems: string[] = [];
  const bank = new Map(set.bank.map((line) => [line.externalId, line]));
  const ledger = new Map(set.ledger.map((entry) => [entry.externalId, entry]));
  if (bank.size !== set.bank.length) problems.push('bank external ids repeat');
  if (ledger.size !== set.ledger.length) problems.push('ledger external ids repeat');
  const claimed = new Set<string>();
  const claim = (side: string, id: string, where: string) => {
    const key = `${side}:${id}`;
    if (claimed.has(key)) problems.push(`${key} is in more than one group or case (${where})`);
    claimed.add(key);
    if (!(side === 'bank' ? bank : ledger).has(id)) problems.push(`${key} does not exist (${where})`);
  };
  for (const group of set.groups) {
    const where = `${group.case} ${group.originExternalIds.join('+')} / ${group.targetExternalIds.join('+')}`;
    group.originExternalIds.forEach((id) => claim('bank', id, where));
    group.targetExternalIds.forEach((id) => claim('ledger', id, where));
    const origins = group.originExternalIds.map((id) => bank.get(id)).filter((line) => line !== undefined);
    const targets = group.targetExternalIds.map((id) => ledger.get(id)).filter((entry) => entry !== undefined);
    if (origins.length === 0 || targets.length === 0) continue;
    const originCents = origins.reduce((sum, line) => sum + decimalToCents(line.amount), 0);
    const targetCents = targets.reduce((sum, entry) => sum + decimalToCents(entry.amount), 0);
    const difference = targetCents - originCents;
    const shape = `${origins.length}:${targets.length}`;
    switch (group.case) {
      case '1:1 bank fee':
        if (!TRUTH_LIMITS.feeCents.includes(difference)) problems.push(`${where}: the fee is ${difference} cents, not one of the bank's charges`);
        if (difference > decimalToCents(TRUTH_LIMITS.feeToleranceAbsolute)) problems.push(`${where}: the fee exceeds the tolerance`);
        break;
      case '1:1 FX': {
        const smaller = Math.min(Math.abs(originCents), Math.abs(targetCents));
        if (Math.abs(difference) * 100 > smaller * (TRUTH_LIMITS.fxDriftPercent + 0.05))
          problems.push(`${where}: the FX gap ${difference} cents exceeds ${TRUTH_LIMITS.fxDriftPercent} %`);
        if (Math.abs(difference) * 100 > smaller * Number(TRUTH_LIMITS.fxTolerancePercent)) problems.push(`${where}: the FX gap exceeds the tolerance`);
        break;
      }
      default:
        if (difference !== 0) problems.push(`${where}: the sides differ by ${difference} cents`);
    }
    const expectedShape =
      group.case === '1:N deposit'
        ? targets.length >= 1 && origins.length === 1
        : group.case === 'N:1 instalments'
          ? origins.length >= 2 && targets.length === 1
          : shape === '1:1';
    if (!expectedShape) problems.push(`${where}: a ${group.case} group of shape ${shape}`);
    const latestDelay =
      TRUTH_LIMITS.paymentDelayDays.max + (group.case === 'N:1 instalments' ? TRUTH_LIMITS.instalmentIntervalDays * (TRUTH_LIMITS.instalments.max - 1) : 0);
    for (const origin of origins) {
      for (const target of targets) {
        const delay = (origin.timestamp - target.timestamp) / DAY_MS;
        if (delay < TRUTH_LIMITS.paymentDelayDays.min || delay > latestDelay) problems.push(`${where}: paid ${delay} days after the invoice`);
        if (origin.currency !== target.currency) problems.push(`${where}: currencies differ`);
        if (Math.sign(decimalToCents(origin.amount)) !== Math.sign(decimalToCents(target.amount))) problems.push(`${where}: signs differ`);
      }
    }
  }
  for (const item of set.ambiguous) {
    const where = `${item.case} ${item.originExternalIds.join('+')} / ${item.targetExternalIds.join('+')}`;
    item.originExternalIds.forEach((id) => claim('bank', id, where));
    item.targetExternalIds.forEach((id) => claim('ledger', id, where));
    const amounts = new Set([...item.originExternalIds.map((id) => bank.get(id)?.amount), ...item.targetExternalIds.map((id) => ledger.get(id)?.amount)]);
    if (amounts.size !== 1) problems.push(`${where}: the amounts are not all the same`);
  }
  set.unmatched.originExternalIds.forEach((id) => claim('bank', id, 'unmatched'));
  set.unmatched.targetExternalIds.forEach((id) => claim('ledger', id, 'unmatched'));
  if (claimed.size !== bank.size + ledger.size) problems.push(`${bank.size + ledger.size - claimed.size} records are in no group, case or unmatched list`);
  if (options.coincidences) problems.push(...findCoincidences(set));
  return problems;
}

/**
 * Fits that nobody intended, against the evidence the bench's rules use:
 * - reference rules: a bank line whose reference points at an invoice that is not its own
 *   1:1 counterpart must not come within the fee or FX tolerance of it, and no set of bank lines
 *   pointing at one invoice may sum to it except its instalments;
 * - the customer rule (customer number, exact sum of at most five invoices, invoice 0 to 6 days
 *   before the payment, or a day after), over what the reference rules leave: a payment may
 *   only fit its own invoices, or the options of its ambiguous case.
 */
export function findCoincidences(set: TruthSet): string[] {
  const problems: string[] = [];
  const bankById = new Map(set.bank.map((line) => [line.externalId, line]));
  const ledgerById = new Map(set.ledger.map((entry) => [entry.externalId, entry]));
  const invoicesByNumber = new Map<string, IngestRecord>();
  for (const entry of set.ledger) if (entry.reference !== null) invoicesByNumber.set(normalizeNumber(entry.reference), entry);
  const bankGroup = new Map<string, TrueGroup>();
  const ledgerGroup = new Map<string, TrueGroup>();
  for (const group of set.groups) {
    group.originExternalIds.forEach((id) => bankGroup.set(id, group));
    group.targetExternalIds.forEach((id) => ledgerGroup.set(id, group));
  }

  // Reference evidence.
  const pointing = new Map<string, IngestRecord[]>();
  for (const line of set.bank) {
    const number = referencedNumber(line);
    const entry = number === null ? undefined : invoicesByNumber.get(number);
    if (!entry) continue;
    const list = pointing.get(entry.externalId);
    if (list) list.push(line);
    else pointing.set(entry.externalId, [line]);
    const group = bankGroup.get(line.externalId);
    const ownPair =
      group !== undefined && group.originExternalIds.length === 1 && group.targetExternalIds.length === 1 && group.targetExternalIds[0] === entry.externalId;
    if (ownPair) continue;
    const difference = Math.abs(decimalToCents(entry.amount) - decimalToCents(line.amount));
    if (
      difference <= decimalToCents(TRUTH_LIMITS.feeToleranceAbsolute) ||
      difference * 100 <= Math.abs(decimalToCents(entry.amount)) * Number(TRUTH_LIMITS.fxTolerancePercent)
    ) {
      problems.push(`bank ${line.externalId} points at ${entry.externalId} and comes within a tolerance of it`);
    }
  }
  for (const [entryId, lines] of pointing) {
    const entry = ledgerById.get(entryId)!;
    const group = ledgerGroup.get(entryId);
    const intended = group?.case === 'N:1 instalments' ? [...group.originExternalIds].sort().join('+') : null;
    for (const subset of subsetsSumming(lines, decimalToCents(entry.amount))) {
      const key = subset
        .map((line) => line.externalId)
        .sort()
        .join('+');
      const ownPair =
        subset.length === 1 && group !== undefined && group.targetExternalIds.length === 1 && group.originExternalIds[0] === subset[0]!.externalId;
      if (key !== intended && !ownPair) problems.push(`bank ${key} sums to ${entryId} by reference`);
    }
  }

  // What the reference rules leave open, for the customer rule.
  const closedBank = new Set<string>();
  const closedLedger = new Set<string>();
  for (const group of set.groups) {
    if (!REFERENCE_CASES.has(group.case)) continue;
    const number = normalizeNumber(ledgerById.get(group.targetExternalIds[0]!)?.reference ?? '');
    const lines = group.originExternalIds.map((id) => bankById.get(id)!);
    if (lines.every((line) => referencedNumber(line) === number)) {
      group.originExternalIds.forEach((id) => closedBank.add(id));
      group.targetExternalIds.forEach((id) => closedLedger.add(id));
    }
  }
  const expected = new Map<string, Set<string>>();
  for (const group of set.groups) {
    if (group.originExternalIds.every((id) => closedBank.has(id))) continue;
    for (const id of group.originExternalIds) expected.set(id, new Set([[...group.targetExternalIds].sort().join('+')]));
  }
  for (const item of set.ambiguous) {
    if (item.case === 'decoy') continue;
    for (const id of item.originExternalIds) expected.set(id, new Set(item.case === 'two invoices' ? item.targetExternalIds : [item.targetExternalIds[0]!]));
  }
  const openInvoices = new Map<string, IngestRecord[]>();
  for (const entry of set.ledger) {
    if (closedLedger.has(entry.externalId)) continue;
    const customer = extractNumber(PATTERNS.customerNumber, entry.description);
    if (customer === null) continue;
    const list = openInvoices.get(customer);
    if (list) list.push(entry);
    else openInvoices.set(customer, [entry]);
  }
  for (const line of set.bank) {
    if (closedBank.has(line.externalId)) continue;
    const customer = extractNumber(PATTERNS.customerNumber, line.description);
    if (customer === null) continue;
    const candidates = (openInvoices.get(customer) ?? []).filter((entry) => {
      const gap = entry.timestamp - line.timestamp;
      return gap >= -6 * DAY_MS && gap <= DAY_MS && Math.sign(decimalToCents(entry.amount)) === Math.sign(decimalToCents(line.amount));
    });
    const fits = new Set(
      subsetsSumming(candidates, decimalToCents(line.amount)).map((subset) =>
        subset
          .map((entry) => entry.externalId)
          .sort()
          .join('+'),
      ),
    );
    const wanted = expected.get(line.externalId) ?? new Set<string>();
    for (const fit of fits) if (!wanted.has(fit)) problems.push(`bank ${line.externalId} (customer ${customer}) also fits ${fit}`);
    for (const want of wanted) if (!fits.has(want)) problems.push(`bank ${line.externalId} does not fit its own ${want} on the customer evidence`);
  }
  return problems;
}

/** Every subset of at most maxGroupSize items whose amounts sum to `cents` (items are few: a customer's invoices in a week). */
function subsetsSumming<T extends { amount: string }>(items: readonly T[], cents: number): T[][] {
  const found: T[][] = [];
  const values = items.map((item) => decimalToCents(item.amount));
  const limit = TRUTH_LIMITS.maxGroupSize;
  if (items.length > 40) throw new Error(`too many candidates (${items.length}) for an exhaustive check`);
  const walk = (start: number, chosen: number[], sum: number) => {
    if (chosen.length > 0 && sum === cents) found.push(chosen.map((index) => items[index]!));
    if (chosen.length === limit) return;
    for (let index = start; index < items.length; index++) walk(index + 1, [...chosen, index], sum + values[index]!);
  };
  walk(0, [], 0);
  return found;
}

/** How many true groups and ambiguous cases of each kind a set holds (for logs). */
export function describeTruthSet(set: TruthSet): string {
  const counts = new Map<string, number>();
  for (const group of set.groups) counts.set(group.case, (counts.get(group.case) ?? 0) + 1);
  for (const item of set.ambiguous) counts.set(item.case, (counts.get(item.case) ?? 0) + 1);
  return (
    `${set.bank.length} bank lines, ${set.ledger.length} ledger entries (seed ${set.seed}); ` +
    [...counts].map(([name, count]) => `${name}: ${count}`).join(', ') +
    `; no counterpart: ${set.unmatched.originExternalIds.length} bank, ${set.unmatched.targetExternalIds.length} ledger` +
    (set.coincidentalFits > 0 ? `; ${set.coincidentalFits} coincidental fits` : '')
  );
}
