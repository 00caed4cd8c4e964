import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import { appendAuditEvents } from '../../db/repositories/audit-events.ts';
import { lockOrganization } from '../../db/repositories/organizations.ts';
import {
  compileRegularExpression,
  countRules,
  findRule,
  findRuleHistoryHead,
  findRules,
  findRuleVersions,
  insertRule,
  listRules,
  listRuleVersions,
  lockRule,
  setRulePriorities,
  softDeleteRule,
  updateRule,
  type RuleRow,
} from '../../db/repositories/rules.ts';
import { findDatasetSchema, type DatasetColumn } from '../../db/repositories/transaction-query.ts';
import { conflict, type ErrorDetail, invalidField, matchingErrors, notFound, quoteInput } from '../../errors.ts';
import { AuditActions, type WriteContext } from '../audit.ts';
import { UUID_PATTERN } from '../identifiers.ts';
import { canonicalJson, isPlainObject } from '../json.ts';
import { datasetIdsNamedBy, mergeRuleBody, orderRuleKeys, patternsNamedBy } from './rule-body.ts';
import { inspectRule, PRIORITY_STEP, ruleProblemsError, type RuleCheckOptions, type RuleCheckResult, type RuleProblem } from './rule-checker.ts';
import { RULE_LIMITS, type CheckedRule, type RuleBody } from './rule-definition.ts';
import { shadowingWarnings, type RankedRule } from './rule-shadowing.ts';
import { cutPage, pageSize, rowsToFetch } from '../pages.ts';

/** A rule as the API returns it: its body with its identity, version and history. */
export type RuleJson = { id: string } & RuleBody & {
    version: number;
    createdAt: string;
    createdBy: string;
    updatedAt: string;
    updatedBy: string;
  };

export interface RuleWarning {
  path: string;
  message: string;
}

/** The answer of a create or an update: the rule, with shadowing warnings when there are any. */
export type RuleWriteAnswer = RuleJson & { warnings?: RuleWarning[] };

export interface RuleValidation {
  /** Whether the draft has no errors (warnings do not make it invalid). */
  valid: boolean;
  problems: RuleProblem[];
}

export interface RuleVersionsPage {
  ruleId: string;
  currentVersion: number;
  /** When the rule was deleted; its versions stay readable, since matches name them. */
  deletedAt: string | null;
  /** Newest first. */
  versions: { version: number; createdAt: string; createdBy: string; rule: RuleBody }[];
  hasMore: boolean;
}

/**
 * PostgreSQL's verdict on each extraction pattern of a request, from Rules.checkPatterns: null
 * when it compiles, otherwise the problem to report.
 */
export type PatternVerdicts = ReadonlyMap<string, string | null>;

/** The highest version number a rule can have (versions are stored as PostgreSQL integers). */
export const RULE_VERSION_MAX = 2_147_483_647;
/** Versions of a rule per page; a page goes on from a version number (beforeVersion), not a cursor. */
export const RULE_VERSIONS_PAGE_SIZE = pageSize(100, 1000);

function ruleJsonOf(row: RuleRow): RuleJson {
  return {
    id: row.id,
    ...orderRuleKeys(row.body as RuleBody),
    version: row.version,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
  };
}

function rankedOf(row: RuleRow): RankedRule {
  const body = row.body as RuleBody;
  return { id: row.id, name: body.name, body, createdAt: row.createdAtKey };
}

function withWarnings(rule: RuleJson, warnings: readonly RuleProblem[]): RuleWriteAnswer {
  return warnings.length === 0 ? rule : { ...rule, warnings: warnings.map(({ path, message }) => ({ path, message })) };
}

/** The custom columns of the organization's datasets among `datasetIds`; unknown ids are left out. */
async function loadDatasetColumns(database: Queryable, organizationId: string, datasetIds: Iterable<string>): Promise<Map<string, DatasetColumn[]>> {
  const columns = new Map<string, DatasetColumn[]>();
  for (const datasetId of new Set(datasetIds)) {
    const schema = await findDatasetSchema(database, organizationId, datasetId);
    if (schema) columns.set(datasetId, schema.columns);
  }
  return columns;
}

