import { errorFromResponse, LedgerReconError } from './errors.ts';
import { collect, itemsByBodyCursor } from './paging.ts';
import { PAGE_LIMIT_MAXIMA } from './generated/page-limits.ts';
import { DEFAULT_RETRY, NO_RETRY, sleep, type RetryOptions } from './retry.ts';
import { organizationOfToken, readTokenResponse, TokenCache, type FetchAccessToken } from './tokens.ts';
import { Transport, type ApiResponse, type HttpMethod, type QueryValue, type RequestBody } from './transport.ts';
import { uploadBody, type FileInput, type UploadProgress } from './uploads.ts';
import type * as Api from './types.ts';

export interface LedgerReconOptions {
  /** The server's root URL, e.g. `https://recon.example.com` (the API is under `/v1/api`). */
  baseUrl: string;
  clientId?: string;
  clientSecret?: string;
  /** Default: `${baseUrl}/oauth/token`. */
  tokenUrl?: string;
  /** Default: `${baseUrl}/v1/api`, this service's default audience. */
  audience?: string;
  /** The organization id of the paths. Default: the `org_id` claim of this service's tokens. */
  orgId?: string;
  /** Instead of client credentials: where to get a token (the web app gets one from the user's session). */
  getAccessToken?: FetchAccessToken;
  /** Renew a token this long before it expires. Default: a tenth of its lifetime, at most 60 s. */
  tokenRenewBeforeExpirySeconds?: number;
  /** Records per page of every list, 1..1000. Default 500. */
  pageSize?: number;
  /** Retries of 429, 502, 503, 504 and network errors; `false` for none. */
  retry?: Partial<RetryOptions> | false;
  /** Time to wait for one answer. Default 60 s. */
  timeoutMs?: number;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  userAgent?: string;
}

/** Options every call takes. */
export interface CallOptions {
  signal?: AbortSignal;
  /** The Idempotency-Key of a write; one is generated per call when absent and kept across its retries. */
  idempotencyKey?: string;
}

const PAGE_SIZE_DEFAULT = 500;
const PAGE_SIZE_MAX = 1000;
const TIMEOUT_MS_DEFAULT = 60_000;
const POLL_INTERVAL_MS_DEFAULT = 1_000;
const SDK_VERSION = '0.1.0';

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function segment(value: string): string {
  return encodeURIComponent(value);
}

/**
 * A client of one ledger-recon server (or of any server that implements the published
 * interface, for the token request and the transactions query).
 *
 * ```ts
 * const recon = new LedgerRecon({ baseUrl, clientId, clientSecret });
 * for await (const transaction of recon.transactions.list({ datasetId, search })) { ... }
 * ```
 */
export class LedgerRecon {
  readonly transport: Transport;
  readonly pageSize: number;
  private readonly tokenCache: TokenCache;
  private readonly configuredOrgId: string | undefined;
  private readonly tokenUrl: string;

  readonly tokens: TokensResource;
  readonly transactions: TransactionsResource;
  readonly sources: SourcesResource;
  readonly datasets: DatasetsResource;
  readonly imports: ImportsResource;
  readonly matches: MatchesResource;
  readonly matchGroups: MatchGroupsResource;
  readonly rules: RulesResource;
  readonly runs: RunsResource;
  readonly suggestions: SuggestionsResource;
  readonly auditEvents: AuditEventsResource;
  readonly clients: ClientsResource;
  readonly users: UsersResource;
  readonly events: EventsResource;
  readonly webhookEndpoints: WebhookEndpointsResource;
  readonly reconciliations: ReconciliationsResource;
  readonly exceptions: ExceptionsResource;
  readonly connections: ConnectionsResource;

  constructor(options: LedgerReconOptions) {
    if (typeof options.baseUrl !== 'string' || !/^https?:\/\//i.test(options.baseUrl)) {
      throw new TypeError(`baseUrl must be an http(s) URL such as https://recon.example.com; got ${JSON.stringify(options.baseUrl)}`);
    }
    const baseUrl = trimSlash(options.baseUrl);
    const pageSize = options.pageSize ?? PAGE_SIZE_DEFAULT;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > PAGE_SIZE_MAX)
      throw new RangeError(`pageSize must be a whole number from 1 to ${PAGE_SIZE_MAX}; got ${pageSize}`);
    this.pageSize = pageSize;
    this.configuredOrgId = options.orgId;
    this.tokenUrl = options.tokenUrl ?? `${baseUrl}/oauth/token`;
    const audience = options.audience ?? `${baseUrl}/v1/api`;

    let fetchToken: FetchAccessToken;
    if (options.getAccessToken !== undefined) {
      fetchToken = options.getAccessToken;
    } else {
      const { clientId, clientSecret } = options;
      if (!clientId || !clientSecret) throw new TypeError('give clientId and clientSecret (from the developer page), or getAccessToken');
      fetchToken = async () => {
        const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, audience });
        const response = await this.transport.request<unknown>({
          method: 'POST',
          path: this.tokenUrl,
          body: { kind: 'form', value: form },
          authenticated: false,
          safe: true,
        });
        return readTokenResponse(response.data, this.tokenUrl);
      };
    }
    this.tokenCache = new TokenCache(fetchToken, options.tokenRenewBeforeExpirySeconds);
    this.transport = new Transport({
      baseUrl,
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      retry: options.retry === false ? NO_RETRY : { ...DEFAULT_RETRY, ...options.retry },
      timeoutMs: options.timeoutMs ?? TIMEOUT_MS_DEFAULT,
      tokens: this.tokenCache,
      userAgent: options.userAgent ?? `ledger-recon-sdk/${SDK_VERSION}`,
    });

    this.tokens = new TokensResource(this.tokenCache);
    this.transactions = new TransactionsResource(this);
    this.sources = new SourcesResource(this);
    this.datasets = new DatasetsResource(this);
    this.imports = new ImportsResource(this);
    this.matches = new MatchesResource(this);
    this.matchGroups = new MatchGroupsResource(this);
    this.rules = new RulesResource(this);
    this.runs = new RunsResource(this);
    this.suggestions = new SuggestionsResource(this);
    this.auditEvents = new AuditEventsResource(this);
    this.clients = new ClientsResource(this);
    this.users = new UsersResource(this);
    this.events = new EventsResource(this);
    this.webhookEndpoints = new WebhookEndpointsResource(this);
    this.reconciliations = new ReconciliationsResource(this);
    this.exceptions = new ExceptionsResource(this);
    this.connections = new ConnectionsResource(this);
  }

  /** The organization of the paths: the configured one, else the one this service's token names. */
  async orgId(): Promise<string> {
    if (this.configuredOrgId !== undefined) return this.configuredOrgId;
    const organization = organizationOfToken(await this.tokenCache.get());
    if (organization === null) {
      throw new TypeError('the access token does not name an organization (no org_id claim); give orgId, shown on the developer page');
    }
    return organization;
  }

  /** A request to an operation of the organization's API (`/v1/api/{orgId}` + path). */
  async call<T>(
    method: HttpMethod,
    path: string,
    options: {
      query?: Record<string, QueryValue>;
      body?: unknown;
      rawBody?: RequestBody;
      safe?: boolean;
      headers?: Record<string, string>;
      binary?: boolean;
    } & CallOptions = {},
  ): Promise<ApiResponse<T>> {
    const organization = await this.orgId();
    return this.transport.request<T>({
      method,
      path: `/v1/api/${segment(organization)}${path}`,
      query: options.query,
      body: options.rawBody ?? (options.body === undefined ? undefined : { kind: 'json', value: options.body }),
      headers: options.headers,
      safe: options.safe,
      binary: options.binary,
      idempotencyKey: options.idempotencyKey,
      signal: options.signal,
    });
  }

  /** The page size of a list operation: the configured one, within what the operation accepts. */
  pageSizeOf(operationId: keyof typeof PAGE_LIMIT_MAXIMA): number {
    return Math.min(this.pageSize, PAGE_LIMIT_MAXIMA[operationId]);
  }

  /** The JSON body of a call. */
  async data<T>(method: HttpMethod, path: string, options: Parameters<LedgerRecon['call']>[2] = {}): Promise<T> {
    return (await this.call<T>(method, path, options)).data;
  }
}

