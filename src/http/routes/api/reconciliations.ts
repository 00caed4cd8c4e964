import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { Scopes } from '../../../domain/auth/roles.ts';
import { RECONCILIATIONS_PAGE_SIZE } from '../../../domain/close/reconciliations.ts';
import type { ReportFile, StatementFileFormat } from '../../../domain/close/report-files.ts';
import { STATEMENT_ITEMS_PAGE_SIZE, statementItemsPage } from '../../../domain/close/statement-items.ts';
import type { Services } from '../../../domain/services.ts';
import { IdempotencyKeyHeaders, sendIdempotentWrite } from '../../idempotency.ts';
import { errorResponses, OrganizationParams, readPageSize } from '../../schemas/common.ts';
import {
  ApproveBody,
  JournalEntriesSchema,
  CreateReconciliationBody,
  PeriodParams,
  PeriodSchema,
  PeriodsSchema,
  PrepareBody,
  ReconciliationPageSchema,
  ReconciliationParams,
  ReconciliationSchema,
  ReconciliationsQuery,
  ReopenBody,
  StatementQuery,
  StatementSchema,
  UpdateReconciliationBody,
  StatementItemsPageSchema,
  StatementItemsQuery,
} from '../../schemas/close.ts';

/** The 200 of a download: the file, of its media type. */
function fileResponse(contentType: string, description: string) {
  return { description, content: { [contentType]: { schema: { type: 'string', format: 'binary' } } } };
}