/** Why PostgreSQL refuses a pattern, with the fix for the usual causes. */
function postgresPatternMessage(reason: string): string {
  const detail = reason.replace(/^invalid regular expression: /, '');
  const hint = /repetition count/.test(detail)
    ? '; a repetition count such as {1,300} may be at most 255 there'
    : /escape/.test(detail)
      ? '; PostgreSQL does not know this escape (\\p{...} classes, for one): use a bracket expression such as [[:alpha:]] or [0-9]'
      : '; write it in the syntax of PostgreSQL regular expressions';
  return `the pattern is refused by PostgreSQL, which runs it (${detail})${hint}`;
}

/** An integer that may also come as a string of digits (SPEC §2); undefined when it is neither. */
function integerOf(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^[0-9]{1,9}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(number) ? number : undefined;
}

/** Splits the optional "version" precondition off a PATCH body. */
function splitVersion(raw: Record<string, unknown>): { expectedVersion: unknown; patch: Record<string, unknown> } {
  const { version, ...patch } = raw;
  return { expectedVersion: version, patch };
}

const VERSION_RULE = 'must be the version you read (an integer); the change is made only if the rule is still at that version';

function staleVersionMessage(ruleId: string, current: number, expected: number): string {
  return `rule ${ruleId} is at version ${current}, not ${expected}: someone changed it since you read it; GET it again and reapply your change`;
}

/**
 * Matching rules (SPEC §8.1): create, read, update (each change a new version), delete,
 * reorder and validate, on top of rule-checker.ts.
 *
 * Extraction patterns are compiled by PostgreSQL too, because PostgreSQL runs them and accepts
 * a slightly different language than JavaScript. That check is a statement of its own, made
 * before the write's transaction (checkPatterns), for two reasons: a refused pattern is an
 * error, which would abort the transaction it ran in; and the embedded store runs one
 * transaction at a time, so a statement sent beside an open transaction would wait for it
 * forever. create and update therefore take the verdicts of checkPatterns, and refuse to store
 * a pattern that has none.
 */
export class Rules {
  constructor(private readonly database: Database) {}

  async list(organizationId: string): Promise<RuleJson[]> {
    return (await listRules(this.database, organizationId)).map(ruleJsonOf);
  }

  async get(organizationId: string, ruleId: string): Promise<RuleJson> {
    const row = await findRule(this.database, organizationId, ruleId);
    if (!row) throw notFound('rule', ruleId);
    return ruleJsonOf(row);
  }

  /** The versions of a rule, newest first; a deleted rule's too, since matches name them. */
  async versions(organizationId: string, ruleId: string, page: { limit: number; beforeVersion: number | null }): Promise<RuleVersionsPage> {
    const head = await findRuleHistoryHead(this.database, organizationId, ruleId);
    if (!head) throw notFound('rule', ruleId);
    const rows = await listRuleVersions(this.database, organizationId, ruleId, { beforeVersion: page.beforeVersion, limit: rowsToFetch(page.limit) });
    const { rows: versions, hasMore } = cutPage(rows, page.limit);
    return {
      ruleId,
      currentVersion: head.version,
      deletedAt: head.deletedAt,
      versions: versions.map((row) => ({
        version: row.version,
        createdAt: row.createdAt,
        createdBy: row.createdBy,
        rule: orderRuleKeys(row.body as RuleBody),
      })),
      hasMore,
    };
  }

  /**
   * Has PostgreSQL compile every extraction pattern of a rule body (or of a PATCH of one), each
   * in a statement of its own. Call it before the write's transaction; see the class comment.
   */
  async checkPatterns(raw: unknown): Promise<PatternVerdicts> {
    const verdicts = new Map<string, string | null>();
    for (const pattern of patternsNamedBy(raw)) {
      const reason = await compileRegularExpression(this.database, pattern);
      verdicts.set(pattern, reason === null ? null : postgresPatternMessage(reason));
    }
    return verdicts;
  }