class TokensResource {
  constructor(private readonly cache: TokenCache) {}
  /** A current access token (kept and shared; renewed before it expires). */
  get(): Promise<string> {
    return this.cache.get();
  }
}

/** A page of the transactions query. */
export interface TransactionPage {
  transactions: Api.Transaction[];
  /** Send as `cursor` for the next page; null when the server gave none. */
  nextCursor: string | null;
  /** From X-Has-More; null when the server does not say. */
  hasMore: boolean | null;
}

/**
 * The transactions of a page, from our bare array or from a wrapper object such as another
 * implementation of the published interface might send (its envelope is not published).
 */
function transactionsOfBody(body: unknown): Api.Transaction[] {
  if (Array.isArray(body)) return body as Api.Transaction[];
  if (typeof body === 'object' && body !== null) {
    for (const key of ['transactions', 'data', 'items', 'results', 'records']) {
      const value = (body as Record<string, unknown>)[key];
      if (Array.isArray(value)) return value as Api.Transaction[];
    }
  }
  throw new TypeError('the transactions query answered neither an array nor an object holding one');
}

class TransactionsResource {
  constructor(private readonly client: LedgerRecon) {}

  /** One page of the transactions query, as sent (limit, offset or cursor as given). */
  async page(query: Api.TransactionQuery, options: CallOptions = {}): Promise<TransactionPage> {
    const response = await this.client.call<unknown>('POST', '/transactions', { body: query, safe: true, ...options });
    const hasMore = response.headers.get('x-has-more');
    return {
      transactions: transactionsOfBody(response.data),
      nextCursor: response.headers.get('x-next-cursor'),
      hasMore: hasMore === null ? null : hasMore === 'true',
    };
  }

  /**
   * Every transaction the query selects, page by page: by cursor while the server sends
   * X-Next-Cursor, else by offset until a page comes back shorter than the page size (or
   * X-Has-More says false). `limit` in the query is the page size; `offset` where to start.
   */
  async *list(query: Api.TransactionQuery, options: CallOptions & { pageSize?: number } = {}): AsyncGenerator<Api.Transaction, void, undefined> {
    const pageSize = Number(options.pageSize ?? query.limit ?? this.client.pageSize);
    // `offest` is the published sample's spelling of offset; the server takes both, and so does this.
    const { offset: startOffset, offest: publishedOffset, cursor: startCursor, limit: _limit, ...rest } = query;
    let offset = Number(startOffset ?? publishedOffset ?? 0);
    let cursor: string | undefined = startCursor;
    for (;;) {
      const page = await this.page({ ...rest, limit: pageSize, ...(cursor !== undefined ? { cursor } : { offset }) }, options);
      yield* page.transactions;
      if (page.nextCursor !== null) {
        cursor = page.nextCursor;
        continue;
      }
      // On cursors, a page without one is the last; by offset, a short page or X-Has-More: false is.
      if (cursor !== undefined || page.hasMore === false || page.transactions.length < pageSize) return;
      offset += page.transactions.length;
    }
  }

  get(transactionId: string, options: CallOptions & { columns?: string[] } = {}): Promise<Api.Transaction> {
    return this.client.data('GET', `/transactions/${segment(transactionId)}`, { query: { columns: options.columns?.join(',') }, ...options });
  }

  /** Sets `informative` or `out of scope`, or gives the status back to the matches (`none`/`partial`/`full` derived). */
  setStatus(transactionId: string, change: Api.TransactionStatusChange, options: CallOptions = {}): Promise<Api.Transaction> {
    return this.client.data('PATCH', `/transactions/${segment(transactionId)}`, { body: change, ...options });
  }

  /** Counterparts the rules would consider for this transaction, best first, with evidence. */
  async candidates(transactionId: string, options: CallOptions & { limit?: number } = {}): Promise<Api.Candidate[]> {
    const body = await this.client.data<Api.ResponseOf<'listCandidates'>>('GET', `/transactions/${segment(transactionId)}/candidates`, {
      query: { limit: options.limit },
      ...options,
    });
    return body.candidates;
  }
}

class SourcesResource {
  constructor(private readonly client: LedgerRecon) {}
  /** Every source with its datasets; archived datasets only with includeArchived. */
  list(options: CallOptions & { includeArchived?: boolean } = {}): Promise<Api.Source[]> {
    const { includeArchived, ...callOptions } = options;
    return this.client.data('GET', '/sources', includeArchived ? { query: { includeArchived: 'true' }, ...callOptions } : callOptions);
  }
  create(source: Api.NewSource, options: CallOptions = {}): Promise<Api.ResponseOf<'createSource', 201>> {
    return this.client.data('POST', '/sources', { body: source, ...options });
  }
  /** Renames a source; answers it with all its datasets, archived ones included. */
  rename(sourceId: string, change: Api.SourceChange, options: CallOptions = {}): Promise<Api.Source> {
    return this.client.data('PATCH', `/sources/${segment(sourceId)}`, { body: change, ...options });
  }
}

