import { Type } from '@sinclair/typebox';
import { IMPORT_FAILURE_REASONS } from '../../domain/imports/import-failure.ts';
import { IMPORT_FORMATS } from '../../domain/imports/statement-entries.ts';
import { IMPORTS_PAGE_SIZE } from '../../domain/imports/imports.ts';
import { NOTE_MAX_LENGTH } from '../../domain/audit.ts';
import { UNDO_MATCHED_LISTED } from '../../domain/imports/import-undo.ts';
import { IntegerLike, Uuid } from './common.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const DatasetImportParams = Type.Object({ orgId: Uuid, datasetId: Uuid }, { additionalProperties: false });
export const ImportParams = Type.Object({ orgId: Uuid, importId: Uuid }, { additionalProperties: false });
export const MappingParams = Type.Object(
  { orgId: Uuid, datasetId: Uuid, name: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

export const ImportQuery = Type.Object(
  {
    format: Type.Optional(Type.String({ enum: [...IMPORT_FORMATS], description: "The file's format; detected from its content when left out." })),
    fileName: Type.Optional(
      Type.String({ maxLength: 255, description: "The file's name, for the report and the dataset's lastFile (multipart uploads carry their own)." }),
    ),
    mapping: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'CSV: the name of a mapping saved on the dataset.' })),
    encoding: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 40,
        description:
          'For files that do not declare their encoding (MT940/942, BAI2, OFX 1.x with a wrong header, CSV without a mapping): a WHATWG label or cp437/cp850/cp852/cp775. ' +
          "Default: UTF-8 (a byte-order mark wins); a file that is not UTF-8 is read in the code page of its statement's country that fits its letters best " +
          '(Windows-1252 first for Western Europe), named in a warning.',
      }),
    ),
    allowOtherAccount: Type.Optional(
      Type.String({
        enum: ['true', 'false'],
        description:
          'A dataset holds the statements of one account (its accountId, taken from the first statement imported). A statement of another account is refused (409) unless this is "true".',
      }),
    ),
  },
  { additionalProperties: false },
);

const Balance = Type.Union([Type.Object({ amount: Type.String(), date: Nullable(Type.String()) }), Type.Null()]);

export const StatementReportSchema = Type.Object({
  accountId: Nullable(Type.String()),
  statementId: Nullable(Type.String()),
  currency: Nullable(Type.String()),
  openingBalance: Balance,
  closingBalance: Balance,
  entries: Type.Integer(),
  inserted: Type.Optional(
    Type.Integer({
      description: 'Entries of the statement stored as new transactions (absent in reports of imports made before it was counted per statement).',
    }),
  ),
  duplicates: Type.Optional(
    Type.Integer({
      description:
        'Entries of the statement the dataset already held, from an earlier file or an earlier statement of this one: entries = inserted + duplicates, always.',
    }),
  ),
  sumOfEntries: Type.String({ description: "The exact sum of the statement's entries, signed: money in positive." }),
  balanced: Type.Union([Type.Boolean(), Type.Null()], {
    description: 'Whether opening balance + sum of entries = closing balance; null when the file gives no opening or no closing balance.',
  }),
});

/** A failed import's error: one shape for every way an import fails (domain/imports/import-failure.ts). */
const ImportFailureSchema = Type.Object(
  {
    reason: Type.String({
      enum: [...IMPORT_FAILURE_REASONS],
      description:
        'file: the file does not follow its format (line, column, xmlPath say where); mapping: the CSV mapping does not fit; refused: the import cannot be done as asked; ' +
        'interrupted: the server stopped before the import ended; upload: the file did not arrive whole; internal: an error of the server. ' +
        'Nothing of a failed import is stored: send the file again once its cause is fixed.',
    }),
    message: Type.String({ description: 'What went wrong and what to do.' }),
    line: Type.Union([Type.Integer(), Type.Null()], { description: 'The line of the file at fault (reason "file").' }),
    column: Nullable(Type.String({ description: 'The CSV column at fault, by its header text (reason "file").' })),
    xmlPath: Nullable(Type.String({ description: 'The XML or OFX element at fault (reason "file").' })),
  },
  { additionalProperties: false },
);