  async create(transaction: Queryable, context: WriteContext, raw: unknown, patternVerdicts: PatternVerdicts = new Map()): Promise<RuleWriteAnswer> {
    const organizationId = context.organizationId;
    // Serializes rule creation in the organization, so that the limit on the number of rules
    // and the default priority (after the last rule) hold under concurrent requests.
    await lockOrganization(transaction, organizationId);
    const { count, maximumPriority } = await countRules(transaction, organizationId);
    if (count >= RULE_LIMITS.rulesPerOrganization) {
      throw conflict(
        `the organization already has ${RULE_LIMITS.rulesPerOrganization} rules, the most it may have; delete rules it no longer needs, or combine them with "any" groups`,
      );
    }
    const defaultPriority = maximumPriority === null ? PRIORITY_STEP : maximumPriority + PRIORITY_STEP;
    const { body } = await this.#check(transaction, organizationId, raw, { defaultPriority }, patternVerdicts, new Set());
    const row = await insertRule(transaction, {
      organizationId,
      id: randomUUID(),
      name: body.name,
      enabled: body.enabled,
      priority: body.priority,
      runOnIngest: body.runOnIngest,
      body,
      actor: context.actor,
    });
    const rule = ruleJsonOf(row);
    await appendAuditEvents(transaction, { ...context, note: null }, [ruleEvent(AuditActions.ruleCreated, null, rule)]);
    const others = (await listRules(transaction, organizationId)).map(rankedOf);
    return withWarnings(rule, shadowingWarnings(rankedOf(row), others));
  }

