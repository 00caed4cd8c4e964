/**
 * Where each table would live on a distributed PostgreSQL (Citus), split by organization
 * (docs/SCALING.md). One list, read by the tests that keep the schema and the SQL ready for it:
 * test/db/organization-keys.test.ts (keys and foreign keys) and
 * test/db/organization-scope.test.ts (every query filters on organization_id).
 */

/** Tables of one organization's data: distributed by organization_id, all colocated. */
export const DISTRIBUTED_TABLES = [
  'users',
  'api_clients',
  'api_client_secrets',
  'sources',
  'datasets',
  'transactions',
  'match_groups',
  'matches',
  'audit_events',
  'idempotency_keys',
  'dataset_status_counts',
  'imports',
  'import_file_chunks',
  'import_mappings',
  'rules',
  'rule_versions',
  'runs',
  'run_progress',
  'run_results',
  'run_result_transactions',
  'suggestions',
  'rejected_options',
  'sessions',
  'invitations',
  'events',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_delivery_attempts',
  'event_removals',
  'reconciliations',
  'reconciliation_datasets',
  'close_periods',
  'close_signoffs',
  'exception_followups',
  'exception_comments',
  'exception_digests',
  'connections',
  'pickups',
  'pickup_runs',
  'pickup_files',
] as const;

/** Small tables every shard reads: copied to every node. */
export const REFERENCE_TABLES = ['organizations'] as const;

/**
 * Instance-wide tables that belong to no one organization: kept on the coordinator alone. The
 * job queue is one of them because every process claims from one queue of all organizations.
 */
export const COORDINATOR_TABLES = [
  'jobs',
  'job_key_states',
  'instance_settings',
  'signing_keys',
  'token_failures',
  'login_failures',
  'schema_migrations',
] as const;

/** The distribution column of every distributed table. */
export const DISTRIBUTION_COLUMN = 'organization_id';