export const ImportReportSchema = Type.Object(
  {
    id: Uuid,
    datasetId: Uuid,
    format: Nullable(Type.String()),
    fileName: Nullable(Type.String()),
    sha256: Nullable(Type.String()),
    sizeBytes: Type.Union([Type.Integer(), Type.Null()]),
    encoding: Nullable(Type.String()),
    status: Type.String({
      enum: ['running', 'completed', 'failed', 'undone'],
      description: '"undone": DELETE /imports/{id} removed the transactions it created; the report stays as it was.',
    }),
    createdAt: Type.String(),
    completedAt: Nullable(Type.String()),
    createdBy: Type.String(),
    rowsRead: Type.Integer({ description: 'Entries read so far; while running, the progress.' }),
    inserted: Type.Integer({ description: 'Entries new to the dataset, stored by this import.' }),
    duplicates: Type.Integer({ description: 'Entries the dataset already held (the same entry from this or an earlier file).' }),
    statements: Type.Array(StatementReportSchema),
    warnings: Type.Array(Type.Object({ line: Type.Union([Type.Integer(), Type.Null()]), message: Type.String() })),
    error: Type.Union([ImportFailureSchema, Type.Null()], { description: 'Why the import failed; null unless its status is "failed".' }),
    undoneAt: Nullable(Type.String({ description: 'When the import was undone; null unless its status is "undone".' })),
    undoneBy: Nullable(Type.String({ description: 'Who undid the import; null unless its status is "undone".' })),
  },
  { $id: 'ImportReport', description: 'An import and what came of it (SPEC §7).' },
);