class DatasetsResource {
  constructor(private readonly client: LedgerRecon) {}
  /** Every dataset of every source (archived ones only with includeArchived). */
  async list(options: CallOptions & { includeArchived?: boolean } = {}): Promise<Api.Dataset[]> {
    const sources = await this.client.sources.list(options);
    return sources.flatMap((source) => source.datasets);
  }
  /** One dataset by id; a LedgerReconError 404 when there is none. */
  async get(datasetId: string, options: CallOptions = {}): Promise<Api.Dataset> {
    const found = (await this.list({ ...options, includeArchived: true })).find((dataset) => dataset.id === datasetId);
    if (found === undefined) {
      throw new LedgerReconError({
        code: 404,
        status: 'Not Found',
        request: null,
        message: `no dataset ${datasetId} in this organization; list them with datasets.list()`,
        details: [],
        method: 'GET',
        url: '/sources',
      });
    }
    return found;
  }
  create(sourceId: string, dataset: Api.NewDataset, options: CallOptions = {}): Promise<Api.ResponseOf<'createDataset', 201>> {
    return this.client.data('POST', `/sources/${segment(sourceId)}/datasets`, { body: dataset, ...options });
  }
  /** Renames, archives or restores the dataset, or sets (with null, clears) its account and currency; fields left out stay. */
  update(datasetId: string, change: Api.DatasetChange, options: CallOptions = {}): Promise<Api.Dataset> {
    return this.client.data('PATCH', `/datasets/${segment(datasetId)}`, { body: change, ...options });
  }
  /** The reconciled share by month, open amounts by age and rule hit counts (the dashboard's figures). */
  summary(datasetId: string, options: CallOptions = {}): Promise<Api.ResponseOf<'getDatasetSummary'>> {
    return this.client.data('GET', `/datasets/${segment(datasetId)}/summary`, options);
  }
  /**
   * Every bank dataset over a period of months (YYYY-MM, both included; by default the last
   * twelve): reconciled and open counts, open money in and out per currency, transactions by month
   * and the latest closing balance (the dashboard's overview).
   */
  overview(period: { from?: string; to?: string } = {}, options: CallOptions = {}): Promise<Api.ResponseOf<'getDatasetOverview'>> {
    return this.client.data('GET', '/dataset-overview', { query: { from: period.from, to: period.to }, ...options });
  }
  /** Adds transactions (JSON), all or nothing; entries the dataset already holds are reported, not doubled. */
  ingest(datasetId: string, body: Api.IngestBody, options: CallOptions = {}): Promise<Api.IngestResult> {
    return this.client.data('POST', `/datasets/${segment(datasetId)}/transactions`, { body, ...options });
  }
}

export interface ImportOptions extends CallOptions {
  /** Default: detected from the content. */
  format?: Api.ImportFormat;
  /** The file's name, for the report (taken from a path or a File when absent). */
  fileName?: string;
  /** A saved mapping's name, or a mapping object sent with the file (CSV). */
  mapping?: string | Record<string, unknown>;
  encoding?: string;
  /** Import statements of an account other than the dataset's (otherwise a 409 naming both accounts). */
  allowOtherAccount?: boolean;
  /** Answer at once with the running import (202) instead of when it is done; follow it with imports.wait. */
  respondAsync?: boolean;
  onUploadProgress?: (progress: UploadProgress) => void;
}

const TERMINAL_IMPORT_STATUSES = new Set(['completed', 'failed', 'undone']);

class ImportsResource {
  constructor(private readonly client: LedgerRecon) {}

  /** Imports a file into a dataset, all or nothing; returns the report (SPEC §7). */
  async upload(datasetId: string, file: FileInput, options: ImportOptions = {}): Promise<Api.ImportReport> {
    const inlineMapping = typeof options.mapping === 'object' ? options.mapping : undefined;
    const upload = await uploadBody(file, { mapping: inlineMapping, fileName: options.fileName, onProgress: options.onUploadProgress });
    return this.client.data('POST', `/datasets/${segment(datasetId)}/imports`, {
      query: {
        format: options.format,
        fileName: inlineMapping === undefined ? (upload.fileName ?? undefined) : undefined,
        mapping: typeof options.mapping === 'string' ? options.mapping : undefined,
        encoding: options.encoding,
        allowOtherAccount: options.allowOtherAccount ? 'true' : undefined,
      },
      rawBody: upload.body,
      headers: options.respondAsync ? { prefer: 'respond-async' } : undefined,
      signal: options.signal,
      idempotencyKey: options.idempotencyKey,
    });
  }

  /** What an import of this file would read (CSV: the detected settings and the first rows). */
  async preview(
    datasetId: string,
    file: FileInput,
    options: CallOptions & {
      encoding?: string;
      /** A mapping being made: the first rows are checked with it one by one. */ mapping?: Record<string, unknown>;
    } = {},
  ): Promise<Api.ImportPreview> {
    const upload = await uploadBody(file, { mapping: options.mapping });
    return this.client.data('POST', `/datasets/${segment(datasetId)}/imports/preview`, {
      query: { encoding: options.encoding },
      rawBody: upload.body,
      safe: true,
      signal: options.signal,
    });
  }

  get(importId: string, options: CallOptions = {}): Promise<Api.ImportReport> {
    return this.client.data('GET', `/imports/${segment(importId)}`, options);
  }

  /** Imports, newest first. */
  list(query: { datasetId?: string } = {}, options: CallOptions = {}): AsyncGenerator<Api.ImportReport, void, undefined> {
    return itemsByBodyCursor(async (cursor) => {
      const page = await this.client.data<Api.ResponseOf<'listImports'>>('GET', '/imports', {
        query: { ...query, cursor, limit: this.client.pageSizeOf('listImports') },
        ...options,
      });
      return { items: page.imports, nextCursor: page.nextCursor };
    });
  }

  /** What undoing the import would remove, and which of its transactions are matched; changes nothing. */
  undoPreview(importId: string, options: CallOptions = {}): Promise<Api.ImportUndoPreview> {
    return this.client.data('GET', `/imports/${segment(importId)}/undo-preview`, options);
  }

  /**
   * Undoes an import: removes the transactions it created, all or nothing. An import with matched
   * transactions is a LedgerReconError 409 listing them unless `unmatch` dissolves their match groups.
   */
  undo(importId: string, options: CallOptions & { unmatch?: boolean; note?: string } = {}): Promise<Api.ImportUndoResult> {
    const { unmatch, note, ...call } = options;
    return this.client.data('DELETE', `/imports/${segment(importId)}`, { query: { unmatch: unmatch ? 'true' : undefined, note }, ...call });
  }

  /** Polls an import until it has completed or failed, reporting each look. */
  wait(importId: string, options: WaitOptions<Api.ImportReport> = {}): Promise<Api.ImportReport> {
    return pollUntilEnded(() => this.get(importId, options), TERMINAL_IMPORT_STATUSES, options);
  }

