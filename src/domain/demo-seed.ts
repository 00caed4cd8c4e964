import { randomUUID } from 'node:crypto';
import type { WriteContext } from './audit.ts';
import type { Queryable } from '../db/database.ts';
import { countOrganizations, findBootstrapClient, insertUser, setUserPassword } from '../db/repositories/organizations.ts';
import { findSetting, setSetting } from '../db/repositories/settings.ts';
import { findActiveUsersByEmail } from '../db/repositories/users.ts';
import { findIdsByExternalId } from '../db/repositories/transactions.ts';
import { createOrganizationIn, prepareAdministratorPassword } from './organizations.ts';
import type { Services } from './services.ts';
import { bankExternalId } from './imports/entry-identity.ts';
import type { ImportRequest } from './imports/imports.ts';
import { fileFromBytes } from './imports/spooled-file.ts';
import type { ImportFormat } from './imports/statement-entries.ts';
import { addDecimals, DecimalSum, negateDecimal } from './money.ts';
import { computeStatement } from './close/statement.ts';

export interface DemoCredentials {
  orgId: string;
  email: string;
  password: string;
  clientId: string;
  clientSecret: string;
  bankDatasetId: string;
  ledgerDatasetId: string;
}

const DAY_MILLISECONDS = 86_400_000;
/** 1 October 2026, 09:00 UTC: the demo month. */
const MONTH_START_MILLISECONDS = Date.UTC(2026, 9, 1, 9, 0, 0);

const customers = [
  'Alder & Finch Ltd',
  'Brightwater GmbH',
  'Cobalt Logistics',
  'Dunmore Bakeries',
  'Elmstead Clinic',
  'Fairhaven Studio',
  'Glenrock Mining',
  'Harbourline BV',
  'Ironbridge Tools',
  'Juniper Foods',
  'Kestrel Aviation',
  'Lindqvist AB',
  'Marlow Textiles',
  'Northgate Pharmacy',
  'Oakridge Farms',
  'Pemberton Legal',
  'Quayside Hotels',
  'Redfern Analytics',
  'Saltmarsh Brewing',
  'Thornbury Press',
  'Upland Energy',
  'Vantage Print',
  'Westcott Dental',
  'Yarrow Design',
];

/** Invoice amounts in cents-exact decimal text, chosen by hand so the demo reads like a real month. */
const amounts = [
  '1250.00',
  '830.40',
  '4999.99',
  '312.75',
  '2100.00',
  '645.10',
  '7800.00',
  '155.25',
  '990.00',
  '2475.60',
  '12500.00',
  '2068.90',
  '3320.00',
  '540.00',
  '1875.35',
  '920.00',
  '1500.00',
  '1000.00',
  '2750.00',
  '415.80',
  '6100.00',
  '289.99',
  '1340.00',
  '777.77',
];

function day(index: number, hour = 0): number {
  return MONTH_START_MILLISECONDS + index * DAY_MILLISECONDS + hour * 3_600_000;
}

/**
 * The demo organization of a first start: a bank statement and a general-ledger cash account
 * for one month, the way a finance team would leave them mid-close. The first ten receipts and
 * a short payment (partial) were matched by hand; a bank fee is kept for information and an
 * internal transfer is out of scope. Three matching rules (docs/MATCHING.md) and one commit run
 * of them, queued with the seed and run by the job queue once the server starts, do the rest:
 * - "Invoice reference in bank text" matches nine receipts whose invoice number sits somewhere
 *   in the bank's text ("KESTREL AVIATION INV10410 OCT", "Invoice INV 10413 ...");
 * - "Amount with bank fee" matches a cross-border receipt that arrived 6.50 short of its
 *   invoice, and records the 6.50 as a fee adjustment (both sides full);
 * - "Deposit pays several invoices" finds the three invoices one deposit pays (1:N);
 * - one payment (Westcott Dental, 1340.00, no invoice number) fits two ledger lines equally:
 *   the run does not guess, it leaves a pending suggestion for a person to choose;
 * - a receipt nobody can explain yet and an unpaid invoice stay open.
 * The company also takes card payments through Stripe: the provider's settlement report (its
 * itemized payout reconciliation report, read with the Stripe preset) lists the charges, a refund
 * and the fees of two payouts, and "Stripe payouts" matches each payout's rows to its deposit on
 * the bank statement, grouped by payout id (the deposit carries it as its end-to-end reference).
 * The month-end close: "Operating account EUR ↔ Cash at bank 1200" reconciles the bank with the
 * ledger monthly, October at 0.00 once the run has matched, ready for the administrator to
 * prepare and the reviewer (a second user) to approve; it is not signed off here, as an approved
 * October would keep the queued run away from its transactions. November has begun, with a few
 * open rows, one of them assigned to the administrator with a due date and a comment.
 */
