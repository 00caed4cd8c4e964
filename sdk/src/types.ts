import type { components, operations } from './generated/openapi.ts';

/**
 * Names for the shapes of the API, all taken from the types generated from the OpenAPI document
 * (src/generated/openapi.ts), so that they cannot drift from what the server sends.
 */

type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type ResponsesOf<O extends keyof operations> = operations[O]['responses'];

/** The JSON body of operation `O`'s success answer. */
export type ResponseOf<O extends keyof operations, S extends keyof ResponsesOf<O> = 200 & keyof ResponsesOf<O>> = JsonOf<ResponsesOf<O>[S]>;
/** The JSON body operation `O` takes. */
export type BodyOf<O extends keyof operations> = operations[O] extends { requestBody?: infer R } ? JsonOf<NonNullable<R>> : never;
/** The query parameters of operation `O`. */
export type QueryOf<O extends keyof operations> = operations[O]['parameters'] extends { query?: infer Q } ? NonNullable<Q> : never;

type ElementOf<T> = T extends readonly (infer E)[] ? E : never;

export type SearchQuery = components['schemas']['SearchQuery'];
export type TransactionQuery = Omit<BodyOf<'queryTransactions'>, 'search' | 'columns'> & {
  search?: SearchQuery[];
  columns?: Array<Pick<SearchQuery, 'path'> & Partial<Pick<SearchQuery, 'search'>>>;
};
export type Transaction = ElementOf<ResponseOf<'queryTransactions'>>;
export type Match = ElementOf<Transaction['incomingMatches']>;
export type ReconciliationStatus = Transaction['reconciliationStatus'];
export type TransactionStatusChange = BodyOf<'setTransactionStatus'>;
export type Candidate = ElementOf<ResponseOf<'listCandidates'>['candidates']>;

export type Source = ElementOf<ResponseOf<'listSources'>>;
export type Dataset = ElementOf<Source['datasets']>;
export type NewSource = BodyOf<'createSource'>;
export type SourceChange = BodyOf<'updateSource'>;
export type NewDataset = BodyOf<'createDataset'>;
export type DatasetChange = BodyOf<'updateDataset'>;
export type IngestBody = BodyOf<'ingestTransactions'>;
export type IngestResult = ResponseOf<'ingestTransactions'>;

export type ImportReport = components['schemas']['ImportReport'];
export type ImportFormat = NonNullable<QueryOf<'importFile'>['format']>;
export type ImportPreview = ResponseOf<'previewImport'>;
export type ImportUndoPreview = ResponseOf<'previewImportUndo'>;
export type ImportUndoResult = ResponseOf<'undoImport'>;
export type ImportMapping = ResponseOf<'getImportMapping'>;

export type NewMatches = BodyOf<'createMatches'>;
export type CreatedMatches = ResponseOf<'createMatches', 201>;
export type MatchGroup = ResponseOf<'getMatchGroup'>;

export type Rule = ResponseOf<'getRule'>;
export type NewRule = BodyOf<'createRule'>;
export type RuleChange = BodyOf<'updateRule'>;
export type RuleValidation = ResponseOf<'validateRule'>;
export type RuleVersion = ElementOf<ResponseOf<'listRuleVersions'>['versions']>;

export type Run = ResponseOf<'getRun'>;
export type RunStatus = Run['status'];
export type NewRun = BodyOf<'startRun'>;
export type RunResult = ElementOf<ResponseOf<'listRunResults'>['results']>;
export type RunResultKind = NonNullable<QueryOf<'listRunResults'>['kind']>;
/** A transaction a run result names, as a person reads it (results with include 'transactions'). */
export type RunResultTransaction = NonNullable<RunResult['transactions']>[number];

export type Suggestion = ResponseOf<'getSuggestion'>;
export type SuggestionDecision = BodyOf<'confirmSuggestion'>;
export type SuggestionRejection = BodyOf<'rejectSuggestion'>;
export type BulkSuggestionDecision = BodyOf<'decideSuggestions'>;

export type AuditEvent = ElementOf<ResponseOf<'listAuditEvents'>['events']>;
export type AuditQuery = Omit<QueryOf<'listAuditEvents'>, 'cursor' | 'limit'>;
export type AuditAction = NonNullable<AuditQuery['action']>;
export type AuditObject = NonNullable<AuditQuery['object']>;

export type ApiClient = ElementOf<ResponseOf<'listClients'>>;
export type NewApiClient = BodyOf<'createClient'>;
export type CreatedApiClient = ResponseOf<'createClient', 201>;
export type CreatedClientSecret = ResponseOf<'createClientSecret', 201>;