/** RFC 6266 / 8187: an ASCII name for old clients and the exact name, UTF-8 and percent-encoded, for the others. */
export function contentDisposition(filename: string): string {
  const ascii = filename
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

function sendFile(reply: FastifyReply, file: ReportFile) {
  return reply
    .header('content-disposition', contentDisposition(file.filename))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .type(file.contentType)
    .send(file.body);
}

/**
 * Month-end close (SPEC §14, docs/CLOSE.md): reconciliations, the statement of a period, and the
 * sign-off of periods. Reading needs read:data; creating, changing, preparing and reopening
 * write:data; approving read:data, as a Reviewer's token carries no more: whether the caller may
 * approve (an Administrator or a Reviewer, not the preparer) and reopen (an Administrator) is
 * decided by its role.
 */
export async function reconciliationRoutes(app: FastifyInstance, options: { services: Services }) {
  const { services } = options;
  const tags = ['Month-end close'];

  app.get(
    '/reconciliations',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listReconciliations',
        summary: 'List reconciliations',
        description: 'The reconciliations of the organization in the order they were created; archived ones only with includeArchived=true. Page with cursor.',
        tags,
        params: OrganizationParams,
        querystring: ReconciliationsQuery,
        response: { 200: ReconciliationPageSchema, ...errorResponses() },
      },
    },
    async (request) => {
      const query = request.query as Static<typeof ReconciliationsQuery>;
      return services.reconciliations.list(request.principal.organizationId, {
        limit: readPageSize(query.limit, RECONCILIATIONS_PAGE_SIZE),
        cursor: query.cursor ?? null,
        includeArchived: query.includeArchived === 'true',
      });
    },
  );

  app.post(
    '/reconciliations',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'createReconciliation',
        summary: 'Create a reconciliation',
        description:
          "Pairs bank datasets with ledger datasets of one currency. Every dataset must be the organization's, on one side only, in no other reconciliation (409), " +
          "and of the reconciliation's currency when it declares one; every rule must be the organization's. The name is unique (409).",
        tags,
        params: OrganizationParams,
        headers: IdempotencyKeyHeaders,
        body: CreateReconciliationBody,
        response: { 201: ReconciliationSchema, ...errorResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof CreateReconciliationBody>;
      return sendIdempotentWrite(request, reply, services, 201, (transaction, context) => services.reconciliations.create(transaction, context, body));
    },
  );

  app.get(
    '/reconciliations/:reconciliationId',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'getReconciliation',
        summary: 'Get a reconciliation',
        description: 'The reconciliation, archived or not.',
        tags,
        params: ReconciliationParams,
        response: { 200: ReconciliationSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { reconciliationId } = request.params as Static<typeof ReconciliationParams>;
      return services.reconciliations.get(request.principal.organizationId, reconciliationId);
    },
  );

  app.patch(
    '/reconciliations/:reconciliationId',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'updateReconciliation',
        summary: 'Change or archive a reconciliation',
        description:
          'The fields given replace the reconciliation\'s (a dataset list replaces the whole list), checked as on creation; "archived": true archives it, false restores it. ' +
          'Signed periods keep the statements they stored. While a period is approved, a change of what its figures are made of (the datasets, the currency, ' +
          "the ledger's opening balance or date, the period length) is refused (409 close.signedFiguresWouldChange, naming the period): reopen it first. " +
          'The name, the rules, the adjustment and cash accounts and archiving can change at any time.',
        tags,
        params: ReconciliationParams,
        headers: IdempotencyKeyHeaders,
        body: UpdateReconciliationBody,
        response: { 200: ReconciliationSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { reconciliationId } = request.params as Static<typeof ReconciliationParams>;
      const body = request.body as Static<typeof UpdateReconciliationBody>;
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        services.reconciliations.update(transaction, context, reconciliationId, body),
      );
    },
  );

  app.get(
    '/reconciliations/:reconciliationId/periods',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listReconciliationPeriods',
        summary: 'List the periods of a reconciliation',
        description:
          "Every period from the first that ends after the ledger's opening date to the one holding today, latest first: its state (open, prepared, approved), " +
          'its unexplained difference, its open exceptions, who prepared and approved it and when, and every step of its sign-off (reopens included). ' +
          'A period ending on the opening date (an opening date on the last day of a month) is not listed: the opening balance is the one at the start of that day.',
        tags,
        params: ReconciliationParams,
        response: { 200: PeriodsSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { reconciliationId } = request.params as Static<typeof ReconciliationParams>;
      return services.closeSignoff.periods(request.principal.organizationId, reconciliationId);
    },
  );

  app.get(
    '/reconciliations/:reconciliationId/statement',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'getReconciliationStatement',
        summary: 'Get the reconciliation statement of a period',
        description:
          'The bank reconciliation statement at periodEnd (the last day of a period): balance per bank, items in the ledger not yet in the bank, items in the bank not yet ' +
          'in the ledger, the adjusted bank balance, adjustments, balance per ledger and the unexplained difference, each line with its items (docs/CLOSE.md). ' +
          "An open period's statement is computed from the data; a prepared or approved period's is the one stored when it was prepared. " +
          'Transactions of another currency in the datasets are a 422 naming how many and where.',
        tags,
        params: ReconciliationParams,
        querystring: StatementQuery,
        response: { 200: StatementSchema, ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const { reconciliationId } = request.params as Static<typeof ReconciliationParams>;
      const { periodEnd } = request.query as Static<typeof StatementQuery>;
      return services.closeSignoff.statement(request.principal.organizationId, reconciliationId, periodEnd);
    },
  );

  app.get(
    '/reconciliations/:reconciliationId/statement-items',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listReconciliationStatementItems',
        summary: "List the items of one line of a period's statement",
        description:
          'The items of one line of the statement of GET /statement, a page at a time, oldest first, with how many the line holds in all: what a screen shows ' +
          "when a line is opened. As for GET /statement, a prepared or approved period's items are those of the statement stored when it was prepared.",
        tags,
        params: ReconciliationParams,
        querystring: StatementItemsQuery,
        response: { 200: StatementItemsPageSchema, ...errorResponses(400, 404, 422) },
      },
    },
    async (request) => {
      const { reconciliationId } = request.params as Static<typeof ReconciliationParams>;
      const query = request.query as Static<typeof StatementItemsQuery>;
      const statement = await services.closeSignoff.statement(request.principal.organizationId, reconciliationId, query.periodEnd);
      return statementItemsPage(statement, query.line, readPageSize(query.limit, STATEMENT_ITEMS_PAGE_SIZE), query.cursor ?? null);
    },
  );

  const statementFiles: { path: string; format: StatementFileFormat; contentType: string; operationId: string; summary: string; description: string }[] = [
    {
      path: '/reconciliations/:reconciliationId/statement.pdf',
      format: 'pdf',
      contentType: 'application/pdf',
      operationId: 'getReconciliationStatementPdf',
      summary: 'Download the reconciliation statement as PDF',
      description:
        'The statement of GET /statement as an A4 document: the statement page, then every item in an appendix; the signatures when signed, "DRAFT" across an open period. ' +
        'The file is named after the reconciliation and the period ("Operating account EUR - March 2026.pdf") in Content-Disposition.',
    },
    {
      path: '/reconciliations/:reconciliationId/statement.xlsx',
      format: 'xlsx',
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      operationId: 'getReconciliationStatementXlsx',
      summary: 'Download the reconciliation statement as XLSX',
      description:
        'The statement of GET /statement as a workbook: a Statement sheet whose lines are formulas over the Items sheet, the Items, and the Exceptions. ' +
        'An amount of more than 15 significant digits, which a spreadsheet cannot hold exactly, is a 422 (closeReports.amountTooLongForSpreadsheet): download the PDF or the CSV.',
    },
    {
      path: '/reconciliations/:reconciliationId/statement-items.csv',
      format: 'csv',
      contentType: 'text/csv',
      operationId: 'getReconciliationStatementItemsCsv',
      summary: "Download the statement's items as CSV",
      description:
        "Every item of the statement's lines, one row each: line, date, dataset, description, reference, amount, counted amount, reason; then the rows set apart and the adjustments. " +
        'UTF-8 with a byte order mark, CR LF, no cell that a spreadsheet would run as a formula.',
    },
  ];
  for (const file of statementFiles) {
    app.get(
      file.path,
      {
        config: { scope: Scopes.read },
        schema: {
          operationId: file.operationId,
          summary: file.summary,
          description:
            file.description +
            " As for GET /statement, a prepared or approved period's is the statement stored when it was prepared; an open period's is computed from the data now.",
          tags,
          params: ReconciliationParams,
          querystring: StatementQuery,
          response: { 200: fileResponse(file.contentType, `The ${file.format.toUpperCase()} file.`), ...errorResponses(404, 422) },
        },
      },
      async (request, reply) => {
        const { reconciliationId } = request.params as Static<typeof ReconciliationParams>;
        const { periodEnd } = request.query as Static<typeof StatementQuery>;
        return sendFile(reply, await services.closeReports.statementFile(request.principal.organizationId, reconciliationId, periodEnd, file.format));
      },
    );
  }

  const journalEntriesDescription =
    "The period's adjustments (fee, fx, rounding, write-off) as the journal entries that bring them into the ledger, each a debit and a credit of the same amount: " +
    "a bank that holds less (a fee of -6.50) debits the reason's account and credits the cash account; one that holds more the other way round. " +
    "Accounts are the reconciliation's as they are now (cashAccount, adjustmentAccounts); an adjustment whose reason maps no account is a 409 " +
    '(journalEntries.reasonsNotMapped, naming every such reason), a missing cash account a 409 (journalEntries.cashAccountNotMapped). ' +
    'The entries are proposals: nothing is posted. Journal numbers are ADJ-<period end YYYYMMDD>-<place>.';

  app.get(
    '/reconciliations/:reconciliationId/journal-entries',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'getReconciliationJournalEntries',
        summary: "Propose the journal entries of a period's adjustments",
        description: journalEntriesDescription,
        tags,
        params: ReconciliationParams,
        querystring: StatementQuery,
        response: { 200: JournalEntriesSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => {
      const { reconciliationId } = request.params as Static<typeof ReconciliationParams>;
      const { periodEnd } = request.query as Static<typeof StatementQuery>;
      const { statement, entries } = await services.closeReports.journalEntries(request.principal.organizationId, reconciliationId, periodEnd);
      return { periodStart: statement.periodStart, periodEnd: statement.periodEnd, state: statement.signOff.state, entries };
    },
  );

  app.get(
    '/reconciliations/:reconciliationId/journal-entries.csv',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'getReconciliationJournalEntriesCsv',
        summary: "Download the proposed journal entries of a period's adjustments as CSV",
        description:
          journalEntriesDescription +
          ' The CSV has one row per line of an entry (Journal number, Date, Account, Debit, Credit, Currency, Memo, Bank reference, Match group), for a general-journal import.',
        tags,
        params: ReconciliationParams,
        querystring: StatementQuery,
        response: { 200: fileResponse('text/csv', 'The CSV file.'), ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { reconciliationId } = request.params as Static<typeof ReconciliationParams>;
      const { periodEnd } = request.query as Static<typeof StatementQuery>;
      return sendFile(reply, await services.closeReports.journalEntriesFile(request.principal.organizationId, reconciliationId, periodEnd));
    },
  );

  app.post(
    '/reconciliations/:reconciliationId/periods/:periodEnd/prepare',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'prepareReconciliationPeriod',
        summary: 'Prepare a period',
        description:
          'Signs an open period as its preparer: its unexplained difference must be exactly 0.00 (409 naming it otherwise). The statement as it stands is stored with the note ' +
          'and is what the period shows from then on.',
        tags,
        params: PeriodParams,
        headers: IdempotencyKeyHeaders,
        body: PrepareBody,
        response: { 200: PeriodSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { reconciliationId, periodEnd } = request.params as Static<typeof PeriodParams>;
      const { note } = request.body as Static<typeof PrepareBody>;
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        services.closeSignoff.prepare(transaction, context, reconciliationId, periodEnd, note),
      );
    },
  );

  app.post(
    '/reconciliations/:reconciliationId/periods/:periodEnd/approve',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'approveReconciliationPeriod',
        summary: 'Approve a period',
        description:
          'Approves a prepared period, which closes it. Only an Administrator or a Reviewer may approve (403), and not the one who prepared it (403). ' +
          'The scope needed is read:data, as a Reviewer has no other; the role decides.',
        tags,
        params: PeriodParams,
        headers: IdempotencyKeyHeaders,
        body: ApproveBody,
        response: { 200: PeriodSchema, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { reconciliationId, periodEnd } = request.params as Static<typeof PeriodParams>;
      const { note } = request.body as Static<typeof ApproveBody>;
      const signer = { userId: request.principal.userId, clientId: request.principal.clientId };
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        services.closeSignoff.approve(transaction, context, signer, reconciliationId, periodEnd, note ?? null),
      );
    },
  );

  app.post(
    '/reconciliations/:reconciliationId/periods/:periodEnd/reopen',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'reopenReconciliationPeriod',
        summary: 'Reopen a period',
        description:
          "Takes a prepared or approved period back to open, with a reason; Administrators only (403). The statements signed before stay in the period's record.",
        tags,
        params: PeriodParams,
        headers: IdempotencyKeyHeaders,
        body: ReopenBody,
        response: { 200: PeriodSchema, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { reconciliationId, periodEnd } = request.params as Static<typeof PeriodParams>;
      const { reason } = request.body as Static<typeof ReopenBody>;
      const signer = { userId: request.principal.userId, clientId: request.principal.clientId };
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        services.closeSignoff.reopen(transaction, context, signer, reconciliationId, periodEnd, reason),
      );
    },
  );
}