export async function seedDemoIntoEmptyStore(services: Services): Promise<DemoCredentials | null> {
  if ((await countOrganizations(services.database)) > 0) return null;
  return seedDemo(services);
}

/** Who the demo seed is, in createdBy fields and audit events. */
const DEMO_ACTOR = 'system:demo-seed';
/** The instance setting that remembers the demo organization and its datasets. */
const DEMO_SETTING = 'demo_organization';

interface DemoRecord {
  orgId: string;
  email: string;
  bankDatasetId: string;
  ledgerDatasetId: string;
}

/**
 * Working demo credentials again, for a person who lost the ones printed at the first start (a
 * failed first start, a closed terminal): the demo client's secrets are replaced by a new one
 * and the demo user gets a new password. A store without a demo gets one.
 */
export async function renewDemoCredentials(services: Services): Promise<{ demo: DemoCredentials; created: boolean }> {
  const stored = await findSetting(services.database, DEMO_SETTING);
  if (stored === undefined) return { demo: await seedDemo(services), created: true };
  const record = JSON.parse(stored) as DemoRecord;
  const password = await prepareAdministratorPassword();
  const demo = await services.database.transaction(async (transaction) => {
    const clientId = await findBootstrapClient(transaction, record.orgId, DEMO_ACTOR);
    let clientSecret: string;
    let currentClientId: string;
    if (clientId === undefined) {
      // The demo client was revoked: a new one takes its place.
      const created = await services.apiClients.create(transaction, {
        organizationId: record.orgId,
        name: 'Default API client',
        role: 'Administrator',
        createdBy: DEMO_ACTOR,
      });
      currentClientId = created.clientId;
      clientSecret = created.clientSecret;
    } else {
      currentClientId = clientId;
      clientSecret = (await services.apiClients.replaceSecrets(transaction, record.orgId, clientId)).clientSecret;
    }
    await setUserPassword(transaction, record.orgId, record.email, password.hash);
    return { ...record, password: password.password, clientId: currentClientId, clientSecret };
  });
  return { demo, created: false };
}

/** The reviewer who approves the demo's closed months: a second person, as four eyes require; nobody is told the password. */
const DEMO_REVIEWER_EMAIL = 'rowan.reviewer@demo.example';
/** The demo's reconciliation of its bank account with its ledger cash account. */
const DEMO_RECONCILIATION = 'Operating account EUR ↔ Cash at bank 1200';

