import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { AccessTokens } from './auth/access-tokens.ts';
import { ApiClients, secretHashKeyProvider } from './auth/api-clients.ts';
import { ClientCredentialsGrant } from './auth/client-credentials-grant.ts';
import { SigningKeys } from './auth/signing-keys.ts';
import { RequestRateLimit } from './auth/request-rate-limit.ts';
import { TransactionQueries } from './transactions/query.ts';
import { AuditTrail } from './audit.ts';
import { Datasets } from './catalog/datasets.ts';
import { Sources } from './catalog/sources.ts';
import { Idempotency } from './idempotency.ts';
import { Matching } from './matching/matches.ts';
import { ingestRecords } from './transactions/ingest.ts';
import { TransactionStatus } from './transactions/status.ts';
import { JobQueue } from './jobs/job-queue.ts';
import { Imports } from './imports/imports.ts';

/**
 * The domain, wired once per process. The HTTP layer and the CLI reach the domain only through
 * this object; nothing here knows about HTTP.
 */
export function createServices(config: Config, database: Database) {
  const issuer = `${config.publicUrl}/`;
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
  });
  const apiClients = new ApiClients(database, hashKey, (clientId) => {
    accessTokens.forgetClient(clientId);
    grant.forgetClient(clientId);
  });
  const requestRateLimit = new RequestRateLimit(config.apiRequestsPerMinute);
  const transactionQueries = new TransactionQueries(database);
  const sources = new Sources(database);
  const datasets = new Datasets();
  const ingest = ingestRecords;
  const transactionStatus = new TransactionStatus(database);
  const matching = new Matching();
  const auditTrail = new AuditTrail(database);
  const idempotency = new Idempotency(database);
  const jobs = new JobQueue(database, { leaseSeconds: config.jobLeaseSeconds });
  const imports = new Imports(database, jobs);
  return {
    config,
    database,
    issuer,
    signingKeys,
    accessTokens,
    grant,
    apiClients,
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
  };
}

export type Services = ReturnType<typeof createServices>;
