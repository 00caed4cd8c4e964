import { Type } from '@sinclair/typebox';
import { COLUMN_TYPES, CUSTOM_COLUMNS_LIMIT } from '../../domain/catalog/columns.ts';
import { NAME_MAX_LENGTH } from '../../domain/catalog/datasets.ts';
import { INGEST_RECORDS_LIMIT } from '../../domain/transactions/ingest.ts';
import { RECONCILIATION_STATUSES } from '../../domain/transactions/status.ts';
import { Uuid } from './common.ts';

const NullableString = (options: Parameters<typeof Type.String>[0] = {}) => Type.Union([Type.String(options), Type.Null()]);

export const ColumnTypeSchema = Type.Union(
  COLUMN_TYPES.map((type) => Type.Literal(type)),
  { description: 'string, number, money (an exact decimal, sent as a string), date (epoch milliseconds) or boolean.' },
);

export const DatasetSchema = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    revision: Type.Integer({ description: "Grows with every change of the dataset's transactions or of their reconciliation status." }),
    status: Type.String({
      description: '"active", or "archived": hidden from GET /sources unless includeArchived=true, its transactions and matches kept as they are.',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    lastUpdatedBy: NullableString({ description: "Who last changed the dataset's transactions." }),
    lastUpdatedAt: Type.String({ format: 'date-time' }),
    lastReceived: NullableString({ format: 'date-time', description: 'When records were last received.' }),
    latestTimestamp: Type.Union([Type.Integer(), Type.Null()], { description: 'The latest transaction timestamp received, epoch milliseconds.' }),
    failures: Type.Integer(),
    lastFile: NullableString(),
    sourceId: Uuid,
    accountId: NullableString({
      description:
        "The bank account whose statements the dataset holds (an IBAN without spaces, or the bank's account number). Set by the first statement import when empty; a statement of another account is refused unless the import allows it.",
    }),
    currency: NullableString({ description: 'The currency of the account, ISO 4217 (e.g. "EUR"). Set by the first statement import when empty.' }),
    columns: Type.Array(
      Type.Object({ name: Type.String(), type: ColumnTypeSchema, standard: Type.Boolean({ description: 'Whether every dataset has this column.' }) }),
      { description: 'Every column of the dataset: the standard ones, then the custom ones.' },
    ),
    transactionCount: Type.Integer(),
    statusCounts: Type.Object(Object.fromEntries(RECONCILIATION_STATUSES.map((status) => [status, Type.Integer()])), {
      description: 'Transactions per reconciliation status.',
    }),
  },
  { description: 'A dataset: the published fields, then source, columns and counts.' },
);

export const SourceSchema = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    datasets: Type.Array(DatasetSchema),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { description: 'A source (a bank, a PSP, an ERP...) and its datasets.' },
);

export const CreateSourceBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH, description: 'The source\'s name, e.g. "Bank of Example".' }) },
  { additionalProperties: false },
);

export const CreateDatasetBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH }),
    columns: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({
              minLength: 1,
              maxLength: 64,
              description:
                'Starts with a letter; letters, digits and underscores. Unique without regard to case; the standard columns, externalId and the fields of the transaction record are reserved.',
            }),
            type: ColumnTypeSchema,
          },
          { additionalProperties: false },
        ),
        {
          maxItems: CUSTOM_COLUMNS_LIMIT,
          default: [],
          description: `Custom columns beyond the standard ones (timestamp, description, type, reference, currency, amount); at most ${CUSTOM_COLUMNS_LIMIT}.`,
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export const IngestBody = Type.Object(
  {
    records: Type.Array(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            'A flat object keyed by column name: timestamp (required; epoch milliseconds), description, type, reference, currency, amount (a decimal string such as "-1250.00"), the custom columns, and optionally externalId, the record\'s id in the sending system.',
        },
      ),
      { maxItems: INGEST_RECORDS_LIMIT, description: `At most ${INGEST_RECORDS_LIMIT} records, stored all or nothing.` },
    ),
  },
  { additionalProperties: false },
);

export const IngestResultSchema = Type.Object({
  inserted: Type.Integer({ description: 'Records stored by this request.' }),
  duplicates: Type.Integer({ description: 'Records skipped because their externalId was already in the dataset or earlier in the batch.' }),
});

export const ListSourcesQuery = Type.Object(
  {
    includeArchived: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'Also list archived datasets (default false).' })),
  },
  { additionalProperties: false },
);

export const RenameSourceBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH, description: "The source's new name." }) },
  { additionalProperties: false },
);

export const UpdateDatasetBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH, description: "The dataset's new name." })),
    archived: Type.Optional(
      Type.Boolean({
        description:
          'true archives the dataset: it is hidden from GET /sources unless includeArchived=true, and keeps its transactions, matches and imports; false restores it.',
      }),
    ),
    accountId: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
        description:
          "The bank account whose statements the dataset holds: an IBAN (spaces are removed) or the bank's account number; null clears it, and the next statement import sets it.",
      }),
    ),
    currency: Type.Optional(
      Type.Union([Type.String({ minLength: 3, maxLength: 3 }), Type.Null()], { description: 'ISO 4217 code in capitals, e.g. "EUR"; null clears it.' }),
    ),
  },
  { additionalProperties: false },
);

export const SourceParams = Type.Object({ orgId: Uuid, sourceId: Uuid });
export const DatasetParams = Type.Object({ orgId: Uuid, datasetId: Uuid });
