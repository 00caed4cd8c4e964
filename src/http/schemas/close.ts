import { Type } from '@sinclair/typebox';
import { RECONCILIATIONS_PAGE_SIZE } from '../../domain/close/reconciliations.ts';
import { STATEMENT_ITEM_LINES, STATEMENT_ITEMS_PAGE_SIZE } from '../../domain/close/statement-items.ts';
import { IntegerLike, Uuid } from './common.ts';

/** Month-end close (SPEC §14): reconciliations, their statements and the sign-off of their periods. */

const NullableString = Type.Union([Type.String(), Type.Null()]);
const Money = Type.String({ description: 'A decimal amount as text, exact, e.g. "-1250.00"; money in positive.' });
const CalendarDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A calendar date, YYYY-MM-DD.' });

export const ReconciliationParams = Type.Object({ orgId: Uuid, reconciliationId: Uuid }, { additionalProperties: false });
export const PeriodParams = Type.Object(
  { orgId: Uuid, reconciliationId: Uuid, periodEnd: Type.String({ maxLength: 20, description: 'The last day of the period, YYYY-MM-DD.' }) },
  { additionalProperties: false },
);

const AdjustmentAccounts = Type.Object(
  {
    fee: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    fx: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    rounding: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    'write-off': Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false, description: 'The ledger account each adjustment reason posts to, e.g. {"fee": "6500"}.' },
);

const DatasetIds = (side: string) =>
  Type.Array(Uuid, { minItems: 1, maxItems: 50, description: `The ${side} datasets; each belongs to this reconciliation only, on this side only.` });

const reconciliationFields = {
  name: Type.String({ minLength: 1, maxLength: 200, description: 'E.g. "Operating account EUR ↔ GL 1200"; unique in the organization.' }),
  currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code; every dataset that declares a currency must declare this one.' }),
  bankDatasetIds: DatasetIds('bank'),
  ledgerDatasetIds: DatasetIds('ledger'),
  ledgerOpeningBalance: Type.Union([Type.String(), Type.Number()], {
    description: "The ledger's balance at the start of ledgerOpeningDate, a decimal (preferably as a string). 0 by default.",
  }),
  ledgerOpeningDate: Type.String({
    maxLength: 20,
    description: 'The date of the opening balance, YYYY-MM-DD; ledger rows on and after it add to it. The first period begins with its month.',
  }),
  periodMonths: Type.Integer({ minimum: 1, maximum: 12, description: 'The length of a period in calendar months; 1 (a month) by default.' }),
  ruleIds: Type.Array(Uuid, { maxItems: 100, description: 'The rules that serve the reconciliation.' }),
  adjustmentAccounts: AdjustmentAccounts,
  cashAccount: Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
    description:
      'The bank\'s own account in the ledger (e.g. "1200"), which the journal entries of adjustments are posted against; null for none. Not set by default.',
  }),
};

export const CreateReconciliationBody = Type.Object(
  {
    name: reconciliationFields.name,
    currency: reconciliationFields.currency,
    bankDatasetIds: reconciliationFields.bankDatasetIds,
    ledgerDatasetIds: reconciliationFields.ledgerDatasetIds,
    ledgerOpeningBalance: Type.Optional(reconciliationFields.ledgerOpeningBalance),
    ledgerOpeningDate: reconciliationFields.ledgerOpeningDate,
    periodMonths: Type.Optional(reconciliationFields.periodMonths),
    ruleIds: Type.Optional(reconciliationFields.ruleIds),
    adjustmentAccounts: Type.Optional(reconciliationFields.adjustmentAccounts),
    cashAccount: Type.Optional(reconciliationFields.cashAccount),
  },
  { additionalProperties: false },
);