async function seedDemo(services: Services): Promise<DemoCredentials> {
  // Hashing is slow by design: both passwords at once.
  const [administratorPassword, reviewerPassword] = await Promise.all([prepareAdministratorPassword(), prepareAdministratorPassword()]);
  // PostgreSQL compiles the rules' patterns before the seed's transaction (see Rules.checkPatterns).
  const patternVerdicts = await Promise.all(demoRules(PLACEHOLDER_ID, PLACEHOLDER_ID, PLACEHOLDER_ID).map((rule) => services.rules.checkPatterns(rule)));
  // One transaction: a crash part way leaves no half-seeded organization behind, and the next
  // start (which seeds only an empty store) seeds again.
  const demo = await services.database.transaction(async (transaction) => {
    const created = await createOrganizationIn(
      transaction,
      services.apiClients,
      { name: 'Demo Company', adminEmail: 'admin@demo.example', createdBy: DEMO_ACTOR },
      administratorPassword,
    );
    const context: WriteContext = { organizationId: created.orgId, actor: DEMO_ACTOR, requestId: null };

    const bankSource = await services.sources.create(transaction, context, { name: 'Northwind Bank' });
    // The bank dataset declares no columns: the statement's import adds the bank columns
    // (valueDate, counterpartyName, bankReference...) the first time it fills them.
    const bank = await services.datasets.create(transaction, context, { sourceId: bankSource.id, name: 'Operating account EUR', columns: [] });
    const ledgerSource = await services.sources.create(transaction, context, { name: 'General ledger' });
    const ledger = await services.datasets.create(transaction, context, {
      sourceId: ledgerSource.id,
      name: 'Cash at bank 1200',
      columns: [
        { name: 'account', type: 'string' },
        { name: 'documentNumber', type: 'string' },
      ],
    });

    // The payment provider's account: the report's import adds its columns (payoutId, gross, fee...).
    const providerSource = await services.sources.create(transaction, context, { name: 'Stripe' });
    const provider = await services.datasets.create(transaction, context, { sourceId: providerSource.id, name: 'Stripe balance EUR', columns: [] });

    // The two sides arrive the way they do in practice: the bank's end-of-day statement as a
    // camt.053 file, the ledger as a CSV export, both through the importer.
    const bankEntries = bankStatementEntries();
    const ledgerRows = ledgerEntries();
    await services.imports.importWithin(
      transaction,
      context,
      importRequest(bank.id, 'camt.053', 'northwind-2026-10.camt053.xml'),
      fileFromBytes(Buffer.from(camt053Statement(bankEntries))),
    );
    await services.imports.importWithin(
      transaction,
      context,
      importRequest(ledger.id, 'csv', 'gl-1200-2026-10.csv'),
      fileFromBytes(Buffer.from(ledgerCsv(ledgerRows))),
    );
    // The provider's report as Stripe's dashboard downloads it: recognised by its header, no mapping.
    await services.imports.importWithin(
      transaction,
      context,
      importRequest(provider.id, 'csv', 'stripe-payout-reconciliation-2026-10.csv'),
      fileFromBytes(Buffer.from(stripePayoutReport())),
    );
    const bankIds = await idsInOrder(
      transaction,
      created.orgId,
      bank.id,
      bankEntries.map((entry) => bankExternalId(DEMO_IBAN, entry.bankReference)),
    );
    const ledgerIds = await idsInOrder(
      transaction,
      created.orgId,
      ledger.id,
      ledgerRows.map((row) => row.externalId),
    );

    // The team matched the first ten days by hand, and the short payment: 980.00 of invoice
    // INV-10417's 1000.00, so the ledger side stays partial.
    for (const index of [...Array(10).keys(), 17]) {
      await services.matching.create(transaction, context, {
        links: [{ originId: bankIds[index]!, targetId: ledgerIds[index]! }],
        note: index === 17 ? 'paid 20.00 short; the customer was asked for the rest' : null,
        force: false,
      });
    }
    await services.transactionStatus.change(transaction, context, {
      transactionId: bankIds[24]!,
      status: 'informative',
      note: 'bank fee, booked in the fee account',
    });
    await services.transactionStatus.change(transaction, context, {
      transactionId: bankIds[25]!,
      status: 'out of scope',
      note: 'internal transfer, reconciled in the savings account',
    });

    // The month-end close: the bank account reconciled with the ledger's cash account, and a
    // reviewer besides the administrator, who signs off what the administrator prepares.
    await insertUser(transaction, {
      id: randomUUID(),
      organizationId: created.orgId,
      email: DEMO_REVIEWER_EMAIL,
      passwordHash: reviewerPassword.hash,
      role: 'Reviewer',
    });
    await seedReconciliation(services, transaction, context, { bankDatasetId: bank.id, ledgerDatasetId: ledger.id });
    // November, the month the team works in now, has begun: a few rows on each side wait for
    // their counterpart, and a card payment to a supplier is with the administrator until the
    // supplier's invoice arrives.
    await services.ingest(transaction, context, bank.id, NOVEMBER_BANK_ROWS);
    await services.ingest(transaction, context, ledger.id, NOVEMBER_LEDGER_ROWS);
    const [supplierPayment] = await idsInOrder(transaction, created.orgId, bank.id, [NOVEMBER_BANK_ROWS[0]!.externalId]);
    const administrator = (await findActiveUsersByEmail(transaction, created.user.email)).find((user) => user.organizationId === created.orgId)!;
    const administratorContext: WriteContext = { ...context, actor: `user:${created.user.email}` };
    await services.exceptions.update(transaction, administratorContext, {
      transactionId: supplierPayment!,
      assigneeUserId: administrator.id,
      // A due date is never set before today: a demo started after it takes today.
      dueDate: ['2026-12-04', services.exceptions.today()].sort().at(-1)!,
    });
    await services.exceptions.comment(transaction, administratorContext, { transactionId: supplierPayment!, body: "Waiting for the supplier's invoice" });

    // The rules, and one commit run of them. The run is a job: it starts once the server's job
    // queue does, so the first start shows rule-made matches and a suggestion without anyone
    // pressing a button.
    const rules = demoRules(bank.id, ledger.id, provider.id);
    for (const [index, rule] of rules.entries()) await services.rules.create(transaction, context, rule, patternVerdicts[index]);
    await services.runs.start(transaction, context, { mode: 'commit', ruleIds: null, datasetIds: null, fromMs: null, toMs: null });

    const record: DemoRecord = { orgId: created.orgId, email: created.user.email, bankDatasetId: bank.id, ledgerDatasetId: ledger.id };
    await setSetting(transaction, DEMO_SETTING, JSON.stringify(record));
    return {
      orgId: created.orgId,
      email: created.user.email,
      password: created.user.password,
      clientId: created.client.clientId,
      clientSecret: created.client.clientSecret,
      bankDatasetId: bank.id,
      ledgerDatasetId: ledger.id,
    };
  });
  // The run's job is committed now: a queue that already runs takes it at once.
  services.runs.wake();
  return demo;
}