  readonly mappings = {
    list: (datasetId: string, options: CallOptions = {}): Promise<Api.ResponseOf<'listImportMappings'>> =>
      this.client.data('GET', `/datasets/${segment(datasetId)}/import-mappings`, options),
    get: (datasetId: string, name: string, options: CallOptions = {}): Promise<Api.ImportMapping> =>
      this.client.data('GET', `/datasets/${segment(datasetId)}/import-mappings/${segment(name)}`, options),
    save: (datasetId: string, name: string, mapping: Api.BodyOf<'saveImportMapping'>, options: CallOptions = {}): Promise<Api.ImportMapping> =>
      this.client.data('PUT', `/datasets/${segment(datasetId)}/import-mappings/${segment(name)}`, { body: mapping, ...options }),
    delete: async (datasetId: string, name: string, options: CallOptions = {}): Promise<void> => {
      await this.client.call('DELETE', `/datasets/${segment(datasetId)}/import-mappings/${segment(name)}`, options);
    },
  };
}

class MatchesResource {
  constructor(private readonly client: LedgerRecon) {}
  /** Creates one match group (all or nothing) linking origins to targets, with allocations. */
  create(matches: Api.NewMatches, options: CallOptions = {}): Promise<Api.CreatedMatches> {
    return this.client.data('POST', '/matches', { body: matches, ...options });
  }
  /** Removes one match; the statuses of both sides follow. */
  async delete(matchId: string, options: CallOptions & { note?: string } = {}): Promise<void> {
    await this.client.call('DELETE', `/matches/${segment(matchId)}`, { query: { note: options.note }, ...options });
  }
}

class MatchGroupsResource {
  constructor(private readonly client: LedgerRecon) {}
  /**
   * A group with its matches and, when a rule made it, the evidence. Without `limit` or `cursor`
   * it comes with all its matches; with either, with one page of them (oldest first) and the
   * `nextCursor` of the next page (null on the last): a payout may hold thousands.
   */
  get(groupId: string, options: CallOptions & { limit?: number; cursor?: string } = {}): Promise<Api.MatchGroup> {
    const { limit, cursor, ...call } = options;
    return this.client.data('GET', `/match-groups/${segment(groupId)}`, { query: { limit, cursor }, ...call });
  }
  /** Every link (match) of the group, oldest first, a page at a time. */
  links(groupId: string, options: CallOptions = {}): AsyncGenerator<Api.Match, void, undefined> {
    return itemsByBodyCursor(async (cursor) => {
      const page = await this.get(groupId, { ...options, cursor, limit: this.client.pageSizeOf('getMatchGroup') });
      return { items: page.matches, nextCursor: page.nextCursor ?? null };
    });
  }
  async delete(groupId: string, options: CallOptions & { note?: string } = {}): Promise<void> {
    await this.client.call('DELETE', `/match-groups/${segment(groupId)}`, { query: { note: options.note }, ...options });
  }
}

class RulesResource {
  constructor(private readonly client: LedgerRecon) {}
  /** Rules in priority order. */
  async list(options: CallOptions = {}): Promise<Api.Rule[]> {
    const body = await this.client.data<Api.ResponseOf<'listRules'>>('GET', '/rules', options);
    return Array.isArray(body) ? body : (body as { rules: Api.Rule[] }).rules;
  }
  get(ruleId: string, options: CallOptions = {}): Promise<Api.Rule> {
    return this.client.data('GET', `/rules/${segment(ruleId)}`, options);
  }
  create(rule: Api.NewRule, options: CallOptions = {}): Promise<Api.Rule> {
    return this.client.data('POST', '/rules', { body: rule, ...options });
  }
  /** A JSON merge of the rule; makes a new version. */
  update(ruleId: string, change: Api.RuleChange, options: CallOptions = {}): Promise<Api.Rule> {
    return this.client.data('PATCH', `/rules/${segment(ruleId)}`, { body: change, ...options });
  }
  async delete(ruleId: string, options: CallOptions = {}): Promise<void> {
    await this.client.call('DELETE', `/rules/${segment(ruleId)}`, options);
  }
  reorder(order: Api.BodyOf<'reorderRules'>, options: CallOptions = {}): Promise<Api.ResponseOf<'reorderRules'>> {
    return this.client.data('POST', '/rules/reorder', { body: order, ...options });
  }
  /** Every problem of a rule, with its JSON pointer and the fix; `ruleId` checks it as a change of that rule. */
  validate(rule: Api.BodyOf<'validateRule'>, options: CallOptions & { ruleId?: string } = {}): Promise<Api.RuleValidation> {
    return this.client.data('POST', '/rules/validate', { body: rule, query: { ruleId: options.ruleId }, safe: true, ...options });
  }
  /** Versions of a rule, newest first. */
  versions(ruleId: string, options: CallOptions = {}): AsyncGenerator<Api.RuleVersion, void, undefined> {
    return itemsByBodyCursor(async (cursor) => {
      const page = await this.client.data<Api.ResponseOf<'listRuleVersions'>>('GET', `/rules/${segment(ruleId)}/versions`, {
        query: { limit: this.client.pageSizeOf('listRuleVersions'), beforeVersion: cursor },
        ...options,
      });
      const last = page.versions[page.versions.length - 1];
      return { items: page.versions, nextCursor: page.hasMore && last !== undefined ? String(last.version) : null };
    });
  }
}

/** A file the API sent: its bytes (typed by its media type) and the name the server gave it, when it gave one. */
export interface Download {
  blob: Blob;
  filename: string | null;
}

/** The file name of Content-Disposition: the exact one of filename*, else the plain one. */
export function filenameOf(disposition: string | null): string | null {
  if (disposition === null) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*"((?:[^"\\]|\\.)*)"|filename\s*=\s*([^;]+)/i.exec(disposition);
  return plain ? (plain[1] ?? plain[2]!.trim()).replace(/\\(.)/g, '$1') : null;
}

function downloadOf(response: ApiResponse<Blob>): Download {
  return { blob: response.data, filename: filenameOf(response.headers.get('content-disposition')) };
}

/**
 * Month-end close (docs/CLOSE.md): reconciliations of bank datasets with ledger datasets, the
 * statement of a period, and its sign-off (prepare at 0.00, approve by another person who is an
 * Administrator or a Reviewer, reopen by an Administrator with a reason).
 */