  /**
   * PATCH: a JSON merge patch (RFC 7396) of the stored body, checked again as a whole. A change
   * makes a new version; a patch that changes nothing makes none and returns the rule as it is.
   * An optional "version" is a precondition: the rule must still be at that version (409).
   */
  async update(
    transaction: Queryable,
    context: WriteContext,
    ruleId: string,
    raw: unknown,
    patternVerdicts: PatternVerdicts = new Map(),
  ): Promise<RuleWriteAnswer> {
    const organizationId = context.organizationId;
    if (!isPlainObject(raw)) throw invalidField('', 'must be a JSON object: the members of the rule to change (a JSON merge patch; null removes a member)');
    const stored = await lockRule(transaction, organizationId, ruleId);
    if (!stored) throw notFound('rule', ruleId);
    const { expectedVersion, patch } = splitVersion(raw);
    if (expectedVersion !== undefined) {
      const expected = integerOf(expectedVersion);
      if (expected === undefined) throw invalidField('/version', VERSION_RULE);
      if (expected !== stored.version)
        throw conflict(staleVersionMessage(ruleId, stored.version, expected), [{ path: '/version', message: `the rule is at version ${stored.version}` }]);
    }
    const storedBody = stored.body as RuleBody;
    const merged = mergeRuleBody(storedBody, patch);
    // Patterns kept from the stored body were compiled by PostgreSQL when they were stored.
    const { body } = await this.#check(
      transaction,
      organizationId,
      merged,
      { defaultPriority: storedBody.priority },
      patternVerdicts,
      new Set(patternsNamedBy(storedBody)),
    );
    const others = async () => (await listRules(transaction, organizationId)).map(rankedOf);
    if (canonicalJson(body) === canonicalJson(storedBody)) {
      return withWarnings(ruleJsonOf(stored), shadowingWarnings(rankedOf(stored), await others()));
    }
    const row = await updateRule(transaction, {
      organizationId,
      id: stored.id,
      name: body.name,
      enabled: body.enabled,
      priority: body.priority,
      runOnIngest: body.runOnIngest,
      body,
      actor: context.actor,
    });
    const rule = ruleJsonOf(row!);
    await appendAuditEvents(transaction, { ...context, note: null }, [ruleEvent(AuditActions.ruleUpdated, ruleJsonOf(stored), rule)]);
    return withWarnings(rule, shadowingWarnings(rankedOf(row!), await others()));
  }

  /** Marks the rule deleted; it stops running, and its versions stay for the matches that name them. */
  async delete(transaction: Queryable, context: WriteContext, ruleId: string): Promise<void> {
    const stored = await lockRule(transaction, context.organizationId, ruleId);
    if (!stored || !(await softDeleteRule(transaction, context.organizationId, ruleId, context.actor))) throw notFound('rule', ruleId);
    await appendAuditEvents(transaction, { ...context, note: null }, [ruleEvent(AuditActions.ruleDeleted, ruleJsonOf(stored), null)]);
  }

  /**
   * Gives the listed rules the priorities 10, 20, 30... in the order given; rules not listed
   * keep theirs. A reorder makes no new version: a version records what a rule matches and on
   * what evidence, so that a match can show the rule that made it, and a rule's rank among the
   * others changes neither (nor should reordering 50 rules make 50 versions). The priorities
   * change in the current bodies, and the reorder is recorded in the audit trail.
   */
  async reorder(transaction: Queryable, context: WriteContext, input: { ruleIds: readonly string[] }): Promise<RuleJson[]> {
    const organizationId = context.organizationId;
    const ruleIds = input.ruleIds.map((id) => id.toLowerCase());
    if (ruleIds.length === 0) throw invalidField('/ruleIds', 'must list at least one rule id, in the order the rules should run');
    if (ruleIds.length > RULE_LIMITS.rulesPerOrganization) {
      throw invalidField('/ruleIds', `must list at most ${RULE_LIMITS.rulesPerOrganization} rules, got ${ruleIds.length}`);
    }
    ruleIds.forEach((id, index) => {
      if (!UUID_PATTERN.test(id)) throw invalidField(`/ruleIds/${index}`, 'must be a rule id (a UUID)');
      const earlier = ruleIds.indexOf(id);
      if (earlier !== index) throw invalidField(`/ruleIds/${index}`, `repeats rule ${id} (already at /ruleIds/${earlier}); list each rule once`);
    });
    const rules = await listRules(transaction, organizationId, { lock: true });
    const byId = new Map(rules.map((row) => [row.id, row]));
    const missing: ErrorDetail[] = ruleIds.flatMap((id, index) =>
      byId.has(id) ? [] : [{ path: `/ruleIds/${index}`, message: `no rule ${id} in this organization (or it was deleted)` }],
    );
    if (missing.length > 0) {
      throw matchingErrors.rulesNotFound(missing);
    }
    const priorities = ruleIds.map((id, index) => ({ id, priority: PRIORITY_STEP * (index + 1) }));
    const changed = new Set(await setRulePriorities(transaction, organizationId, priorities, context.actor));
    if (changed.size > 0) {
      const moved = priorities.filter((entry) => changed.has(entry.id));
      await appendAuditEvents(transaction, { ...context, note: null }, [
        {
          action: AuditActions.rulesReordered,
          transactionId: null,
          relatedTransactionId: null,
          matchId: null,
          groupId: null,
          before: moved.map((entry) => ({ id: entry.id, priority: (byId.get(entry.id)!.body as RuleBody).priority })),
          after: moved,
        },
      ]);
    }
    return (await listRules(transaction, organizationId)).map(ruleJsonOf);
  }

  /**
   * Checks a draft without storing anything and reports every problem: errors (what create or
   * update would refuse) and warnings (rules of higher priority that shadow it, or that it
   * shadows). With `ruleId`, the draft is a PATCH of that rule: merged onto it, and the rule
   * itself is not compared with its own stored form.
   */
  async validate(organizationId: string, raw: unknown, options: { ruleId?: string } = {}): Promise<RuleValidation> {
    if (!isPlainObject(raw)) throw invalidField('', 'must be a JSON object: the rule draft to check');
    const errors: RuleProblem[] = [];
    let draft: unknown = raw;
    let stored: RuleRow | undefined;
    let defaultPriority: number;
    if (options.ruleId !== undefined) {
      stored = await findRule(this.database, organizationId, options.ruleId);
      if (!stored) throw notFound('rule', options.ruleId);
      const { expectedVersion, patch } = splitVersion(raw);
      if (expectedVersion !== undefined) {
        const expected = integerOf(expectedVersion);
        if (expected === undefined) errors.push({ path: '/version', message: VERSION_RULE, severity: 'error' });
        else if (expected !== stored.version)
          errors.push({ path: '/version', message: staleVersionMessage(stored.id, stored.version, expected), severity: 'error' });
      }
      draft = mergeRuleBody(stored.body, patch);
      defaultPriority = (stored.body as RuleBody).priority;
    } else {
      const { maximumPriority } = await countRules(this.database, organizationId);
      defaultPriority = maximumPriority === null ? PRIORITY_STEP : maximumPriority + PRIORITY_STEP;
    }
    const columns = await loadDatasetColumns(this.database, organizationId, datasetIdsNamedBy(draft));
    const inspection = inspectRule(draft, columns, { defaultPriority });
    errors.push(...inspection.problems.map((problem) => ({ ...problem, severity: 'error' as const })));
    if (inspection.omittedProblems > 0) {
      errors.push({ path: '', message: `${inspection.omittedProblems} more problems are not listed; fix these first`, severity: 'error' });
    }
    const alreadyStored = new Set(stored ? patternsNamedBy(stored.body) : []);
    for (const place of inspection.patterns) {
      if (alreadyStored.has(place.pattern)) continue;
      const reason = await compileRegularExpression(this.database, place.pattern);
      if (reason !== null) errors.push({ path: place.path, message: postgresPatternMessage(reason), severity: 'error' });
    }
    let warnings: RuleProblem[] = [];
    if (inspection.result !== null && errors.length === 0) {
      const body = inspection.result.body;
      const others = (await listRules(this.database, organizationId)).map(rankedOf);
      warnings = shadowingWarnings({ id: stored?.id ?? null, name: body.name, body, createdAt: stored?.createdAtKey ?? null }, others);
    }
    return { valid: errors.length === 0, problems: [...errors, ...warnings] };
  }

  /** For the engine: see the function loadForRun below. `database` may be the caller's transaction. */
  loadForRun(
    database: Queryable,
    organizationId: string,
    ruleIds: readonly string[] | null,
    options: { onlyRunOnIngest?: boolean } = {},
  ): Promise<CheckedRule[]> {
    return loadForRun(database, organizationId, ruleIds, options);
  }

  /** For the engine: see the function loadVersions below. */
  loadVersions(database: Queryable, organizationId: string, versions: readonly { id: string; version: number }[]): Promise<CheckedRule[]> {
    return loadVersions(database, organizationId, versions);
  }

  /** Checks a body against the datasets it names, with PostgreSQL's verdicts on its patterns. */
  async #check(
    transaction: Queryable,
    organizationId: string,
    raw: unknown,
    options: RuleCheckOptions,
    patternVerdicts: PatternVerdicts,
    compiledBefore: ReadonlySet<string>,
  ): Promise<RuleCheckResult> {
    const columns = await loadDatasetColumns(transaction, organizationId, datasetIdsNamedBy(raw));
    const inspection = inspectRule(raw, columns, options);
    const problems = [...inspection.problems];
    for (const place of inspection.patterns) {
      const verdict = patternVerdicts.get(place.pattern);
      if (verdict === undefined) {
        if (compiledBefore.has(place.pattern)) continue;
        throw new Error(
          `the pattern at ${place.path} was not compiled by PostgreSQL: pass the verdicts of Rules.checkPatterns(body), made before the transaction`,
        );
      }
      if (verdict !== null) problems.push({ path: place.path, message: verdict });
    }
    if (problems.length > 0 || inspection.result === null) throw ruleProblemsError(problems, inspection.omittedProblems);
    return inspection.result;
  }
}