export const UpdateReconciliationBody = Type.Object(
  {
    ...Object.fromEntries(Object.entries(reconciliationFields).map(([name, schema]) => [name, Type.Optional(schema)])),
    archived: Type.Optional(Type.Boolean({ description: 'true archives the reconciliation (its periods and sign-offs stay); false restores it.' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const ReconciliationSchema = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    currency: Type.String(),
    bankDatasetIds: Type.Array(Uuid),
    ledgerDatasetIds: Type.Array(Uuid),
    ledgerOpeningBalance: Money,
    ledgerOpeningDate: CalendarDate,
    periodMonths: Type.Integer(),
    ruleIds: Type.Array(Uuid),
    adjustmentAccounts: AdjustmentAccounts,
    cashAccount: Type.Union([Type.String(), Type.Null()]),
    archived: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Type.String(),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const ReconciliationsQuery = Type.Object(
  {
    limit: Type.Optional(
      IntegerLike({
        minimum: 1,
        maximum: RECONCILIATIONS_PAGE_SIZE.maximumEntries,
        description: `Reconciliations per page; ${RECONCILIATIONS_PAGE_SIZE.defaultEntries} by default.`,
      }),
    ),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    includeArchived: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true lists archived reconciliations too.' })),
  },
  { additionalProperties: false },
);

export const ReconciliationPageSchema = Type.Object(
  { reconciliations: Type.Array(ReconciliationSchema), nextCursor: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);

export const StatementQuery = Type.Object(
  { periodEnd: Type.String({ maxLength: 20, description: 'The last day of the period, YYYY-MM-DD.' }) },
  { additionalProperties: false },
);

const StatementItemSchema = Type.Object(
  {
    transactionId: Uuid,
    datasetName: Type.String(),
    date: CalendarDate,
    description: NullableString,
    reference: NullableString,
    amount: Money,
    countedAmount: Type.String({ description: 'What the line counts: the whole amount when open, the open remainder when partly matched.' }),
    reason: Type.Union([Type.Literal('open'), Type.Literal('partial'), Type.Literal('matched-after-period-end')]),
  },
  { additionalProperties: false },
);

const StatementLineSchema = Type.Object({ total: Money, items: Type.Array(StatementItemSchema) }, { additionalProperties: false });

export const StatementItemsQuery = Type.Object(
  {
    periodEnd: Type.String({ maxLength: 20, description: 'The last day of the period, YYYY-MM-DD.' }),
    line: Type.Union(
      STATEMENT_ITEM_LINES.map((line) => Type.Literal(line)),
      {
        description:
          "The statement's line: deposits-in-transit and outstanding-payments (the ledger's items not yet in the bank, money in and out), " +
          "bank-receipts and bank-payments (the bank's items not yet in the ledger), informative and out-of-scope (the rows set apart).",
      },
    ),
    limit: Type.Optional(
      IntegerLike({
        minimum: 1,
        maximum: STATEMENT_ITEMS_PAGE_SIZE.maximumEntries,
        description: `Items per page; ${STATEMENT_ITEMS_PAGE_SIZE.defaultEntries} by default.`,
      }),
    ),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
  },
  { additionalProperties: false },
);

export const StatementItemsPageSchema = Type.Object(
  {
    items: Type.Array(StatementItemSchema),
    total: Type.Integer({ minimum: 0, description: 'How many items the line holds in all.' }),
    nextCursor: NullableString,
    hasMore: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const StatementSchema = Type.Object(
  {
    organizationName: Type.String(),
    reconciliation: Type.Object(
      { id: Uuid, name: Type.String(), currency: Type.String(), bankDatasetNames: Type.Array(Type.String()), ledgerDatasetNames: Type.Array(Type.String()) },
      { additionalProperties: false },
    ),
    periodStart: CalendarDate,
    periodEnd: CalendarDate,
    bankBalance: Type.Object(
      {
        amount: Money,
        source: Type.Union([Type.Literal('statement'), Type.Literal('computed')], {
          description:
            "statement: the last imported statement's closing balance on or before the period end (plus later rows); computed: no statement, so the sum of the entries.",
        }),
        statementDate: Type.Union([CalendarDate, Type.Null()]),
      },
      { additionalProperties: false },
    ),
    ledgerNotInBank: StatementLineSchema,
    bankNotInLedger: StatementLineSchema,
    adjustedBankBalance: Money,
    adjustments: Type.Object(
      {
        total: Money,
        items: Type.Array(
          Type.Object(
            {
              reason: Type.Union([Type.Literal('fee'), Type.Literal('fx'), Type.Literal('rounding'), Type.Literal('write-off')]),
              amount: Type.String({ description: 'Bank minus ledger: a fee the bank took is negative.' }),
              date: CalendarDate,
              description: Type.String(),
              bankReference: NullableString,
              matchGroupId: Uuid,
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    ledgerBalance: Type.Object({ amount: Money, openingBalance: Money, openingDate: CalendarDate }, { additionalProperties: false }),
    unexplainedDifference: Type.String({ description: 'adjustedBankBalance − adjustments.total − ledgerBalance.amount; 0.00 to sign off.' }),
    setApart: Type.Object({ informative: Type.Array(StatementItemSchema), outOfScope: Type.Array(StatementItemSchema) }, { additionalProperties: false }),
    signOff: Type.Object(
      {
        state: Type.Union([Type.Literal('open'), Type.Literal('prepared'), Type.Literal('approved')]),
        preparedBy: NullableString,
        preparedAt: NullableString,
        preparerNote: NullableString,
        approvedBy: NullableString,
        approvedAt: NullableString,
      },
      { additionalProperties: false },
    ),
    computedAt: Type.String({ format: 'date-time', description: 'When the statement was computed; for a signed period, when it was prepared.' }),
  },
  { additionalProperties: false },
);

export const PeriodSchema = Type.Object(
  {
    periodStart: CalendarDate,
    periodEnd: CalendarDate,
    state: Type.Union([Type.Literal('open'), Type.Literal('prepared'), Type.Literal('approved')]),
    unexplainedDifference: Type.Union([Type.String(), Type.Null()], {
      description:
        "For an open period, the difference as the data stands (computed for the latest 24 open periods; null beyond, or when the period cannot be stated); for a signed one, the stored statement's.",
    }),
    preparedBy: NullableString,
    preparedAt: NullableString,
    approvedBy: NullableString,
    approvedAt: NullableString,
    history: Type.Array(
      Type.Object(
        {
          step: Type.Union([Type.Literal('prepare'), Type.Literal('approve'), Type.Literal('reopen')]),
          by: Type.String(),
          at: Type.String({ format: 'date-time' }),
          note: NullableString,
        },
        { additionalProperties: false },
      ),
    ),
    openExceptions: Type.Integer({
      minimum: 0,
      description:
        'The open exceptions on or before the period end as the data stands now: items neither matched in full, nor set aside, nor resolved by a note ' +
        '(the exceptions queue of the period).',
    }),
  },
  { additionalProperties: false },
);

export const PeriodsSchema = Type.Object({ periods: Type.Array(PeriodSchema) }, { additionalProperties: false });

export const PrepareBody = Type.Object(
  { note: Type.String({ minLength: 1, maxLength: 2000, description: "The preparer's note, kept with the stored statement." }) },
  { additionalProperties: false },
);
export const ApproveBody = Type.Object({ note: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })) }, { additionalProperties: false });
export const ReopenBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 2000, description: 'Why the period is reopened; kept in the record and the audit trail.' }) },
  { additionalProperties: false },
);

const JournalEntrySchema = Type.Object(
  {
    journalNumber: Type.String({ description: "ADJ-<period end, YYYYMMDD>-<the entry's place, three digits>, as in the CSV." }),
    date: CalendarDate,
    debitAccount: Type.String(),
    creditAccount: Type.String(),
    amount: Type.String({ description: 'A positive decimal amount as text.' }),
    currency: Type.String(),
    memo: Type.String(),
    reason: Type.Union([Type.Literal('fee'), Type.Literal('fx'), Type.Literal('rounding'), Type.Literal('write-off')]),
    bankReference: NullableString,
    matchGroupId: Uuid,
  },
  { additionalProperties: false },
);

export const JournalEntriesSchema = Type.Object(
  {
    periodStart: CalendarDate,
    periodEnd: CalendarDate,
    state: Type.Union([Type.Literal('open'), Type.Literal('prepared'), Type.Literal('approved')]),
    entries: Type.Array(JournalEntrySchema),
  },
  { additionalProperties: false },
);