class ReconciliationsResource {
  constructor(private readonly client: LedgerRecon) {}
  /** Reconciliations in the order they were created; archived ones with includeArchived. */
  list(query: { includeArchived?: boolean } = {}, options: CallOptions = {}): AsyncGenerator<Api.Reconciliation, void, undefined> {
    return itemsByBodyCursor(async (cursor) => {
      const page = await this.client.data<Api.ResponseOf<'listReconciliations'>>('GET', '/reconciliations', {
        query: { includeArchived: query.includeArchived ? 'true' : undefined, cursor, limit: this.client.pageSizeOf('listReconciliations') },
        ...options,
      });
      return { items: page.reconciliations, nextCursor: page.nextCursor };
    });
  }
  get(reconciliationId: string, options: CallOptions = {}): Promise<Api.Reconciliation> {
    return this.client.data('GET', `/reconciliations/${segment(reconciliationId)}`, options);
  }
  create(reconciliation: Api.NewReconciliation, options: CallOptions = {}): Promise<Api.Reconciliation> {
    return this.client.data('POST', '/reconciliations', { body: reconciliation, ...options });
  }
  /** Replaces the fields given; `archived: true` archives the reconciliation. */
  update(reconciliationId: string, change: Api.ReconciliationChange, options: CallOptions = {}): Promise<Api.Reconciliation> {
    return this.client.data('PATCH', `/reconciliations/${segment(reconciliationId)}`, { body: change, ...options });
  }
  /** The statement at a period's last day (YYYY-MM-DD): stored when the period is signed, computed when open. */
  statement(reconciliationId: string, periodEnd: string, options: CallOptions = {}): Promise<Api.ReconciliationStatement> {
    return this.client.data('GET', `/reconciliations/${segment(reconciliationId)}/statement`, { query: { periodEnd }, ...options });
  }
  /**
   * One page of the items of a statement's line (deposits in transit, outstanding payments, the
   * bank's receipts and payments not yet in the ledger, the rows set apart), oldest first, with
   * how many the line holds; pass the page's nextCursor for the next one.
   */
  statementItems(
    reconciliationId: string,
    periodEnd: string,
    line: Api.StatementItemLine,
    page: { cursor?: string | undefined; limit?: number | undefined } = {},
    options: CallOptions = {},
  ): Promise<Api.StatementItemsPage> {
    return this.client.data('GET', `/reconciliations/${segment(reconciliationId)}/statement-items`, {
      query: {
        periodEnd,
        line,
        limit: page.limit ?? this.client.pageSizeOf('listReconciliationStatementItems'),
        ...(page.cursor ? { cursor: page.cursor } : {}),
      },
      ...options,
    });
  }
  /** The periods, latest first, with their state, difference and signatures. */
  /**
   * The statement of a period as a file: 'pdf', 'xlsx', or 'csv' (its items). The blob is the
   * file; filename is the name the server gives it ("Operating account EUR - March 2026.pdf").
   */
  async statementFile(reconciliationId: string, periodEnd: string, format: 'pdf' | 'xlsx' | 'csv', options: CallOptions = {}): Promise<Download> {
    const file = format === 'csv' ? 'statement-items.csv' : `statement.${format}`;
    return downloadOf(
      await this.client.call<Blob>('GET', `/reconciliations/${segment(reconciliationId)}/${file}`, { query: { periodEnd }, binary: true, ...options }),
    );
  }

  /** The journal entries a period's adjustments propose, against the reconciliation's accounts (409 when one is not mapped). */
  journalEntries(reconciliationId: string, periodEnd: string, options: CallOptions = {}): Promise<Api.ResponseOf<'getReconciliationJournalEntries'>> {
    return this.client.data('GET', `/reconciliations/${segment(reconciliationId)}/journal-entries`, { query: { periodEnd }, ...options });
  }

  /** The proposed journal entries as CSV, for the ledger's journal import. */
  async journalEntriesFile(reconciliationId: string, periodEnd: string, options: CallOptions = {}): Promise<Download> {
    return downloadOf(
      await this.client.call<Blob>('GET', `/reconciliations/${segment(reconciliationId)}/journal-entries.csv`, {
        query: { periodEnd },
        binary: true,
        ...options,
      }),
    );
  }

  async periods(reconciliationId: string, options: CallOptions = {}): Promise<Api.ReconciliationPeriod[]> {
    const body = await this.client.data<Api.ResponseOf<'listReconciliationPeriods'>>('GET', `/reconciliations/${segment(reconciliationId)}/periods`, options);
    return body.periods;
  }
  /** Prepares an open period whose unexplained difference is 0.00 (409 otherwise), storing its statement. */
  prepare(
    reconciliationId: string,
    periodEnd: string,
    body: Api.BodyOf<'prepareReconciliationPeriod'>,
    options: CallOptions = {},
  ): Promise<Api.ReconciliationPeriod> {
    return this.client.data('POST', `/reconciliations/${segment(reconciliationId)}/periods/${segment(periodEnd)}/prepare`, { body, ...options });
  }
  /** Approves a prepared period: an Administrator or a Reviewer who did not prepare it. */
  approve(
    reconciliationId: string,
    periodEnd: string,
    body: Api.BodyOf<'approveReconciliationPeriod'> = {},
    options: CallOptions = {},
  ): Promise<Api.ReconciliationPeriod> {
    return this.client.data('POST', `/reconciliations/${segment(reconciliationId)}/periods/${segment(periodEnd)}/approve`, { body, ...options });
  }
  /** Reopens a prepared or approved period (Administrators only); the reason is kept with the record. */
  reopen(
    reconciliationId: string,
    periodEnd: string,
    body: Api.BodyOf<'reopenReconciliationPeriod'>,
    options: CallOptions = {},
  ): Promise<Api.ReconciliationPeriod> {
    return this.client.data('POST', `/reconciliations/${segment(reconciliationId)}/periods/${segment(periodEnd)}/reopen`, { body, ...options });
  }
}

const TERMINAL_RUN_STATUSES = new Set(['completed', 'failed', 'cancelled', 'reverted']);

class RunsResource {
  constructor(private readonly client: LedgerRecon) {}
  /** Queues a run (dry run or commit); it runs as a job. Follow it with runs.wait. */
  start(run: Api.NewRun, options: CallOptions = {}): Promise<Api.ResponseOf<'startRun', 202>> {
    return this.client.data('POST', '/runs', { body: run, ...options });
  }
  get(runId: string, options: CallOptions = {}): Promise<Api.Run> {
    return this.client.data('GET', `/runs/${segment(runId)}`, options);
  }
  /** Runs, newest first. */
  list(query: { status?: Api.RunStatus } = {}, options: CallOptions = {}): AsyncGenerator<Api.Run, void, undefined> {
    return itemsByBodyCursor(async (cursor) => {
      const page = await this.client.data<Api.ResponseOf<'listRuns'>>('GET', '/runs', {
        query: { ...query, cursor, limit: this.client.pageSizeOf('listRuns') },
        ...options,
      });
      return { items: page.runs as Api.Run[], nextCursor: page.nextCursor };
    });
  }
  /** What a run decided, by kind; with include 'transactions', each result with the transactions it names, to read. */
  results(
    runId: string,
    query: { kind?: Api.RunResultKind; include?: 'transactions' } = {},
    options: CallOptions = {},
  ): AsyncGenerator<Api.RunResult, void, undefined> {
    return itemsByBodyCursor(async (cursor) => {
      const page = await this.client.data<Api.ResponseOf<'listRunResults'>>('GET', `/runs/${segment(runId)}/results`, {
        query: { ...query, cursor, limit: this.client.pageSizeOf('listRunResults') },
        ...options,
      });
      return { items: page.results, nextCursor: page.nextCursor };
    });
  }
  /** Commits a completed dry run: a 409 names the transactions that changed since. */
  commit(runId: string, options: CallOptions = {}): Promise<Api.ResponseOf<'commitRun'>> {
    return this.client.data('POST', `/runs/${segment(runId)}/commit`, options);
  }
  /** Undoes what a committed run did; the note is kept in the audit trail. */
  revert(runId: string, body: Api.BodyOf<'revertRun'> = {}, options: CallOptions = {}): Promise<Api.ResponseOf<'revertRun'>> {
    return this.client.data('POST', `/runs/${segment(runId)}/revert`, { body, ...options });
  }
  /** Throws away a dry run that was never committed (a committed one is reverted instead); recorded in the audit trail. */
  async discard(runId: string, options: CallOptions = {}): Promise<void> {
    await this.client.call('DELETE', `/runs/${segment(runId)}`, options);
  }
  cancel(runId: string, options: CallOptions = {}): Promise<Api.ResponseOf<'cancelRun'>> {
    return this.client.data('POST', `/runs/${segment(runId)}/cancel`, options);
  }
  /** Polls a run until it has ended (completed, failed, cancelled), reporting each look. */
  wait(runId: string, options: WaitOptions<Api.Run> = {}): Promise<Api.Run> {
    return pollUntilEnded(() => this.get(runId, options), TERMINAL_RUN_STATUSES, options);
  }
}