export const ImportListQuery = Type.Object(
  {
    datasetId: Type.Optional(Uuid),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    limit: Type.Optional(
      IntegerLike({
        minimum: 1,
        maximum: IMPORTS_PAGE_SIZE.maximumEntries,
        description: `Imports per page, newest first; default ${IMPORTS_PAGE_SIZE.defaultEntries}.`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const ImportPageSchema = Type.Object({
  imports: Type.Array(Type.Ref(ImportReportSchema)),
  nextCursor: Nullable(Type.String({ description: 'Send as cursor for the next (older) page; null when there is none.' })),
});

export const PreviewQuery = Type.Object(
  { encoding: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: "The file's encoding, when detection would guess wrong." })) },
  { additionalProperties: false },
);

export const PreviewSchema = Type.Object(
  {
    encoding: Type.String(),
    delimiter: Type.String(),
    quote: Nullable(Type.String()),
    header: Type.Boolean(),
    skipRows: Type.Integer(),
    decimalSeparator: Type.String(),
    thousandsSeparator: Type.String(),
    dateFormat: Nullable(Type.String()),
    dateFormatAmbiguous: Type.Boolean(),
    columns: Type.Array(Type.String()),
    mapping: Type.Unknown({ description: 'The proposed mapping, or null when no date or amount column was found (see problems).' }),
    standardHeader: Type.Boolean({ description: "Whether the header names the dataset's columns, so the file imports without a mapping." }),
    preset: Type.Union(
      [
        Type.Object(
          {
            name: Type.String({ description: 'The preset: stripe-payout-reconciliation, adyen-settlement-details or paypal-settlement.' }),
            title: Type.String({ description: "The report, in the provider's words." }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      {
        description: "The payment provider's settlement report the header is, which imports with its preset and without a mapping; null for any other file.",
      },
    ),
    problems: Type.Array(Type.String()),
    questions: Type.Array(Type.String(), {
      description:
        'What the proposal could not decide, in words, each with what to check or set (the problems among them); empty when the proposed mapping reads the file as it is.',
    }),
    rows: Type.Array(Type.Unknown(), { description: 'The first 20 rows read with the proposed mapping (as entries), or the raw fields without one.' }),
    warnings: Type.Array(Type.Object({ line: Type.Union([Type.Integer(), Type.Null()]), message: Type.String() })),
    savedMapping: Type.Union([Type.Object({ name: Type.String(), mapping: Type.Unknown({ description: 'The saved CSV mapping.' }) }), Type.Null()], {
      description: 'The mapping saved on the dataset for a file of this header (the newest that fits); null when none fits or a mapping was sent.',
    }),
    checkedColumns: Type.Array(Type.String(), { description: 'The header under the settings of the mapping the rows were checked with.' }),
    checkedRows: Type.Array(
      Type.Object({
        line: Type.Integer({ description: 'The line of the file where the row starts.' }),
        fields: Type.Array(Type.String(), { description: 'The fields as written.' }),
        entry: Type.Unknown({ description: 'The entry the row becomes; null when it is refused or left out.' }),
        problem: Nullable(Type.String({ description: 'Why the import would refuse the row, in words.' })),
        skipped: Type.Boolean({ description: 'Whether a skip rule of the mapping leaves the row out.' }),
      }),
      { description: 'The first 20 rows read one by one with the mapping sent, else the saved one, else the proposed one.' },
    ),
    mappingProblem: Type.Union(
      [
        Type.Object({
          field: Nullable(Type.String({ description: 'The property of the mapping at fault (dateFormat, columns ...), when one is.' })),
          message: Type.String(),
        }),
        Type.Null(),
      ],
      { description: 'What stops the mapping from reading the file at all; null when nothing does.' },
    ),
  },
  { description: 'What the head of a CSV file says about how to read it.' },
);

export const MappingSchema = Type.Object({
  name: Type.String(),
  mapping: Type.Unknown({ description: 'The CSV mapping (SPEC §7).' }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  updatedBy: Type.String(),
});

export const MappingBody = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'The CSV mapping: {"columns": {...}, "delimiter", "decimalSeparator", "dateFormat", "amount", ...}, where "amount" is {"debit": column, "credit": column} or ' +
      '{"column": column, "indicator": {"column": column, "debit": ["Af"], "credit": ["Bij"]}}; see docs/IMPORTS.md.',
  },
);

export const UndoImportQuery = Type.Object(
  {
    unmatch: Type.Optional(
      Type.String({
        enum: ['true', 'false'],
        description:
          '"true" dissolves the match groups of the import\'s matched transactions (as DELETE /match-groups/{id} does) and undoes the import; without it an import with matched transactions is refused (409).',
      }),
    ),
    note: Type.Optional(Type.String({ maxLength: NOTE_MAX_LENGTH, description: 'Recorded with the audit events of the undo.' })),
  },
  { additionalProperties: false },
);

const MatchedImportTransactionSchema = Type.Object({
  id: Uuid,
  externalId: Nullable(Type.String()),
  timestamp: Type.Integer({ description: 'Epoch milliseconds.' }),
  description: Nullable(Type.String()),
  amount: Nullable(Type.String({ description: 'An exact decimal.' })),
  currency: Nullable(Type.String()),
  reconciliationStatus: Type.String(),
  matchGroupIds: Type.Array(Uuid),
});

export const UndoPreviewSchema = Type.Object(
  {
    importId: Uuid,
    undoable: Type.Boolean({ description: 'Whether DELETE /imports/{id} would go through without unmatch=true.' }),
    refusal: Nullable(Type.String({ description: 'Why the import cannot be undone at all (still running, failed, already undone); null when it can.' })),
    transactions: Type.Integer({ description: 'Transactions the import created, which an undo removes.' }),
    matched: Type.Integer({ description: 'How many of them are matched: undoing then needs unmatch=true.' }),
    matchGroups: Type.Integer({ description: 'Match groups unmatch=true would dissolve.' }),
    matchedTransactions: Type.Array(MatchedImportTransactionSchema, { description: `The matched transactions, the first ${UNDO_MATCHED_LISTED} by date.` }),
  },
  { description: 'What undoing an import would remove. Nothing is changed.' },
);

export const UndoResultSchema = Type.Object(
  {
    import: Type.Ref(ImportReportSchema),
    removed: Type.Integer({ description: 'Transactions removed.' }),
    matchGroupsDissolved: Type.Integer(),
  },
  { description: 'The undone import, and what the undo removed.' },
);