/**
 * The reconciliation of the operating account with the ledger's cash account, monthly from
 * October 2026. The ledger's opening balance is the one that leaves October's unexplained
 * difference at 0.00 once the demo's run has matched what it matches: the statement is computed
 * as the data stands, and the Stripe deposits, which the run explains by the provider's report
 * rather than by ledger rows, are counted as explained.
 */
async function seedReconciliation(
  services: Services,
  transaction: Queryable,
  context: WriteContext,
  datasets: { bankDatasetId: string; ledgerDatasetId: string },
): Promise<void> {
  const created = await services.reconciliations.create(transaction, context, {
    name: DEMO_RECONCILIATION,
    currency: 'EUR',
    bankDatasetIds: [datasets.bankDatasetId],
    ledgerDatasetIds: [datasets.ledgerDatasetId],
    ledgerOpeningBalance: '0',
    ledgerOpeningDate: '2026-10-01',
    periodMonths: 1,
    adjustmentAccounts: { fee: '6810 Bank charges' },
    cashAccount: '1200 Cash at bank',
  });
  const reconciliation = await services.reconciliations.find(transaction, context.organizationId, created.id);
  const period = services.closeSignoff.periodOf(reconciliation, '2026-10-31');
  const statement = await computeStatement(transaction, context.organizationId, { reconciliation, period, computedAt: new Date().toISOString() });
  const stripeDeposits = new DecimalSum();
  for (const payout of STRIPE_PAYOUTS) stripeDeposits.add(payoutNet(payout));
  await services.reconciliations.update(transaction, context, created.id, {
    ledgerOpeningBalance: addDecimals(statement.unexplainedDifference, stripeDeposits.total),
  });
}

/** The first days of November on the bank's side, as the bank's online statement gives them: none in the ledger yet. */
const NOVEMBER_BANK_ROWS = [
  {
    externalId: 'NWB-2026-11-0001',
    timestamp: Date.UTC(2026, 10, 2, 11),
    description: 'Card payment Harwick Office Supplies',
    amount: '-1180.00',
    currency: 'EUR',
    counterpartyName: 'Harwick Office Supplies',
  },
  {
    externalId: 'NWB-2026-11-0002',
    timestamp: Date.UTC(2026, 10, 4, 11),
    description: 'SEPA credit Brightwater GmbH',
    amount: '615.00',
    currency: 'EUR',
    counterpartyName: 'Brightwater GmbH',
  },
];

/** A receipt the ledger booked in November that the bank has not shown yet. */
const NOVEMBER_LEDGER_ROWS = [
  {
    externalId: 'GL-1200-20101',
    timestamp: Date.UTC(2026, 10, 3),
    description: 'Receipt Alder & Finch Ltd invoice INV-10501',
    type: 'customer receipt',
    reference: 'INV-10501',
    amount: '2340.00',
    currency: 'EUR',
    account: '1200 Cash at bank',
    documentNumber: 'DOC-30101',
  },
];