class SuggestionsResource {
  constructor(private readonly client: LedgerRecon) {}
  list(query: Omit<Api.QueryOf<'listSuggestions'>, 'cursor' | 'limit'> = {}, options: CallOptions = {}): AsyncGenerator<Api.Suggestion, void, undefined> {
    return itemsByBodyCursor(async (cursor) => {
      const page = await this.client.data<Api.ResponseOf<'listSuggestions'>>('GET', '/suggestions', {
        query: { ...query, cursor, limit: this.client.pageSizeOf('listSuggestions') },
        ...options,
      });
      return { items: page.suggestions as Api.Suggestion[], nextCursor: page.nextCursor };
    });
  }
  get(suggestionId: string, options: CallOptions = {}): Promise<Api.Suggestion> {
    return this.client.data('GET', `/suggestions/${segment(suggestionId)}`, options);
  }
  /** Confirms one option, by its index in `options` (needed when there are several). */
  confirm(suggestionId: string, decision: Api.SuggestionDecision = {}, options: CallOptions = {}): Promise<Api.ResponseOf<'confirmSuggestion'>> {
    return this.client.data('POST', `/suggestions/${segment(suggestionId)}/confirm`, { body: decision, ...options });
  }
  /** Rejects it: its options are never proposed again. */
  reject(suggestionId: string, rejection: Api.SuggestionRejection = {}, options: CallOptions = {}): Promise<Api.ResponseOf<'rejectSuggestion'>> {
    return this.client.data('POST', `/suggestions/${segment(suggestionId)}/reject`, { body: rejection, ...options });
  }
  /** Confirms and rejects several, all or nothing. */
  bulk(decisions: Api.BulkSuggestionDecision, options: CallOptions = {}): Promise<Api.ResponseOf<'decideSuggestions'>> {
    return this.client.data('POST', '/suggestions/bulk', { body: decisions, ...options });
  }
}

class AuditEventsResource {
  constructor(private readonly client: LedgerRecon) {}
  /** One page of the audit trail, for a screen that loads more as it is read. */
  page(query: Api.QueryOf<'listAuditEvents'> = {}, options: CallOptions = {}): Promise<Api.ResponseOf<'listAuditEvents'>> {
    return this.client.data('GET', '/audit-events', { query: { limit: this.client.pageSizeOf('listAuditEvents'), ...query }, ...options });
  }
  /** The audit trail, oldest first (newest first with order: 'newest'). */
  list(query: Omit<Api.QueryOf<'listAuditEvents'>, 'cursor' | 'limit'> = {}, options: CallOptions = {}): AsyncGenerator<Api.AuditEvent, void, undefined> {
    return itemsByBodyCursor(async (cursor) => {
      const page = await this.client.data<Api.ResponseOf<'listAuditEvents'>>('GET', '/audit-events', {
        query: { ...query, cursor, limit: this.client.pageSizeOf('listAuditEvents') },
        ...options,
      });
      return { items: page.events, nextCursor: page.hasMore ? page.nextCursor : null };
    });
  }
}

class ClientsResource {
  constructor(private readonly client: LedgerRecon) {}
  list(query: { includeRevoked?: boolean } = {}, options: CallOptions = {}): Promise<Api.ApiClient[]> {
    return this.client.data('GET', '/clients', { query, ...options });
  }
  /** Creates an API client; its secret is in the answer and never shown again. */
  create(client: Api.NewApiClient, options: CallOptions = {}): Promise<Api.CreatedApiClient> {
    return this.client.data('POST', '/clients', { body: client, ...options });
  }
  async revoke(clientId: string, options: CallOptions = {}): Promise<void> {
    await this.client.call('DELETE', `/clients/${segment(clientId)}`, options);
  }
  /** A second secret, for rotation without downtime; shown once. */
  createSecret(clientId: string, options: CallOptions = {}): Promise<Api.CreatedClientSecret> {
    return this.client.data('POST', `/clients/${segment(clientId)}/secrets`, options);
  }
  async revokeSecret(clientId: string, secretId: string, options: CallOptions = {}): Promise<void> {
    await this.client.call('DELETE', `/clients/${segment(clientId)}/secrets/${segment(secretId)}`, options);
  }
}

class UsersResource {
  constructor(private readonly client: LedgerRecon) {}
  /** The people of the organization and the open invitations (Administrators). */
  list(options: CallOptions = {}): Promise<Api.ResponseOf<'listUsers'>> {
    return this.client.data('GET', '/users', options);
  }
  /** An invitation link for a person (valid 72 hours), shown once in the answer. */
  invite(invitation: Api.BodyOf<'inviteUser'>, options: CallOptions = {}): Promise<Api.ResponseOf<'inviteUser', 201>> {
    return this.client.data('POST', '/invitations', { body: invitation, ...options });
  }
  /** Changes a role, or deactivates (`active: false`: their sessions end at once). */
  update(userId: string, change: Api.BodyOf<'updateUser'>, options: CallOptions = {}): Promise<Api.ResponseOf<'updateUser'>> {
    return this.client.data('PATCH', `/users/${segment(userId)}`, { body: change, ...options });
  }
}

/** The feed's query as the API takes it: a list of types goes comma-separated. */
function eventQueryOf(query: Api.EventQuery): Record<string, QueryValue> {
  const { type, ...rest } = query;
  return { ...rest, type: typeof type === 'string' ? type : type?.join(',') };
}

