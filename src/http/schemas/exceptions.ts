import { Type } from '@sinclair/typebox';
import {
  AGE_BUCKETS,
  BULK_ASSIGN_MAX_TRANSACTIONS,
  COMMENT_MAX_LENGTH,
  EXCEPTION_VIEWS,
  EXCEPTIONS_PAGE_SIZE,
  HOLD_REASON_MAX_LENGTH,
  RESOLUTION_NOTE_MAX_LENGTH,
} from '../../domain/close/exceptions.ts';
import { IntegerLike, Uuid } from './common.ts';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const CalendarDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A calendar date, YYYY-MM-DD.' });
const NullableDate = Type.Union([CalendarDate, Type.Null()]);

export const ReconciliationExceptionsParams = Type.Object({ orgId: Uuid, reconciliationId: Uuid }, { additionalProperties: false });
export const ExceptionParams = Type.Object({ orgId: Uuid, transactionId: Uuid }, { additionalProperties: false });

export const ExceptionListQuery = Type.Object(
  {
    periodEnd: Type.Optional(
      Type.String({ description: 'The last day of the period, YYYY-MM-DD: transactions dated on or before it, and ages counted to it. Today by default.' }),
    ),
    view: Type.Optional(
      Type.Union(
        EXCEPTION_VIEWS.map((view) => Type.Literal(view)),
        {
          description:
            'mine: open exceptions of the person signed in; unassigned; overdue: open and past their due date; on-hold; ' +
            'resolved: resolved by a note, a match or an adjustment. Without a view: every open exception.',
        },
      ),
    ),
    age: Type.Optional(
      Type.Union(
        Object.keys(AGE_BUCKETS).map((bucket) => Type.Literal(bucket)),
        { description: 'Only exceptions of this age, in days from their date to the period end: 0-7, 8-30, 31-90 or over-90.' },
      ),
    ),
    assignee: Type.Optional(Type.String({ format: 'uuid', description: 'Only exceptions assigned to this user.' })),
    limit: Type.Optional(
      IntegerLike({
        minimum: EXCEPTIONS_PAGE_SIZE.minimumEntries,
        maximum: EXCEPTIONS_PAGE_SIZE.maximumEntries,
        default: EXCEPTIONS_PAGE_SIZE.defaultEntries,
      }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 500, description: 'The nextCursor of the previous page.' })),
  },
  { additionalProperties: false },
);

const CommentFields = {
  author: Type.String({ description: 'The author as the audit trail names actors, e.g. "user:ann@example.com".' }),
  authorName: Type.String({ description: "The author in words: a person's email or an API client's name." }),
  body: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
};

export const ExceptionCommentSchema = Type.Object({ id: Uuid, ...CommentFields }, { $id: 'ExceptionComment', description: 'A comment of an exception.' });

const ExceptionFields = {
  transactionId: Uuid,
  transaction: Type.Object({
    date: CalendarDate,
    description: NullableString,
    reference: NullableString,
    amount: Type.Union([Type.String({ description: 'A decimal amount, exact.' }), Type.Null()]),
    openAmount: Type.Union([Type.String({ description: 'What is still open: the whole amount, or the remainder of a partly matched one.' }), Type.Null()]),
    currency: NullableString,
    datasetId: Uuid,
    datasetName: Type.String(),
    side: Type.Union([Type.Literal('bank'), Type.Literal('ledger'), Type.Null()], {
      description: "The dataset's side in its reconciliation; null when it serves none.",
    }),
    reconciliationStatus: Type.String(),
  }),
  ageDays: Type.Integer({ description: "Days from the transaction's date to the period end (or today)." }),
  assignee: Type.Union([Type.Object({ id: Uuid, email: NullableString }), Type.Null()]),
  dueDate: NullableDate,
  overdue: Type.Boolean({ description: 'Open and past its due date.' }),
  holdReason: NullableString,
  resolution: Type.Union([Type.Literal('matched'), Type.Literal('adjustment'), Type.Literal('note'), Type.Null()], {
    description: 'note: resolved by a note; matched or adjustment: the transaction is matched in full (read from its matches, never stored).',
  }),
  resolutionNote: NullableString,
  resolvedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  resolvedBy: Type.Union([Type.String({ description: 'Who resolved it by a note, in words.' }), Type.Null()]),
  commentCount: Type.Integer(),
  latestComment: Type.Union([Type.Object(CommentFields), Type.Null()]),
};

export const ExceptionSchema = Type.Object(ExceptionFields, { $id: 'Exception', description: 'An open item of a reconciliation and its follow-up.' });

export const ExceptionDetailSchema = Type.Object(
  { ...ExceptionFields, comments: Type.Array(ExceptionCommentSchema, { description: 'The thread, oldest first.' }) },
  { $id: 'ExceptionDetail', description: 'An exception with its comment thread.' },
);

export const ExceptionPageSchema = Type.Object({
  items: Type.Array(ExceptionSchema),
  nextCursor: NullableString,
  hasMore: Type.Boolean(),
});

export const PatchExceptionBody = Type.Object(
  {
    assigneeUserId: Type.Optional(Type.Union([Uuid, Type.Null()], { description: 'An active user of the organization; null unassigns.' })),
    dueDate: Type.Optional(NullableDate),
    holdReason: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: HOLD_REASON_MAX_LENGTH }), Type.Null()], {
        description: 'Puts the exception on hold with this reason ("waiting for the invoice"); null takes it off hold.',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const CommentBody = Type.Object({ body: Type.String({ minLength: 1, maxLength: COMMENT_MAX_LENGTH }) }, { additionalProperties: false });

export const ResolveBody = Type.Object(
  {
    resolution: Type.Literal('note', { description: 'A match or an adjustment resolves an exception by itself; a note resolves it by hand.' }),
    note: Type.String({ minLength: 1, maxLength: RESOLUTION_NOTE_MAX_LENGTH, description: 'Why nothing more is to be done.' }),
  },
  { additionalProperties: false },
);

export const ReopenBody = Type.Object(
  { note: Type.Optional(Type.String({ maxLength: 1000, description: 'Why it is reopened; kept in the audit trail.' })) },
  { additionalProperties: false },
);

export const BulkAssignBody = Type.Object(
  {
    transactionIds: Type.Array(Uuid, { minItems: 1, maxItems: BULK_ASSIGN_MAX_TRANSACTIONS }),
    assigneeUserId: Type.Optional(Type.Union([Uuid, Type.Null()], { description: 'An active user of the organization; null unassigns.' })),
    dueDate: Type.Optional(Type.Union([CalendarDate, Type.Null()], { description: 'The due date of every exception listed; null clears it.' })),
    holdReason: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: HOLD_REASON_MAX_LENGTH }), Type.Null()], {
        description: 'Puts every exception listed on hold with this reason; null takes them off hold.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'What to change of every exception listed (at least one of assigneeUserId, dueDate, holdReason); what is left out stays.',
  },
);

export const BulkAssignResultSchema = Type.Object({
  assigned: Type.Integer({ description: 'Exceptions whose assignee changed.' }),
  updated: Type.Integer({ description: 'Exceptions whose due date or hold changed.' }),
  unchanged: Type.Integer({ description: 'Exceptions that had all of it already.' }),
});

export const AssigneesSchema = Type.Object(
  {
    people: Type.Array(
      Type.Object(
        {
          id: Uuid,
          name: Type.String({ description: "How the person is named: their e-mail, a user's only name (as exceptions name their assignee)." }),
        },
        { additionalProperties: false },
      ),
      { description: 'Active users of the organization, by name.' },
    ),
  },
  { additionalProperties: false },
);
