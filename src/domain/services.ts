import type { Config } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import { UserSessions } from './auth/user-sessions.ts';
import { DatasetOverviews } from './catalog/dataset-overview.ts';
import { DatasetSummaries } from './catalog/dataset-summary.ts';
import { AccessTokens } from './auth/access-tokens.ts';
import { ApiClients, secretHashKeyProvider } from './auth/api-clients.ts';
import { ClientCredentialsGrant } from './auth/client-credentials-grant.ts';
import { SigningKeys } from './auth/signing-keys.ts';
import { RequestRateLimit } from './auth/request-rate-limit.ts';
import { TransactionQueries } from './transactions/query.ts';
import { AuditTrail } from './audit.ts';
import { SealedPositions } from './sealed-positions.ts';
import { Datasets } from './catalog/datasets.ts';
import { Sources } from './catalog/sources.ts';
import { Idempotency } from './idempotency.ts';
import { Matching } from './matching/matches.ts';
import { ingestRecords } from './transactions/ingest.ts';
import { TransactionStatus } from './transactions/status.ts';
import { JobQueue } from './jobs/job-queue.ts';
import { Imports } from './imports/imports.ts';
import { ImportUndo } from './imports/import-undo.ts';
import { Runs } from './matching/runs.ts';
import { Suggestions } from './matching/suggestions.ts';
import type { WriteContext } from './audit.ts';
import { Rules } from './matching/rules.ts';
import { Events } from './events.ts';
import { DELIVERIES_PER_ENDPOINT, deliverySlotShares, WebhookDeliverer } from './webhooks/deliveries.ts';
import { WebhookEndpoints } from './webhooks/endpoints.ts';
import { Retention } from './retention.ts';
import { Exceptions } from './close/exceptions.ts';
import { ExceptionDigest } from './close/exception-digest.ts';
import { Problems } from './problems.ts';
import type { Clock } from './clock.ts';
import { Reconciliations } from './close/reconciliations.ts';
import { CloseSignoff } from './close/signoff.ts';
import { CloseReports, exceptionsOfStatement } from './close/report-files.ts';
import { Connections } from './connections/connections.ts';
import { PickupRuns } from './connections/pickup-runs.ts';
import { systemClock } from './clock.ts';

/**
 * The domain, wired once per process. The HTTP layer and the CLI reach the domain only through
 * this object; nothing here knows about HTTP.
 */