export type ApiEvent = ElementOf<ResponseOf<'listEvents'>['events']>;
export type EventPage = ResponseOf<'listEvents'>;
export type EventType = ElementOf<NonNullable<BodyOf<'createWebhookEndpoint'>['eventTypes']>>;
/** The `data` of a `run.completed` event (docs/WEBHOOKS.md, "How to consume a large run"). */
export interface RunCompletedEventData {
  runId: string;
  mode: 'dry-run' | 'commit';
  trigger: 'request' | 'ingest';
  status: 'completed';
  error: null;
  /** Origins the run looked at. */
  examined: number;
  /** Summed over the run's rules, as the run's own record gives them; for a commit run `matched` is the match groups it created. */
  totals: { matched: number; suggested: number; ambiguous: number; classified: number; boundsHit: number; closedPeriodSkipped: number };
}
/** The `data` of an `import.completed` event. */
export interface ImportCompletedEventData {
  importId: string;
  datasetId: string;
  fileName: string | null;
  format: string | null;
  status: 'completed';
  rowsRead: number;
  inserted: number;
  duplicates: number;
  error: null;
  /** The run the import queued for the rules with runOnIngest; null when there was none (or a run already waiting takes its transactions). */
  runId: string | null;
}
/** The feed's query; `type` also takes a list of types, sent comma-separated. */
export type EventQuery = Omit<QueryOf<'listEvents'>, 'type'> & { type?: string | readonly EventType[] };

export type WebhookEndpoint = ResponseOf<'getWebhookEndpoint'>;
export type NewWebhookEndpoint = BodyOf<'createWebhookEndpoint'>;
export type CreatedWebhookEndpoint = ResponseOf<'createWebhookEndpoint', 201>;
export type WebhookEndpointChange = BodyOf<'updateWebhookEndpoint'>;
export type RotatedWebhookSecret = ResponseOf<'rotateWebhookSecret', 201>;
export type WebhookDelivery = ElementOf<ResponseOf<'listWebhookDeliveries'>['deliveries']>;
export type WebhookDeliveryStatus = WebhookDelivery['status'];
export type WebhookDeliveryPage = ResponseOf<'listWebhookDeliveries'>;
export type WebhookDeliveryQuery = QueryOf<'listWebhookDeliveries'>;
export type WebhookDeliveryWithAttempts = ResponseOf<'getWebhookDelivery'>;
export type WebhookAttempt = ElementOf<WebhookDeliveryWithAttempts['attemptList']>;

export type Connection = ResponseOf<'getConnection'>;
export type NewConnection = BodyOf<'createConnection'>;
export type ConnectionChange = BodyOf<'updateConnection'>;
export type ConnectionTest = ResponseOf<'testConnection'>;
export type Pickup = ResponseOf<'getPickup'>;
export type NewPickup = BodyOf<'createPickup'>;
export type PickupChange = BodyOf<'updatePickup'>;
export type PickupRun = ResponseOf<'getPickupRun'>;
export type PickupFile = ElementOf<PickupRun['files']>;
export type PickupFileOutcome = PickupFile['outcome'];

export type TokenResponse = ResponseOf<'requestToken'>;

export type User = ElementOf<ResponseOf<'listUsers'>['users']>;
export type Invitation = ElementOf<ResponseOf<'listUsers'>['invitations']>;

export type { components, operations, paths } from './generated/openapi.ts';

// Month-end close: reconciliations, their statements and the sign-off of their periods.
export type Reconciliation = ResponseOf<'getReconciliation'>;
export type NewReconciliation = BodyOf<'createReconciliation'>;
export type ReconciliationChange = BodyOf<'updateReconciliation'>;
export type ReconciliationStatement = ResponseOf<'getReconciliationStatement'>;
export type ReconciliationPeriod = ResponseOf<'prepareReconciliationPeriod'>;
/** A line of a statement whose items are listed a page at a time, and one such page. */
export type StatementItemLine = QueryOf<'listReconciliationStatementItems'>['line'];
export type StatementItemsPage = ResponseOf<'listReconciliationStatementItems'>;
/** The exceptions queue of the month-end close. */
export type Exception = components['schemas']['Exception'];
export type ExceptionDetail = ResponseOf<'getException'>;
export type ExceptionComment = components['schemas']['ExceptionComment'];
export type ExceptionQuery = Omit<QueryOf<'listReconciliationExceptions'>, 'cursor' | 'limit'>;
export type ExceptionPage = ResponseOf<'listReconciliationExceptions'>;
export type ExceptionChange = BodyOf<'updateException'>;
export type ExceptionBulkAssignment = BodyOf<'assignExceptions'>;
export type ExceptionBulkAssignmentResult = ResponseOf<'assignExceptions'>;