/** Stands in for the dataset ids while the rules' patterns are checked (they do not depend on them). */
const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';

/**
 * The demo's rules, in the order they run. Each is written as a person would send it to
 * POST /rules; docs/MATCHING.md explains them.
 */
function demoRules(bankDatasetId: string, ledgerDatasetId: string, providerDatasetId: string): Record<string, unknown>[] {
  const sides = { origin: { datasetIds: [bankDatasetId] }, target: { datasetIds: [ledgerDatasetId] } };
  return [
    {
      name: 'Invoice reference in bank text',
      priority: 10,
      ...sides,
      cardinality: '1:1',
      conditions: [
        { type: 'amount', sign: 'same' },
        {
          type: 'equals',
          // "INV10410", "inv-10412", "INV 10413", "Inv.10419": wherever it stands in the bank's text.
          origin: { path: 'description', extract: '([Ii][Nn][Vv][ .-]?[0-9]{5})', normalize: ['alnum', 'casefold'] },
          target: { path: 'reference', normalize: ['alnum', 'casefold'] },
        },
        { type: 'date', path: 'timestamp', min: '-P5D', max: 'P5D' },
      ],
    },
    {
      name: 'Amount with bank fee',
      priority: 20,
      // Cross-border credit transfers (bank transaction code .../XBCT), where banks on the way deduct their charges.
      origin: { datasetIds: [bankDatasetId], audience: [{ path: 'bankTransactionCode', search: { type: 'string', value: 'XBCT' } }] },
      target: { datasetIds: [ledgerDatasetId] },
      cardinality: '1:1',
      conditions: [
        { type: 'amount', sign: 'same', tolerance: { absolute: '10.00' } },
        { type: 'date', path: 'timestamp', min: '-P5D', max: 'P5D' },
      ],
      adjustment: { reason: 'fee' },
    },
    {
      name: 'Deposit pays several invoices',
      priority: 30,
      ...sides,
      cardinality: '1:N',
      maxGroupSize: 5,
      conditions: [
        { type: 'amount', sign: 'same' },
        { type: 'date', path: 'timestamp', min: '-P3D', max: 'P3D' },
      ],
    },
    {
      // A Stripe deposit is every row of its payout in the settlement report: charges less refunds and fees.
      name: 'Stripe payouts',
      priority: 40,
      origin: { datasetIds: [bankDatasetId] },
      target: { datasetIds: [providerDatasetId] },
      cardinality: '1:N',
      groupBy: { origin: ['endToEndId'], target: ['payoutId'] },
      conditions: [{ type: 'amount', sign: 'same' }],
    },
  ];
}

/** The demo company's account at Northwind Bank. */
const DEMO_IBAN = 'DE89370400440532013000';
/** The account's balance before the demo month. */
const OPENING_BALANCE = '18450.00';

interface BankEntry {
  bankReference: string;
  bookedAtMilliseconds: number;
  valueDateMilliseconds: number;
  /** Signed: negative is money out. */
  amount: string;
  /** Domain/family/sub-family of the ISO 20022 bank transaction code. */
  code: [string, string, string];
  counterparty: string;
  endToEndId: string;
  remittance: string;
}

/**
 * How each customer's receipt reads on the statement, where it differs from the plain SEPA
 * credit that the receipts matched by hand show ("SEPA credit <customer> INV-<number>", the
 * invoice number also as the end-to-end reference). The other payers gave no end-to-end
 * reference (NOTPROVIDED): their invoice number, if any, is only in the text.
 */