class EventsResource {
  constructor(private readonly client: LedgerRecon) {}
  /**
   * One page of the event feed, in commit order. Its `nextCursor` is given on the last page too:
   * keep it and ask again with it later to get what happened since, each event once.
   */
  page(query: Api.EventQuery = {}, options: CallOptions = {}): Promise<Api.EventPage> {
    return this.client.data('GET', '/events', { query: eventQueryOf({ limit: this.client.pageSizeOf('listEvents'), ...query }), ...options });
  }
  /** Every event after `cursor` (from the start without one) that is ready now, page by page until `hasMore` is false. */
  list(query: Omit<Api.EventQuery, 'limit'> = {}, options: CallOptions = {}): AsyncGenerator<Api.ApiEvent, void, undefined> {
    return itemsByBodyCursor(async (cursor) => {
      const page = await this.page({ ...query, cursor: cursor ?? query.cursor }, options);
      return { items: page.events, nextCursor: page.hasMore ? page.nextCursor : null };
    });
  }
}

/** Webhook endpoints and their deliveries; Administrators only (manage:credentials). */
class WebhookEndpointsResource {
  constructor(private readonly client: LedgerRecon) {}
  /** Every endpoint, oldest first; secrets are never listed. */
  list(options: CallOptions = {}): Promise<Api.WebhookEndpoint[]> {
    return this.client.data('GET', '/webhook-endpoints', options);
  }
  /** Creates an endpoint; its signing secret (whsec_…) is in the answer and never shown again. */
  create(endpoint: Api.NewWebhookEndpoint, options: CallOptions = {}): Promise<Api.CreatedWebhookEndpoint> {
    return this.client.data('POST', '/webhook-endpoints', { body: endpoint, ...options });
  }
  get(endpointId: string, options: CallOptions = {}): Promise<Api.WebhookEndpoint> {
    return this.client.data('GET', `/webhook-endpoints/${segment(endpointId)}`, options);
  }
  /** Changes what is given; `enabled: true` turns an endpoint disabled for failing back on. */
  update(endpointId: string, change: Api.WebhookEndpointChange, options: CallOptions = {}): Promise<Api.WebhookEndpoint> {
    return this.client.data('PATCH', `/webhook-endpoints/${segment(endpointId)}`, { body: change, ...options });
  }
  /** Deletes the endpoint and its delivery history. */
  async delete(endpointId: string, options: CallOptions = {}): Promise<void> {
    await this.client.call('DELETE', `/webhook-endpoints/${segment(endpointId)}`, options);
  }
  /** A new signing secret, shown once; the previous one signs too until `previousSecretExpiresAt` (24 hours). */
  rotateSecret(endpointId: string, options: CallOptions = {}): Promise<Api.RotatedWebhookSecret> {
    return this.client.data('POST', `/webhook-endpoints/${segment(endpointId)}/rotate-secret`, options);
  }
  /** Queues a signed message of type webhook.test; its delivery shows the outcome once sent. */
  sendTest(endpointId: string, options: CallOptions = {}): Promise<Api.WebhookDelivery> {
    return this.client.data('POST', `/webhook-endpoints/${segment(endpointId)}/test`, options);
  }
  /** One page of the endpoint's deliveries, newest first, for a screen that loads more as it is read. */
  deliveriesPage(endpointId: string, query: Api.WebhookDeliveryQuery = {}, options: CallOptions = {}): Promise<Api.WebhookDeliveryPage> {
    return this.client.data('GET', `/webhook-endpoints/${segment(endpointId)}/deliveries`, {
      query: { limit: this.client.pageSizeOf('listWebhookDeliveries'), ...query },
      ...options,
    });
  }
  /** Every delivery of the endpoint, newest first. */
  deliveries(
    endpointId: string,
    query: Omit<Api.WebhookDeliveryQuery, 'cursor' | 'limit'> = {},
    options: CallOptions = {},
  ): AsyncGenerator<Api.WebhookDelivery, void, undefined> {
    return itemsByBodyCursor(async (cursor) => {
      const page = await this.deliveriesPage(endpointId, { ...query, cursor }, options);
      return { items: page.deliveries, nextCursor: page.nextCursor };
    });
  }
  /** One delivery with its attempts, oldest first. */
  delivery(endpointId: string, deliveryId: string, options: CallOptions = {}): Promise<Api.WebhookDeliveryWithAttempts> {
    return this.client.data('GET', `/webhook-endpoints/${segment(endpointId)}/deliveries/${segment(deliveryId)}`, options);
  }
  /** Sends a delivery that succeeded or failed again, with the same webhook-id; a pending one is a 409. */
  redeliver(endpointId: string, deliveryId: string, options: CallOptions = {}): Promise<Api.WebhookDelivery> {
    return this.client.data('POST', `/webhook-endpoints/${segment(endpointId)}/deliveries/${segment(deliveryId)}/redeliver`, options);
  }
}

/**
 * Connections (docs/CONNECTIONS.md): SFTP servers and folders whose files are picked up on a
 * schedule, with their pickups and the runs of those. Secrets go in and never come back.
 */
class ConnectionsResource {
  constructor(private readonly client: LedgerRecon) {}
  list(options: CallOptions = {}): Promise<Api.Connection[]> {
    return this.client.data('GET', '/connections', options);
  }
  /** Creates a connection; with `authMethod: 'generated_key'` the answer's publicKey is the line to hand to the bank. */
  create(connection: Api.NewConnection, options: CallOptions = {}): Promise<Api.Connection> {
    return this.client.data('POST', '/connections', { body: connection, ...options });
  }
  get(connectionId: string, options: CallOptions = {}): Promise<Api.Connection> {
    return this.client.data('GET', `/connections/${segment(connectionId)}`, options);
  }
  /** Changes what is given; `hostKeyFingerprint` confirms the server's host key that test() showed. */
  update(connectionId: string, change: Api.ConnectionChange, options: CallOptions = {}): Promise<Api.Connection> {
    return this.client.data('PATCH', `/connections/${segment(connectionId)}`, { body: change, ...options });
  }
  async delete(connectionId: string, options: CallOptions = {}): Promise<void> {
    await this.client.call('DELETE', `/connections/${segment(connectionId)}`, options);
  }
  /** Connects: the host key's fingerprint and whether it is the confirmed one, the login, the pickups' folders. */
  test(connectionId: string, options: CallOptions = {}): Promise<Api.ConnectionTest> {
    return this.client.data('POST', `/connections/${segment(connectionId)}/test`, options);
  }
  pickups(connectionId: string, options: CallOptions = {}): Promise<Api.Pickup[]> {
    return this.client.data('GET', `/connections/${segment(connectionId)}/pickups`, options);
  }
  createPickup(connectionId: string, pickup: Api.NewPickup, options: CallOptions = {}): Promise<Api.Pickup> {
    return this.client.data('POST', `/connections/${segment(connectionId)}/pickups`, { body: pickup, ...options });
  }
  pickup(connectionId: string, pickupId: string, options: CallOptions = {}): Promise<Api.Pickup> {
    return this.client.data('GET', `/connections/${segment(connectionId)}/pickups/${segment(pickupId)}`, options);
  }
  updatePickup(connectionId: string, pickupId: string, change: Api.PickupChange, options: CallOptions = {}): Promise<Api.Pickup> {
    return this.client.data('PATCH', `/connections/${segment(connectionId)}/pickups/${segment(pickupId)}`, { body: change, ...options });
  }
  async deletePickup(connectionId: string, pickupId: string, options: CallOptions = {}): Promise<void> {
    await this.client.call('DELETE', `/connections/${segment(connectionId)}/pickups/${segment(pickupId)}`, options);
  }
  /** Queues a run now; its record lists every file seen once it is over (runs()/run()). */
  runNow(connectionId: string, pickupId: string, options: CallOptions = {}): Promise<Api.PickupRun> {
    return this.client.data('POST', `/connections/${segment(connectionId)}/pickups/${segment(pickupId)}/run`, options);
  }
  /** The latest runs, newest first. */
  runs(connectionId: string, pickupId: string, options: CallOptions = {}): Promise<Api.PickupRun[]> {
    return this.client.data('GET', `/connections/${segment(connectionId)}/pickups/${segment(pickupId)}/runs`, options);
  }
  run(connectionId: string, pickupId: string, runId: string, options: CallOptions = {}): Promise<Api.PickupRun> {
    return this.client.data('GET', `/connections/${segment(connectionId)}/pickups/${segment(pickupId)}/runs/${segment(runId)}`, options);
  }
}

