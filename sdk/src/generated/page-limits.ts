// Generated from docs/openapi.json by `npm run sdk:types`; do not edit.

/** The largest `limit` each list operation accepts, by operationId. */
export const PAGE_LIMIT_MAXIMA = {
  getMatchGroup: 10000,
  listAuditEvents: 1000,
  listImports: 200,
  listRuns: 200,
  listRunResults: 500,
  listSuggestions: 500,
  listCandidates: 100,
  listRuleVersions: 1000,
  listEvents: 1000,
  listWebhookDeliveries: 200,
  listReconciliations: 200,
  listReconciliationStatementItems: 500,
  listReconciliationExceptions: 500
} as const;