const bankOverrides: Record<number, Partial<Pick<BankEntry, 'amount' | 'code' | 'endToEndId' | 'remittance'>>> = {
  10: { remittance: 'KESTREL AVIATION INV10410 OCT' },
  // Cross-border, 6.50 of charges deducted on the way: the "Amount with bank fee" rule.
  11: { amount: '2062.40', code: ['PMNT', 'RCDT', 'XBCT'], remittance: 'Lindqvist AB betalning oktober' },
  12: { remittance: 'Marlow Textiles payment inv-10412' },
  13: { remittance: 'Invoice INV 10413 Northgate Pharmacy' },
  14: { remittance: 'OAKRIDGE FARMS/INV-10414/THANK YOU' },
  15: { remittance: 'Pemberton Legal re inv 10415' },
  // One deposit for three invoices (700.00 + 500.00 + 300.00): the "Deposit pays several invoices" rule.
  16: { remittance: 'Quayside Hotels INV-10416, 10498, 10499' },
  // Paid short, matched by hand.
  17: { amount: '980.00' },
  18: { remittance: 'SALTMARSH BREWING INV-10418' },
  19: { remittance: 'Thornbury Press Inv.10419' },
  20: { remittance: 'Upland Energy payment ref inv 10420' },
  21: { remittance: 'VANTAGE PRINT INV-10421 OCTOBER' },
  // No invoice number, and two open ledger lines of 1340.00 on the same day: a suggestion.
  22: { remittance: 'Westcott Dental monthly service' },
  // Nobody knows yet what this is for: it stays open.
  23: { amount: '950.00', remittance: 'YARROW DESIGN DEPOSIT' },
};

function bankStatementEntries(): BankEntry[] {
  const entries: BankEntry[] = customers.map((customer, index) => {
    const override = bankOverrides[index] ?? {};
    const matchedByHand = index < 10 || index === 17;
    return {
      bankReference: `NWB-2026-10-${String(index + 1).padStart(4, '0')}`,
      bookedAtMilliseconds: day(index, 2),
      valueDateMilliseconds: day(index),
      amount: override.amount ?? amounts[index]!,
      code: override.code ?? ['PMNT', 'RCDT', 'ESCT'],
      counterparty: customer,
      endToEndId: override.endToEndId ?? (matchedByHand ? `INV-${10400 + index}` : 'NOTPROVIDED'),
      remittance: override.remittance ?? `SEPA credit ${customer} INV-${10400 + index}`,
    };
  });
  entries.push(
    {
      bankReference: 'NWB-2026-10-FEE',
      bookedAtMilliseconds: day(27, 1),
      valueDateMilliseconds: day(27),
      amount: '-12.50',
      code: ['ACMT', 'MDOP', 'CHRG'],
      counterparty: 'Northwind Bank',
      endToEndId: 'FEE-2026-10',
      remittance: 'Account maintenance fee October',
    },
    {
      bankReference: 'NWB-2026-10-TRF',
      bookedAtMilliseconds: day(28, 1),
      valueDateMilliseconds: day(28),
      amount: '-5000.00',
      code: ['PMNT', 'ICDT', 'ESCT'],
      counterparty: 'Demo Company savings',
      endToEndId: 'TRF-8841',
      remittance: 'Transfer to savings account',
    },
    // Stripe's two payouts, each with its payout id as the end-to-end reference.
    ...STRIPE_PAYOUTS.map((payout, index) => ({
      bankReference: `NWB-2026-10-STRIPE-${index + 1}`,
      bookedAtMilliseconds: day(payout.arrivalDay, 3),
      valueDateMilliseconds: day(payout.arrivalDay),
      amount: payoutNet(payout),
      code: ['PMNT', 'RCDT', 'ESCT'] as [string, string, string],
      counterparty: 'Stripe Payments Europe Ltd',
      endToEndId: payout.id,
      remittance: `STRIPE PAYOUT ${payout.id}`,
    })),
  );
  return entries;
}

interface StripeRow {
  id: string;
  day: number;
  hour: number;
  category: 'charge' | 'refund' | 'fee';
  gross: string;
  fee: string;
  source: string;
  description: string;
}

/**
 * Two Stripe payouts of card payments (1.4% + 0.25 a charge): the first with a refund and a
 * billing fee, the second of charges alone. Each arrives at the bank a few days after its charges.
 */