export function createServices(config: Config, database: Database, options: { clock?: Clock } = {}) {
  const issuer = `${config.publicUrl}/`;
  const problems = new Problems();
  const signingKeys = new SigningKeys(database, config.tokenTtlSeconds);
  const accessTokens = new AccessTokens(database, signingKeys, {
    issuer,
    audience: config.audience,
    tokenTtlSeconds: config.tokenTtlSeconds,
    revocationCheckSeconds: config.revocationCheckSeconds,
  });
  const hashKey = secretHashKeyProvider(database, config.secretHashKey);
  const grant = new ClientCredentialsGrant(database, accessTokens, hashKey, {
    audience: config.audience,
    failureLimit: config.tokenFailureLimit,
    failureLimitPerClient: config.tokenFailureClientLimit,
    failureWindowSeconds: config.tokenFailureWindowSeconds,
    clock: options.clock,
  });
  const apiClients = new ApiClients(database, hashKey, (clientId) => {
    accessTokens.forgetClient(clientId);
    grant.forgetClient(clientId);
  });
  const requestRateLimit = new RequestRateLimit(config.apiRequestsPerMinute);
  const transactionQueries = new TransactionQueries(database);
  const sources = new Sources(database);
  const datasets = new Datasets();
  const transactionStatus = new TransactionStatus(database);
  const matching = new Matching();
  // Cursors of lists ordered by a counter all organizations share are sealed with a key derived from the instance's.
  const positions = new SealedPositions(() => hashKey());
  const auditTrail = new AuditTrail(database, positions);
  const idempotency = new Idempotency(database, hashKey);
  // Webhook deliveries have a queue of their own, so that slow receivers never hold back
  // imports and runs (see webhooks/deliveries.ts); a finished import or run wakes it.
  const webhookJobs = new JobQueue(database, {
    leaseSeconds: Math.max(config.jobLeaseSeconds, config.webhookTimeoutSeconds * 2),
    concurrency: config.webhookConcurrency,
    perKeyConcurrency: DELIVERIES_PER_ENDPOINT,
    ...deliverySlotShares(config.webhookConcurrency),
    pollMilliseconds: 500,
  });
  const jobs = new JobQueue(database, { leaseSeconds: config.jobLeaseSeconds, afterEachJob: () => webhookJobs.wake() });
  const runs = new Runs(database, jobs, positions, { keyGroupMaxTransactions: config.keyGroupMaxTransactions });
  // Rules with runOnIngest run after every ingest and import that stores new transactions: the
  // run is queued in the same database transaction, so it exists exactly when the data does.
  const afterNewTransactions = (transaction: Queryable, context: WriteContext) => runs.afterIngest(transaction, context);
  const ingest = async (transaction: Queryable, context: WriteContext, datasetId: string, records: readonly unknown[]) => {
    const result = await ingestRecords(transaction, context, datasetId, records);
    if (result.inserted > 0) await afterNewTransactions(transaction, context);
    return result;
  };
  const imports = new Imports(database, jobs, problems, afterNewTransactions);
  const suggestions = new Suggestions(database);
  new WebhookDeliverer(database, webhookJobs, {
    timeoutSeconds: config.webhookTimeoutSeconds,
    retryBaseMilliseconds: config.webhookRetryBaseMilliseconds,
    giveUpSeconds: config.webhookGiveUpSeconds,
    allowPrivateTargets: config.webhookAllowPrivateTargets,
  });
  // Removing events and deliveries past their retention is a recurring job of the main queue:
  // one process of those sharing the database runs it each hour.
  const retention = new Retention(
    database,
    { eventRetentionDays: config.eventRetentionDays, webhookDeliveryRetentionDays: config.webhookDeliveryRetentionDays },
    jobs,
  );
  const reconciliations = new Reconciliations(database);
  // The exceptions queue's daily digest is a recurring job of the main queue too.
  const exceptionDigest = new ExceptionDigest(
    database,
    { smtpUrl: config.smtpUrl, mailFrom: config.mailFrom, publicUrl: config.publicUrl },
    options.clock,
    jobs,
  );
  const closeSignoff = new CloseSignoff(database, reconciliations, options.clock);
  const exceptions = new Exceptions(database, options.clock);
  // Connections: files picked up from SFTP servers and folders, each run a job of the main queue.
  const connections = new Connections(
    database,
    jobs,
    {
      secretEncryptionKey: config.secretEncryptionKey,
      demo: config.seedDemo,
      connectorFolderRoot: config.connectorFolderRoot,
      connectorTimeoutSeconds: config.connectorTimeoutSeconds,
    },
    () => hashKey(),
    options.clock ?? systemClock,
  );
  const pickupRuns = new PickupRuns(
    database,
    jobs,
    connections,
    imports,
    { importMaxBytes: config.importMaxBytes, settleSeconds: config.connectorSettleSeconds, holdSeconds: Math.max(4, config.jobLeaseSeconds * 2) },
    options.clock ?? systemClock,
  );
  return {
    config,
    database,
    problems,
    issuer,
    signingKeys,
    accessTokens,
    grant,
    apiClients,
    userSessions: new UserSessions(database, accessTokens),
    datasetSummaries: new DatasetSummaries(database),
    datasetOverviews: new DatasetOverviews(database),
    requestRateLimit,
    transactionQueries,
    sources,
    datasets,
    ingest,
    transactionStatus,
    matching,
    auditTrail,
    idempotency,
    jobs,
    imports,
    importUndo: new ImportUndo(database, matching, imports.progress),
    rules: new Rules(database),
    runs,
    suggestions,
    events: new Events(database, positions),
    webhookJobs,
    retention,
    reconciliations,
    closeSignoff,
    closeReports: new CloseReports(closeSignoff, exceptionsOfStatement(exceptions)),
    exceptions,
    exceptionDigest,
    connections,
    pickupRuns,
    webhookEndpoints: new WebhookEndpoints(database, webhookJobs, { allowPrivateTargets: config.webhookAllowPrivateTargets }),
  };
}

export type Services = ReturnType<typeof createServices>;