function ruleEvent(action: string, before: RuleJson | null, after: RuleJson | null) {
  return { action, transactionId: null, relatedTransactionId: null, matchId: null, groupId: null, before, after };
}

// ---------------------------------------------------------------------------------------------
// For the engine
// ---------------------------------------------------------------------------------------------

/**
 * A stored body checked again against the datasets as they are now. Rules are checked when they
 * are written, but a dataset can change after (a column removed, a dataset gone), and the engine
 * must never compile a rule that no longer fits: it gets a clear 409 instead.
 */
function recheckStored(rule: { id: string; version: number; body: unknown }, columns: ReadonlyMap<string, DatasetColumn[]>): CheckedRule {
  const body = rule.body as RuleBody;
  const inspection = inspectRule(body, columns, { defaultPriority: body.priority });
  if (inspection.result === null) {
    const first = inspection.problems[0] ?? { path: '', message: 'is not a valid rule' };
    const more = inspection.problems.length - 1 + inspection.omittedProblems;
    throw conflict(
      `rule ${rule.id} ${quoteInput(body.name ?? '')} (version ${rule.version}) no longer fits its datasets, which changed after it was written: ` +
        `${first.path || '/'}: ${first.message}${more > 0 ? ` (and ${more} more)` : ''}; change the rule or disable it`,
    );
  }
  return { id: rule.id, version: rule.version, ...inspection.result.checked };
}