const STRIPE_PAYOUTS: { id: string; arrivalDay: number; rows: StripeRow[] }[] = [
  {
    id: 'po_1QDemoPayoutOct30A',
    arrivalDay: 29,
    rows: [
      {
        id: 'txn_1QDemoCharge0001',
        day: 25,
        hour: 9,
        category: 'charge',
        gross: '450.00',
        fee: '6.55',
        source: 'ch_3QDemoCharge0001',
        description: 'Web shop order 5101',
      },
      {
        id: 'txn_1QDemoCharge0002',
        day: 25,
        hour: 14,
        category: 'charge',
        gross: '1280.00',
        fee: '18.17',
        source: 'ch_3QDemoCharge0002',
        description: 'Web shop order 5102',
      },
      {
        id: 'txn_1QDemoCharge0003',
        day: 26,
        hour: 10,
        category: 'charge',
        gross: '89.90',
        fee: '1.51',
        source: 'ch_3QDemoCharge0003',
        description: 'Web shop order 5103',
      },
      {
        id: 'txn_1QDemoRefund0001',
        day: 26,
        hour: 16,
        category: 'refund',
        gross: '-89.90',
        fee: '0.00',
        source: 're_3QDemoRefund0001',
        description: 'REFUND FOR CHARGE (Web shop order 5103)',
      },
      {
        id: 'txn_1QDemoFee000001',
        day: 26,
        hour: 23,
        category: 'fee',
        gross: '-4.20',
        fee: '0.00',
        source: '',
        description: 'Billing - Usage Fee (2026-10-27)',
      },
    ],
  },
  {
    id: 'po_1QDemoPayoutOct31B',
    arrivalDay: 30,
    rows: [
      {
        id: 'txn_1QDemoCharge0004',
        day: 27,
        hour: 11,
        category: 'charge',
        gross: '320.00',
        fee: '4.73',
        source: 'ch_3QDemoCharge0004',
        description: 'Web shop order 5104',
      },
      {
        id: 'txn_1QDemoCharge0005',
        day: 27,
        hour: 18,
        category: 'charge',
        gross: '615.50',
        fee: '8.87',
        source: 'ch_3QDemoCharge0005',
        description: 'Web shop order 5105',
      },
    ],
  },
];

function rowNet(row: StripeRow): string {
  return addDecimals(row.gross, negateDecimal(row.fee));
}

function payoutNet(payout: (typeof STRIPE_PAYOUTS)[number]): string {
  const sum = new DecimalSum();
  for (const row of payout.rows) sum.add(rowNet(row));
  return sum.total;
}

/** Stripe's itemized payout reconciliation report (payout_reconciliation.itemized.5) of the two payouts, as its dashboard downloads it. */
function stripePayoutReport(): string {
  const stamp = (milliseconds: number) => new Date(milliseconds).toISOString().slice(0, 19).replace('T', ' ');
  const lines = STRIPE_PAYOUTS.flatMap((payout) =>
    payout.rows.map((row) =>
      [
        payout.id,
        stamp(day(payout.arrivalDay) - 9 * 3_600_000),
        row.id,
        stamp(day(row.day, row.hour)),
        'eur',
        row.gross,
        row.fee,
        rowNet(row),
        row.category,
        row.source,
        row.description,
      ].join(','),
    ),
  );
  return [
    'automatic_payout_id,automatic_payout_effective_at,balance_transaction_id,created_utc,currency,gross,fee,net,reporting_category,source_id,description',
    ...lines,
    '',
  ].join('\n');
}

function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function isoDate(milliseconds: number): string {
  return new Date(milliseconds).toISOString().slice(0, 10);
}