/**
 * The exceptions queue of the month-end close: the open items of a reconciliation and the
 * follow-up of each (assignee, due date, hold, comments, resolution by a note).
 */
class ExceptionsResource {
  constructor(private readonly client: LedgerRecon) {}
  /** One page of a reconciliation's exceptions, oldest first, for a screen that loads more as it is read. */
  page(reconciliationId: string, query: Api.QueryOf<'listReconciliationExceptions'> = {}, options: CallOptions = {}): Promise<Api.ExceptionPage> {
    return this.client.data('GET', `/reconciliations/${segment(reconciliationId)}/exceptions`, {
      query: { limit: this.client.pageSizeOf('listReconciliationExceptions'), ...query },
      ...options,
    });
  }
  /** Every exception of a reconciliation that the query selects (a period end, a view, an age bucket, an assignee), oldest first. */
  list(reconciliationId: string, query: Api.ExceptionQuery = {}, options: CallOptions = {}): AsyncGenerator<Api.Exception, void, undefined> {
    return itemsByBodyCursor(async (cursor) => {
      const page = await this.page(reconciliationId, { ...query, cursor }, options);
      return { items: page.items, nextCursor: page.nextCursor };
    });
  }
  /** One transaction as an exception, with its comment thread. */
  get(transactionId: string, options: CallOptions = {}): Promise<Api.ExceptionDetail> {
    return this.client.data('GET', `/exceptions/${segment(transactionId)}`, options);
  }
  /** Assigns (null unassigns), sets or clears the due date, puts on or takes off hold; what is left out stays. */
  update(transactionId: string, change: Api.ExceptionChange, options: CallOptions = {}): Promise<Api.ExceptionDetail> {
    return this.client.data('PATCH', `/exceptions/${segment(transactionId)}`, { body: change, ...options });
  }
  /**
   * Changes many exceptions at once (at most 500), all or nothing: assigns them (null unassigns),
   * sets or clears their due date, puts them on or takes them off hold; what is left out stays.
   */
  assign(assignment: Api.ExceptionBulkAssignment, options: CallOptions = {}): Promise<Api.ExceptionBulkAssignmentResult> {
    return this.client.data('POST', '/exceptions/assign', { body: assignment, ...options });
  }
  /** The same change (assignee, due date, hold) of many exceptions at once, all or nothing: `assign` by another name. */
  updateMany(transactionIds: string[], change: Api.ExceptionChange, options: CallOptions = {}): Promise<Api.ExceptionBulkAssignmentResult> {
    return this.assign({ transactionIds, ...change }, options);
  }
  /** The people an exception can be given to (the organization's active users, by id and name), readable by any member. */
  async assignees(options: CallOptions = {}): Promise<Api.ResponseOf<'listAssignees'>['people']> {
    const body = await this.client.data<Api.ResponseOf<'listAssignees'>>('GET', '/assignees', options);
    return body.people;
  }
  /** Adds a comment to the thread. */
  comment(transactionId: string, body: string, options: CallOptions = {}): Promise<Api.ExceptionComment> {
    return this.client.data('POST', `/exceptions/${segment(transactionId)}/comments`, { body: { body }, ...options });
  }
  /** Resolves an open exception by a note (a match or an adjustment resolves one by itself). */
  resolve(transactionId: string, note: string, options: CallOptions = {}): Promise<Api.ExceptionDetail> {
    return this.client.data('POST', `/exceptions/${segment(transactionId)}/resolve`, { body: { resolution: 'note', note }, ...options });
  }
  /** Reopens an exception resolved by a note; the note says why, in the audit trail. */
  reopen(transactionId: string, note?: string, options: CallOptions = {}): Promise<Api.ExceptionDetail> {
    return this.client.data('POST', `/exceptions/${segment(transactionId)}/reopen`, { body: note === undefined ? {} : { note }, ...options });
  }
}

/**
 * Tokens for a person signed in to the web app: asked of the same server's /auth/token with the
 * session cookie, which the browser sends itself (same origin). Use as `getAccessToken`.
 */
export function sessionAccessToken(baseUrl: string, fetchFunction: typeof fetch = (input, init) => globalThis.fetch(input, init)): FetchAccessToken {
  const url = `${trimSlash(baseUrl)}/auth/token`;
  return async () => {
    const response = await fetchFunction(url, { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' } });
    const text = await response.text();
    if (!response.ok) throw errorFromResponse('POST', url, response, text);
    return readTokenResponse(JSON.parse(text), url);
  };
}

/** How `wait` follows a job (an import, a run): how often it looks, and what it reports of each look. */
export interface WaitOptions<T> extends CallOptions {
  intervalMs?: number;
  onProgress?: (current: T) => void;
}

/** Reads a job until its status is one that ends it, reporting each look; the signal stops the waiting. */
async function pollUntilEnded<T extends { status: string }>(read: () => Promise<T>, endStatuses: ReadonlySet<string>, options: WaitOptions<T>): Promise<T> {
  for (;;) {
    const current = await read();
    options.onProgress?.(current);
    if (endStatuses.has(current.status)) return current;
    await sleep(options.intervalMs ?? POLL_INTERVAL_MS_DEFAULT, options.signal);
  }
}

export { collect };