function datasetIdsOfBodies(bodies: readonly unknown[]): Set<string> {
  return new Set(bodies.flatMap((body) => datasetIdsNamedBy(body)));
}

/**
 * The rules a run applies, in run order (priority, creation, id), at their current versions.
 * Without `ruleIds`: every enabled rule. With `ruleIds`: exactly those rules, disabled ones
 * included, so that a rule can be tried in a dry run before it is enabled; an id without a rule
 * (or of a deleted one) is an invalid_request at /ruleIds/N. `onlyRunOnIngest` keeps the rules
 * with "runOnIngest": true.
 */
export async function loadForRun(
  database: Queryable,
  organizationId: string,
  ruleIds: readonly string[] | null,
  options: { onlyRunOnIngest?: boolean } = {},
): Promise<CheckedRule[]> {
  let rows: RuleRow[];
  if (ruleIds === null) {
    rows = await listRules(database, organizationId, { enabledOnly: true, runOnIngestOnly: options.onlyRunOnIngest ?? false });
  } else {
    const ids = ruleIds.map((id) => id.toLowerCase());
    const problems: ErrorDetail[] = [];
    ids.forEach((id, index) => {
      if (!UUID_PATTERN.test(id)) problems.push({ path: `/ruleIds/${index}`, message: 'must be a rule id (a UUID)' });
      else if (ids.indexOf(id) !== index)
        problems.push({ path: `/ruleIds/${index}`, message: `repeats rule ${id} (already at /ruleIds/${ids.indexOf(id)}); list each rule once` });
    });
    if (problems.length === 0) {
      rows = await findRules(database, organizationId, ids);
      const found = new Set(rows.map((row) => row.id));
      ids.forEach((id, index) => {
        if (!found.has(id))
          problems.push({ path: `/ruleIds/${index}`, message: `no rule ${id} in this organization (or it was deleted); the list of rules shows every rule` });
      });
    } else {
      rows = [];
    }
    if (problems.length > 0) {
      throw matchingErrors.ruleIdsInvalid(problems);
    }
    if (options.onlyRunOnIngest) rows = rows.filter((row) => (row.body as RuleBody).runOnIngest);
  }
  const columns = await loadDatasetColumns(database, organizationId, datasetIdsOfBodies(rows.map((row) => row.body)));
  return rows.map((row) => recheckStored(row, columns));
}

/**
 * Given versions of rules (those a run pinned), in the order given, each checked again against
 * the datasets as they are now. Versions of deleted rules load too. Note that a version's body
 * holds the priority the rule had when the version was made (a reorder makes no version): keep
 * the run order from loadForRun rather than sorting these by priority.
 */
export async function loadVersions(database: Queryable, organizationId: string, versions: readonly { id: string; version: number }[]): Promise<CheckedRule[]> {
  const wanted = versions.map((entry) => ({ id: entry.id.toLowerCase(), version: entry.version }));
  const invalid = wanted.findIndex((entry) => !UUID_PATTERN.test(entry.id) || !Number.isSafeInteger(entry.version));
  if (invalid !== -1) throw matchingErrors.ruleVersionInvalid(invalid);
  const rows = wanted.length === 0 ? [] : await findRuleVersions(database, organizationId, wanted);
  const byKey = new Map(rows.map((row) => [`${row.ruleId}:${row.version}`, row]));
  const missing = wanted.filter((entry) => !byKey.has(`${entry.id}:${entry.version}`));
  if (missing.length > 0) {
    throw conflict(
      `rule ${missing[0]!.id} has no version ${missing[0]!.version} in this organization${missing.length > 1 ? ` (and ${missing.length - 1} more versions are missing)` : ''}`,
    );
  }
  const columns = await loadDatasetColumns(database, organizationId, datasetIdsOfBodies(rows.map((row) => row.body)));
  return wanted.map((entry) => {
    const row = byKey.get(`${entry.id}:${entry.version}`)!;
    return recheckStored({ id: row.ruleId, version: row.version, body: row.body }, columns);
  });
}