/** The month's statement as the bank sends it: ISO 20022 camt.053.001.08. */
function camt053Statement(entries: BankEntry[]): string {
  const sum = new DecimalSum();
  for (const entry of entries) sum.add(entry.amount);
  const closing = addDecimals(OPENING_BALANCE, sum.total);
  const balance = (code: string, amount: string, date: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${amount.replace('-', '')}</Amt>` +
    `<CdtDbtInd>${amount.startsWith('-') ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>${date}</Dt></Dt></Bal>`;
  const entryXml = (entry: BankEntry) => {
    const incoming = !entry.amount.startsWith('-');
    const party = `<${incoming ? 'Dbtr' : 'Cdtr'}><Pty><Nm>${xmlText(entry.counterparty)}</Nm></Pty></${incoming ? 'Dbtr' : 'Cdtr'}>`;
    return [
      `<Ntry><Amt Ccy="EUR">${entry.amount.replace('-', '')}</Amt><CdtDbtInd>${incoming ? 'CRDT' : 'DBIT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>`,
      `<BookgDt><DtTm>${new Date(entry.bookedAtMilliseconds).toISOString().replace('.000Z', 'Z')}</DtTm></BookgDt><ValDt><Dt>${isoDate(entry.valueDateMilliseconds)}</Dt></ValDt>`,
      `<AcctSvcrRef>${entry.bankReference}</AcctSvcrRef>`,
      `<BkTxCd><Domn><Cd>${entry.code[0]}</Cd><Fmly><Cd>${entry.code[1]}</Cd><SubFmlyCd>${entry.code[2]}</SubFmlyCd></Fmly></Domn></BkTxCd>`,
      `<NtryDtls><TxDtls><Refs><EndToEndId>${entry.endToEndId}</EndToEndId></Refs><RltdPties>${party}</RltdPties>`,
      `<RmtInf><Ustrd>${xmlText(entry.remittance)}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
    ].join('\n        ');
  };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">',
    '  <BkToCstmrStmt>',
    '    <GrpHdr><MsgId>NWB-STMT-2026-10</MsgId><CreDtTm>2026-10-31T22:00:00Z</CreDtTm></GrpHdr>',
    '    <Stmt>',
    '      <Id>NWB-2026-10</Id>',
    '      <CreDtTm>2026-10-31T22:00:00Z</CreDtTm>',
    `      <Acct><Id><IBAN>${DEMO_IBAN}</IBAN></Id><Ccy>EUR</Ccy><Ownr><Nm>Demo Company</Nm></Ownr></Acct>`,
    `      ${balance('OPBD', OPENING_BALANCE, '2026-09-30')}`,
    `      ${balance('CLBD', closing, '2026-10-31')}`,
    ...entries.map((entry) => `      ${entryXml(entry)}`),
    '    </Stmt>',
    '  </BkToCstmrStmt>',
    '</Document>',
    '',
  ].join('\n');
}

interface LedgerRow {
  externalId: string;
  timestampMilliseconds: number;
  description: string;
  type: string;
  reference: string;
  amount: string;
  documentNumber: string;
}

function ledgerEntries(): LedgerRow[] {
  const row = (index: number, invoice: number, amount: string): LedgerRow => ({
    externalId: `GL-1200-${20000 + invoice - 10400}`,
    timestampMilliseconds: day(index),
    description: `Receipt ${customers[index]} invoice INV-${invoice}`,
    type: 'customer receipt',
    reference: `INV-${invoice}`,
    amount,
    documentNumber: `DOC-${30000 + invoice - 10400}`,
  });
  const rows: LedgerRow[] = customers.map((_, index) => row(index, 10400 + index, index === 16 ? '700.00' : amounts[index]!));
  rows.push(
    // Westcott Dental's second invoice of the same amount, booked the same day: which one the
    // payment settles is for a person to say.
    row(22, 10497, '1340.00'),
    // The other two invoices the Quayside Hotels deposit pays.
    row(16, 10498, '500.00'),
    row(16, 10499, '300.00'),
  );
  return rows;
}

/** The ledger's export: a CSV whose header names the dataset's columns, so it needs no mapping. */
function ledgerCsv(rows: LedgerRow[]): string {
  const quoted = (text: string) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  const lines = rows.map((row) =>
    [
      row.externalId,
      new Date(row.timestampMilliseconds).toISOString(),
      row.description,
      row.type,
      row.reference,
      'EUR',
      row.amount,
      '1200 Cash at bank',
      row.documentNumber,
    ]
      .map(quoted)
      .join(','),
  );
  return ['externalId,timestamp,description,type,reference,currency,amount,account,documentNumber', ...lines, ''].join('\r\n');
}

function importRequest(datasetId: string, format: ImportFormat, fileName: string): ImportRequest {
  return { datasetId, format, encoding: null, fileName, mapping: null, mappingName: null };
}

/** The ids of the stored records, in the order of the given external ids. */
async function idsInOrder(transaction: Queryable, organizationId: string, datasetId: string, externalIds: string[]): Promise<string[]> {
  const ids = await findIdsByExternalId(transaction, organizationId, datasetId, externalIds);
  return externalIds.map((externalId) => {
    const id = ids.get(externalId);
    if (id === undefined) throw new Error(`the demo record ${externalId} was not imported`);
    return id;
  });
}
