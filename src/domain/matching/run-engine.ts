import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import {
  chooseBestFirst,
  collectGroupPairs,
  collectPairs,
  countOrigins,
  createRunTables,
  findAllPairs,
  findAmbiguities,
  findCandidateLists,
  findChosenUnits,
  findPairEvidence,
  findRejectedGroupKeys,
  findRunnersUp,
  findTransactionStates,
  findUnitMembers,
  insertClassifications,
  insertNettedResults,
  insertPairResults,
  insertResults,
  type CandidateList,
  type ResultInsert,
  type RunScope,
} from '../../db/matching/run-work.ts';
import { allocateGroup, allocateNetted, commonScale, decimalOf, unitsAt, type AllocationMember } from './allocation.ts';
import { SCORE_WEIGHTS, type CheckedCondition, type CheckedRule } from './rule-definition.ts';
import { roundScore, searchSets, SET_SEARCH_LIMITS, type SetCandidate } from './set-search.ts';

/**
 * The decisions of a run (SPEC §8.2): each rule in priority order, on the transactions earlier
 * rules of the run left, writes what it would do to run_results — matches, suggestions,
 * ambiguities, classifications, bounds hit. Nothing here changes a transaction or a match;
 * run-apply.ts carries the results out (at once for a commit run, later for a dry run).
 *
 * Candidate generation and the best-first choice are SQL over the whole sets (run-work.ts). The
 * application takes part only where the work is combinatorial and bounded per transaction: the
 * set search, and allocating a chosen group's links in exact decimals.
 */

/** A chosen group that allocation refuses, as its bounds result says. */
const UNALLOCATABLE_GROUP = 'the group fits the amount condition, but some of its transactions would get no part of the allocation; it was not matched';

/** Scores within this of each other are equal: a choice between them would be a guess. */
export const SCORE_MARGIN = 0.001;

export const ENGINE_LIMITS = {
  /** Rounds of the best-first choice for one rule. */
  choiceRounds: 20,
  /** Runners-up kept in a match's evidence. */
  runnersUp: 3,
  /** Options listed in one suggestion. */
  options: 10,
  /** Rejected group options an engine run reads (sets and groups of more than two transactions). */
  rejectedGroupKeys: 100_000,
  /** Ambiguities one rule reports in one run. */
  ambiguities: 10_000,
  /** Candidate pairs the connected-group search (N:M without groupBy) reads. */
  componentPairs: 200_000,
  /**
   * Member pairs of one groupBy key whose conditions are checked (its origins times its targets),
   * per transaction a key group may hold: 1,000,000 pairs under the default 100,000. A payout of
   * 100,000 rows against its one deposit is 100,000 pairs; the limit stops a key that many
   * transactions share on both sides from costing a run the square of its size.
   */
  keyGroupPairsPerTransaction: 10,
} as const;

/** What a run's engine is configured with (config.ts). */
export interface EngineSettings {
  /** The most transactions a side of a groupBy group may hold (KEY_GROUP_MAX_TRANSACTIONS). */
  keyGroupMaxTransactions: number;
}

export interface RuleCounts {
  ruleId: string;
  ruleVersion: number;
  name: string;
  matched: number;
  suggested: number;
  ambiguous: number;
  classified: number;
  boundsHit: number;
  candidates: number;
  durationMilliseconds: number;
}

export interface EngineProgress {
  /** Called after each rule with the origins it examined. */
  examined(count: number): void;
}

type TransactionState = {
  id: string;
  datasetId: string;
  remaining: string | null;
  status: string;
  allocated: string;
  /** The sign of the amount and the type, for a payout's netting and its evidence (groups by key). */
  sign?: number;
  type?: string | null;
};

export class RunEngine {
  constructor(private readonly settings: EngineSettings) {}

  /**
   * Counts the open origins of each rule before anything is decided: the run's progress is
   * counted in them, rule by rule, and their sum is its total.
   */
  async countOriginsByRule(transaction: Queryable, rules: readonly CheckedRule[], scope: RunScope): Promise<number[]> {
    await createRunTables(transaction);
    const counts: number[] = [];
    for (const rule of rules) counts.push(await countOrigins(transaction, rule, scope));
    return counts;
  }

  async decide(
    transaction: Queryable,
    input: { runId: string; rules: readonly CheckedRule[]; scope: RunScope; originsByRule: readonly number[] },
    progress: EngineProgress,
    signal: AbortSignal,
  ): Promise<RuleCounts[]> {
    await createRunTables(transaction);
    // The run reads one snapshot, so the rejected options are read once, when first needed.
    let rejected: Promise<Set<string>> | null = null;
    const rejectedGroupKeys = () => (rejected ??= findRejectedGroupKeys(transaction, input.scope.organizationId, ENGINE_LIMITS.rejectedGroupKeys));
    const counts: RuleCounts[] = [];
    for (const [index, rule] of input.rules.entries()) {
      if (signal.aborted) throw signal.reason;
      const started = performance.now();
      const count: RuleCounts = {
        ruleId: rule.id,
        ruleVersion: rule.version,
        name: rule.name,
        matched: 0,
        suggested: 0,
        ambiguous: 0,
        classified: 0,
        boundsHit: 0,
        candidates: 0,
        durationMilliseconds: 0,
      };
      // Only a later rule of the run reads what this one claimed; the last rule claims nothing.
      const claim = index < input.rules.length - 1;
      const context = { transaction, runId: input.runId, organizationId: input.scope.organizationId, rule, count, signal, rejectedGroupKeys, claim };
      if (rule.outcome.kind === 'classify') {
        count.classified = await insertClassifications(
          transaction,
          { runId: input.runId, organizationId: input.scope.organizationId, rule, status: rule.outcome.status, claim },
          input.scope,
        );
      } else if (rule.groupBy !== null) {
        await this.#grouped(context, input.scope);
      } else if (rule.cardinality === '1:1') {
        await this.#oneToOne(context, input.scope);
      } else if (rule.cardinality === 'N:M') {
        await this.#connectedGroups(context, input.scope);
      } else {
        await this.#setSearch(context, input.scope);
      }
      count.durationMilliseconds = Math.round(performance.now() - started);
      counts.push(count);
      progress.examined(input.originsByRule[index] ?? 0);
    }
    return counts;
  }

  /** 1:1: every fitting pair scored in SQL, chosen best first in SQL, written in SQL. */
  async #oneToOne(context: RuleContext, scope: RunScope): Promise<void> {
    const { transaction, rule, count } = context;
    count.candidates = await collectPairs(transaction, rule, scope, 'pair');
    await this.#reportRoundsExhausted(context, await chooseBestFirst(transaction, SCORE_MARGIN, ENGINE_LIMITS.choiceRounds, context.signal));
    const kind = rule.outcome.kind === 'suggest' ? 'suggestion' : 'match';
    const written = await insertPairResults(transaction, {
      runId: context.runId,
      organizationId: context.organizationId,
      rule,
      kind,
      runnersUp: ENGINE_LIMITS.runnersUp,
      claim: context.claim,
    });
    if (kind === 'match') count.matched += written;
    else count.suggested += written;
    await this.#ambiguities(context, async (units) => {
      const states = await findTransactionStates(transaction, context.organizationId, units);
      return new Map(units.filter((unit) => states.has(unit)).map((unit) => [unit, [states.get(unit)!]]));
    });
  }

  /** Groups by equal keys: candidates and choice in SQL over group units; links allocated here. */
  async #grouped(context: RuleContext, scope: RunScope): Promise<void> {
    const { transaction, rule, count } = context;
    const limit = this.settings.keyGroupMaxTransactions;
    const pairLimit = limit * ENGINE_LIMITS.keyGroupPairsPerTransaction;
    const { pairs, oversized } = await collectGroupPairs(transaction, rule, scope, {
      transactionsPerSide: limit,
      memberPairs: pairLimit,
    });
    count.candidates = pairs;
    await this.#reportBounds(
      context,
      oversized.map((group) => {
        // The key's parts are joined by a unit separator in SQL; shown with spaces.
        const key = group.key.replaceAll('\u001f', ' ').trim();
        const message =
          group.side === 'pairs'
            ? `the key "${key}" has ${group.origins} origins and ${group.targets} targets, whose ${group.size} pairs are more than the ${pairLimit} whose conditions a key group may check; it was not matched; give the origins a key of their own (another groupBy path) or narrow the rule's audience`
            : `the ${group.side} group with key "${key}" has ${group.size} transactions, more than the ${limit} a group formed by groupBy may hold (KEY_GROUP_MAX_TRANSACTIONS); it was not matched; split the key (add a groupBy path) or narrow the rule's audience`;
        return boundsResult(
          message,
          group.side === 'pairs'
            ? { key, origins: group.origins, targets: group.targets, pairs: group.size, limit: pairLimit }
            : { side: group.side, key, size: group.size, limit },
          group.ids.map((id) => ({ id, status: '', allocated: '' })),
        );
      }),
    );
    await this.#reportRoundsExhausted(context, await chooseBestFirst(transaction, SCORE_MARGIN, ENGINE_LIMITS.choiceRounds, context.signal));
    if (nettedRule(rule)) {
      // A payout's group is allocated and summarized by the database, all groups in one statement.
      if (context.signal.aborted) throw context.signal.reason;
      const kind = rule.outcome.kind === 'suggest' ? 'suggestion' : 'match';
      const written = await insertNettedResults(transaction, {
        runId: context.runId,
        organizationId: context.organizationId,
        rule,
        kind,
        runnersUp: ENGINE_LIMITS.runnersUp,
        rejectedKeys: ENGINE_LIMITS.rejectedGroupKeys,
        claim: context.claim,
        optionKeyLengthLimit: OPTION_KEY_LENGTH_LIMIT,
        boundsMessage: UNALLOCATABLE_GROUP,
      });
      if (kind === 'match') count.matched += written.decided;
      else count.suggested += written.decided;
      count.boundsHit += written.bounds;
      await this.#ambiguities(context, async (units) => findUnitMembers(transaction, context.organizationId, units));
      return;
    }
    const chosen = await findChosenUnits(transaction);
    const members = await findUnitMembers(
      transaction,
      context.organizationId,
      chosen.flatMap((pair) => [pair.originUnit, pair.targetUnit]),
    );
    const runnersUp = await findRunnersUp(transaction, chosen, ENGINE_LIMITS.runnersUp);
    const rejected = await context.rejectedGroupKeys();
    const decisions: Decision[] = chosen.map((pair) => ({
      origins: members.get(pair.originUnit) ?? [],
      targets: members.get(pair.targetUnit) ?? [],
      score: pair.score,
      runnersUp: (runnersUp.get(`${pair.originUnit}>${pair.targetUnit}`) ?? []).map((runnerUp) => ({
        origins: members.get(runnerUp.originUnit)?.map((member) => member.id) ?? [runnerUp.originUnit],
        targets: members.get(runnerUp.targetUnit)?.map((member) => member.id) ?? [runnerUp.targetUnit],
        score: runnerUp.score,
      })),
    }));
    const wanted = decisions.filter((decision) => !rejected.has(keyOf(decision)));
    await this.#writeDecisions(context, wanted);
    await this.#ambiguities(context, async (units) => findUnitMembers(transaction, context.organizationId, units));
  }

  /** 1:N and N:1 without groupBy: candidates in SQL, the set search here, bounded per transaction. */
  async #setSearch(context: RuleContext, scope: RunScope): Promise<void> {
    const { transaction, rule, count } = context;
    const anchorSide = rule.cardinality === '1:N' ? 'origin' : 'target';
    count.candidates = await collectPairs(transaction, rule, scope, anchorSide === 'origin' ? 'part-of-target-set' : 'part-of-origin-set');
    const lists = await findCandidateLists(transaction, context.organizationId, anchorSide, SET_SEARCH_LIMITS.candidates);
    const amount = amountCondition(rule);
    const rejected = await context.rejectedGroupKeys();
    const decisions: Decision[] = [];
    const ambiguous: ResultInsert[] = [];
    const bounds: ResultInsert[] = [];
    const sidesOf = (list: CandidateList, members: readonly CandidateList['candidates'][number][]) =>
      anchorSide === 'origin' ? { origins: [list.anchor], targets: [...members] } : { origins: [...members], targets: [list.anchor] };
    /** The fitting sets of one anchor among the given candidates, rejected ones left out; null when the search hit its bound. */
    const search = (list: CandidateList, candidates: CandidateList['candidates']) => {
      const tolerance = amount ? toleranceFor(amount, list.anchor.remaining!) : '0';
      const result = searchSets({ anchorRemaining: list.anchor.remaining!, tolerance, maxSize: rule.maxGroupSize, candidates: candidates.map(toSetCandidate) });
      if (result.boundHit) return null;
      // A set a person rejected is never proposed again (SPEC §8.4).
      return result.sets
        .map((set) => ({ score: set.score, members: set.members.map((index) => candidates[index]!) }))
        .filter((set) => {
          const sides = sidesOf(list, set.members);
          // The percent tolerance is of the origin side's total; for N:1 that is the set's total,
          // known only now, so a set found within the anchor's tolerance is checked again.
          if (amount && anchorSide === 'target' && !totalsFit(amount, sides.origins, sides.targets)) return false;
          return !rejected.has(keyOf(sides));
        });
    };

    const stepsExceeded = (list: CandidateList) =>
      setSearchBounds(
        list,
        `the set search stopped after ${SET_SEARCH_LIMITS.steps} steps without trying every set of up to ${rule.maxGroupSize}; narrow the rule to match it`,
      );

    // First every anchor's best sets among all its candidates, so that two anchors wanting the
    // same counterpart equally well are seen as a tie rather than settled by who came first.
    const searched: { list: CandidateList; sets: NonNullable<ReturnType<typeof search>>; order: number }[] = [];
    for (const [order, list] of lists.entries()) {
      if (context.signal.aborted) throw context.signal.reason;
      if (list.anchor.remaining === null) continue;
      if (list.total > SET_SEARCH_LIMITS.candidates) {
        bounds.push(
          setSearchBounds(
            list,
            `${list.total} counterparts fit, more than the ${SET_SEARCH_LIMITS.candidates} a set search considers; narrow the rule (a date window, an audience) to match it`,
          ),
        );
        continue;
      }
      const sets = search(list, list.candidates);
      if (sets === null) {
        bounds.push(stepsExceeded(list));
        continue;
      }
      if (sets.length > 0) searched.push({ list, sets, order });
    }
    // Then best first, in rounds, as for 1:1: an anchor takes its best set when that set is its
    // only best and no other anchor wants any of its counterparts as much (within the margin).
    // Taken counterparts leave the others' candidates, which search again among what is left.
    // What no round can decide is a tie, within one anchor or between anchors, and is reported.
    const micro = (score: number) => Math.round(score * 1_000_000);
    const margin = Math.round(SCORE_MARGIN * 1_000_000);
    type Entry = (typeof searched)[number];
    const equalsOf = (entry: Entry) => entry.sets.filter((set) => micro(set.score) >= micro(entry.sets[0]!.score) - margin);
    const claimed = new Set<string>();
    let pending: Entry[] = searched;
    for (let round = 0; round < ENGINE_LIMITS.choiceRounds && pending.length > 0; round += 1) {
      if (context.signal.aborted) throw context.signal.reason;
      const refreshed: Entry[] = [];
      for (const entry of pending) {
        if (claimed.has(entry.list.anchor.id)) continue;
        if (entry.sets.some((set) => set.members.some((member) => claimed.has(member.id)))) {
          const found = search(
            entry.list,
            entry.list.candidates.filter((candidate) => !claimed.has(candidate.id)),
          );
          if (found === null) {
            bounds.push(stepsExceeded(entry.list));
            continue;
          }
          if (found.length === 0) continue;
          entry.sets = found;
        }
        refreshed.push(entry);
      }
      pending = refreshed;
      const wanting = new Map<string, { entry: Entry; score: number }[]>();
      for (const entry of pending) {
        for (const set of equalsOf(entry)) {
          for (const member of set.members) wanting.set(member.id, [...(wanting.get(member.id) ?? []), { entry, score: micro(set.score) }]);
        }
      }
      const taken = pending.filter((entry) => {
        const equals = equalsOf(entry);
        if (equals.length > 1) return false;
        const score = micro(equals[0]!.score);
        return equals[0]!.members.every((member) => wanting.get(member.id)!.every((other) => other.entry === entry || other.score < score - margin));
      });
      if (taken.length === 0) break;
      for (const entry of taken) {
        const [best, ...others] = entry.sets;
        const runnersUp = others.slice(0, ENGINE_LIMITS.runnersUp).map((set) => {
          const { origins, targets } = sidesOf(entry.list, set.members);
          return { origins: origins.map((member) => member.id), targets: targets.map((member) => member.id), score: String(set.score) };
        });
        decisions.push({ ...sidesOf(entry.list, best!.members), score: String(best!.score), runnersUp });
        claimed.add(entry.list.anchor.id);
        for (const member of best!.members) claimed.add(member.id);
      }
      const takenSet = new Set(taken);
      pending = pending.filter((entry) => !takenSet.has(entry));
    }
    // The anchors left tie with themselves or with each other: one ambiguity per group of
    // anchors that want the same counterparts, listing every equally good option.
    const groupOf = new Map<string, number>();
    const groups: Entry[][] = [];
    for (const entry of pending) {
      const members = equalsOf(entry).flatMap((set) => set.members.map((member) => member.id));
      const joined = [...new Set(members.map((id) => groupOf.get(id)).filter((index): index is number => index !== undefined))];
      const index = joined.length > 0 ? joined[0]! : groups.push([]) - 1;
      for (const other of joined.slice(1)) {
        groups[index]!.push(...groups[other]!);
        for (const moved of groups[other]!) for (const set of equalsOf(moved)) for (const member of set.members) groupOf.set(member.id, index);
        groups[other] = [];
      }
      groups[index]!.push(entry);
      for (const id of members) groupOf.set(id, index);
    }
    for (const group of groups) {
      if (group.length === 0) continue;
      group.sort((left, right) => left.order - right.order);
      const options = group.flatMap((entry) => equalsOf(entry).map((set) => ({ ...sidesOf(entry.list, set.members), score: String(set.score) })));
      ambiguous.push(await this.#ambiguityResult(context, options.slice(0, ENGINE_LIMITS.options)));
    }
    count.boundsHit += bounds.length;
    count.ambiguous += ambiguous.length;
    await insertResults(transaction, this.#resultKeys(context), [...bounds, ...ambiguous]);
    await this.#writeDecisions(context, decisions);
  }

  /**
   * N:M without groupBy: the candidate pairs form a graph; each connected part with at most
   * maxGroupSize transactions a side whose totals fit the amount condition is one match group.
   * A part that is too large is reported, never cut.
   */
  async #connectedGroups(context: RuleContext, scope: RunScope): Promise<void> {
    const { transaction, rule, count } = context;
    count.candidates = await collectPairs(transaction, rule, scope, 'sign-only');
    const pairs = await findAllPairs(transaction, ENGINE_LIMITS.componentPairs + 1);
    if (pairs.length > ENGINE_LIMITS.componentPairs) {
      await this.#reportBounds(context, [
        boundsResult(
          `the rule has ${count.candidates} candidate pairs, more than the ${ENGINE_LIMITS.componentPairs} the connected-group search reads; add groupBy or narrow the rule`,
          { candidatePairs: count.candidates, limit: ENGINE_LIMITS.componentPairs },
        ),
      ]);
      return;
    }
    const components = connectedComponents(pairs);
    const rejected = await context.rejectedGroupKeys();
    const states = await findTransactionStates(
      transaction,
      context.organizationId,
      pairs.flatMap((pair) => [pair.originUnit, pair.targetUnit]),
    );
    const amount = amountCondition(rule);
    const decisions: Decision[] = [];
    const bounds: ResultInsert[] = [];
    for (const component of components) {
      const origins = component.origins
        .map((id) => states.get(id)!)
        .filter(Boolean)
        .sort(byAllocationOrder);
      const targets = component.targets
        .map((id) => states.get(id)!)
        .filter(Boolean)
        .sort(byAllocationOrder);
      if (origins.length > rule.maxGroupSize || targets.length > rule.maxGroupSize) {
        bounds.push(
          boundsResult(
            `a connected group of ${origins.length} origins and ${targets.length} targets is larger than maxGroupSize ${rule.maxGroupSize}; it was not matched`,
            { origins: origins.length, targets: targets.length, maxGroupSize: rule.maxGroupSize },
            [...origins, ...targets].slice(0, 40).map(stateOf),
          ),
        );
        continue;
      }
      if (amount && !totalsFit(amount, origins, targets)) continue;
      if (rejected.has(keyOf({ origins, targets }))) continue;
      const componentPairs = pairs.filter((pair) => component.origins.includes(pair.originUnit));
      const score = roundScore(
        1 -
          SCORE_WEIGHTS.amount * amountTerm(amount, origins, targets) -
          SCORE_WEIGHTS.date * mean(componentPairs.map((pair) => pair.dateTerm)) -
          SCORE_WEIGHTS.text * (1 - mean(componentPairs.map((pair) => pair.textTerm))),
      );
      decisions.push({ origins, targets, score: String(score), runnersUp: [] });
    }
    count.boundsHit += bounds.length;
    await insertResults(transaction, this.#resultKeys(context), bounds);
    await this.#writeDecisions(context, decisions);
  }

  /** Writes chosen groups as match (or suggestion) results, with evidence, in exact decimals. */
  async #writeDecisions(context: RuleContext, decisions: readonly Decision[]): Promise<void> {
    const { rule, count } = context;
    const amount = amountCondition(rule);
    const adjust = rule.adjustmentReason !== null && amount !== null;
    const batchSize = 500;
    for (let start = 0; start < decisions.length; start += batchSize) {
      if (context.signal.aborted) throw context.signal.reason;
      const batch = decisions.slice(start, start + batchSize);
      // A payout's evidence is a summary of its group, not the conditions of each of its pairs.
      const evidence = nettedRule(rule)
        ? new Map<string, unknown[]>()
        : await findPairEvidence(
            context.transaction,
            context.organizationId,
            rule,
            batch.flatMap((decision) => decision.origins.flatMap((origin) => decision.targets.map((target) => ({ originId: origin.id, targetId: target.id })))),
          );
      const results: ResultInsert[] = [];
      for (const decision of batch) {
        const option = this.#option(context, decision, evidence, adjust, amount);
        if (option === null) {
          // Never dropped silently: a group whose totals fit but whose links cannot all carry an amount.
          count.boundsHit += 1;
          results.push(boundsResult(UNALLOCATABLE_GROUP, { score: decision.score }, [...decision.origins, ...decision.targets].map(stateOf), decision.score));
          continue;
        }
        const kind = rule.outcome.kind === 'suggest' ? 'suggestion' : 'match';
        results.push({
          kind,
          transactions: [...decision.origins, ...decision.targets].map(stateOf),
          links: option.links,
          adjustment: option.adjustment,
          options: kind === 'suggestion' ? [option] : null,
          evidence: { ...option.evidence, runnersUp: decision.runnersUp },
          score: decision.score,
          status: null,
          message: null,
        });
        if (kind === 'match') count.matched += 1;
        else count.suggested += 1;
      }
      await insertResults(context.transaction, this.#resultKeys(context), results);
    }
  }

  /** One option (a group's links, adjustment and evidence); null when the group cannot be allocated. */
  #option(
    context: RuleContext,
    decision: Pick<Decision, 'origins' | 'targets' | 'score'>,
    evidence: Map<string, unknown[]>,
    adjust: boolean,
    amount: AmountCondition | null,
  ) {
    if (nettedRule(context.rule)) return nettedOption(context.rule, decision, adjust, amount);
    const allocation = allocateGroup(decision.origins.map(toMember), decision.targets.map(toMember), adjust);
    if (allocation === null) return null;
    const pairs = decision.origins.flatMap((origin) =>
      decision.targets.map((target) => ({
        originId: origin.id,
        targetId: target.id,
        conditions: (evidence.get(`${origin.id}>${target.id}`) ?? []).filter(notAmount),
      })),
    );
    const single = pairs.length === 1;
    const amountEvidence = amount ? totalsEvidence(amount, decision.origins, decision.targets) : null;
    return {
      key: keyOf(decision),
      links: allocation.links,
      adjustment:
        adjust && allocation.adjustmentAmount !== '0' && !/^0\.0*$/.test(allocation.adjustmentAmount)
          ? { amount: allocation.adjustmentAmount, reason: context.rule.adjustmentReason }
          : null,
      score: decision.score,
      evidence: single
        ? { conditions: [...(amountEvidence ? [amountEvidence] : []), ...pairs[0]!.conditions], score: decision.score }
        : { conditions: amountEvidence ? [amountEvidence] : [], pairs: pairs.slice(0, 100), score: decision.score },
    };
  }

  /** Ambiguities left after a best-first choice, as results listing every option. */
  async #ambiguities(context: RuleContext, membersOf: (units: string[]) => Promise<Map<string, TransactionState[]>>): Promise<void> {
    const found = await findAmbiguities(context.transaction, SCORE_MARGIN, ENGINE_LIMITS.ambiguities, ENGINE_LIMITS.options);
    if (found.length === 0) return;
    if (found.length >= ENGINE_LIMITS.ambiguities) {
      await this.#reportBounds(context, [
        boundsResult(
          `the rule found more than ${ENGINE_LIMITS.ambiguities} ambiguities; only the first ${ENGINE_LIMITS.ambiguities} are listed; add conditions that tell the candidates apart`,
          { ambiguities: ENGINE_LIMITS.ambiguities },
        ),
      ]);
    }
    const members = await membersOf([...new Set(found.flatMap((ambiguity) => ambiguity.options.flatMap((option) => [option.originUnit, option.targetUnit])))]);
    const rejected = await context.rejectedGroupKeys();
    const results: ResultInsert[] = [];
    for (const ambiguity of found) {
      const options = ambiguity.options
        .map((option) => ({ origins: members.get(option.originUnit) ?? [], targets: members.get(option.targetUnit) ?? [], score: option.score }))
        .filter((option) => option.origins.length > 0 && option.targets.length > 0)
        .filter((option) => !rejected.has(keyOf(option)));
      if (options.length < 2) continue;
      results.push(await this.#ambiguityResult(context, options));
    }
    context.count.ambiguous += results.length;
    await insertResults(context.transaction, this.#resultKeys(context), results);
  }

  async #ambiguityResult(context: RuleContext, options: readonly Pick<Decision, 'origins' | 'targets' | 'score'>[]): Promise<ResultInsert> {
    const amount = amountCondition(context.rule);
    const adjust = context.rule.adjustmentReason !== null && amount !== null;
    const evidence = nettedRule(context.rule)
      ? new Map<string, unknown[]>()
      : await findPairEvidence(
          context.transaction,
          context.organizationId,
          context.rule,
          options.flatMap((option) => option.origins.flatMap((origin) => option.targets.map((target) => ({ originId: origin.id, targetId: target.id })))),
        );
    const built = options.map((option) => this.#option(context, option, evidence, adjust, amount)).filter((option) => option !== null);
    const involved = new Map<string, TransactionState>();
    for (const option of options) for (const member of [...option.origins, ...option.targets]) involved.set(member.id, member);
    return {
      kind: 'ambiguous',
      transactions: [...involved.values()].map(stateOf),
      links: null,
      adjustment: null,
      options: built,
      evidence: { score: options[0]!.score, margin: SCORE_MARGIN },
      score: options[0]!.score,
      status: null,
      message: `${built.length} options fit equally well (scores within ${SCORE_MARGIN}); a person must choose`,
    };
  }

  /** Says in the results that the best-first choice stopped at its round bound with pairs undecided. */
  async #reportRoundsExhausted(context: RuleContext, choice: { roundsExhausted: boolean }): Promise<void> {
    if (!choice.roundsExhausted) return;
    await this.#reportBounds(context, [
      boundsResult(`the best-first choice stopped after ${ENGINE_LIMITS.choiceRounds} rounds with pairs still undecided; run the rule again to decide them`, {
        rounds: ENGINE_LIMITS.choiceRounds,
      }),
    ]);
  }

  /** Counts and writes the bounds a rule hit: a search that stopped is always said, never silent. */
  async #reportBounds(context: RuleContext, results: readonly ResultInsert[]): Promise<void> {
    context.count.boundsHit += results.length;
    await insertResults(context.transaction, this.#resultKeys(context), results);
  }

  #resultKeys(context: RuleContext) {
    return { runId: context.runId, organizationId: context.organizationId, ruleId: context.rule.id, ruleVersion: context.rule.version, claim: context.claim };
  }
}

interface RuleContext {
  transaction: Queryable;
  runId: string;
  organizationId: string;
  rule: CheckedRule;
  count: RuleCounts;
  signal: AbortSignal;
  /** Options of more than two transactions that people rejected; read once per run. */
  rejectedGroupKeys: () => Promise<Set<string>>;
  /** Whether the rule's matches and classifications are claimed for the run's later rules. */
  claim: boolean;
}

interface Decision {
  origins: TransactionState[];
  targets: TransactionState[];
  score: string;
  runnersUp: { origins: string[]; targets: string[]; score: string }[];
}

type AmountCondition = Extract<CheckedCondition, { type: 'amount' }>;

/** 1:N and N:1 groups by key net their members' signs (SPEC §16): a payout. */
function nettedRule(rule: CheckedRule): boolean {
  return rule.groupBy !== null && (rule.cardinality === '1:N' || rule.cardinality === 'N:1');
}

/**
 * A payout's option: its one deposit (the anchor) against the group's members, netted, with the
 * evidence as a summary of the group: its amount entry compares the deposit with the group's
 * signed total, and the group's counts and sums per type say what that total is made of. Every
 * other condition held for each member pair (that is what made the group a candidate).
 */
function nettedOption(rule: CheckedRule, decision: Pick<Decision, 'origins' | 'targets' | 'score'>, adjust: boolean, amount: AmountCondition | null) {
  const anchorSide = rule.cardinality === '1:N' ? 'origin' : 'target';
  const [anchors, members] = anchorSide === 'origin' ? [decision.origins, decision.targets] : [decision.targets, decision.origins];
  const anchor = anchors[0];
  if (anchors.length !== 1 || anchor === undefined) return null;
  // A member against the deposit's sign, as the amount condition reads signs, offsets it.
  const offsets = (member: TransactionState) =>
    amount !== null && amount.sign !== 'absolute' && (member.sign ?? 0) !== (amount.sign === 'same' ? 1 : -1) * (anchor.sign ?? 0);
  const allocation = allocateNetted(
    toMember(anchor),
    members.map((member) => ({ ...toMember(member), offsets: offsets(member) })),
    anchorSide,
    adjust,
  );
  if (allocation === null) return null;
  const [originTotal, targetTotal] = anchorSide === 'origin' ? [anchor.remaining ?? '0', allocation.net] : [allocation.net, anchor.remaining ?? '0'];
  const tolerance = amount ? toleranceFor(amount, originTotal) : '0';
  const scale = commonScale([originTotal, targetTotal, tolerance]);
  const difference = unitsAt(originTotal, scale) - unitsAt(targetTotal, scale);
  const held = (difference < 0n ? -difference : difference) <= unitsAt(tolerance, scale);
  const pairs = members.length;
  const conditions: unknown[] = [
    ...(amount
      ? [{ type: 'amount', sign: amount.sign, origin: originTotal, target: targetTotal, difference: decimalOf(difference, scale), tolerance, held }]
      : []),
    ...rule.conditions.filter((condition) => condition.type !== 'amount').map((condition) => ({ type: condition.type, held: true, pairs })),
    ...(rule.anyCurrency ? [] : [{ type: 'currency', held: true, pairs }]),
  ];
  return {
    key: keyOf(decision),
    links: allocation.links,
    adjustment:
      adjust && unitsAt(allocation.adjustmentAmount, commonScale([allocation.adjustmentAmount])) !== 0n
        ? { amount: allocation.adjustmentAmount, reason: rule.adjustmentReason }
        : null,
    score: decision.score,
    evidence: {
      conditions,
      group: {
        side: anchorSide === 'origin' ? 'target' : 'origin',
        transactions: members.length,
        byType: sumsByType(members),
        total: allocation.net,
        counterpart: { id: anchor.id, remaining: anchor.remaining },
        difference: decimalOf(difference, scale),
      },
      score: decision.score,
    },
  };
}

/** Count and signed sum of a group's members per type, the most frequent first: what a payout is made of. */
function sumsByType(members: readonly TransactionState[]): { type: string | null; count: number; sum: string }[] {
  const scale = commonScale(members.map((member) => member.remaining ?? '0'));
  const byType = new Map<string | null, { count: number; units: bigint }>();
  for (const member of members) {
    const type = member.type ?? null;
    const entry = byType.get(type) ?? { count: 0, units: 0n };
    const units = unitsAt(member.remaining ?? '0', scale);
    entry.count += 1;
    entry.units += (member.sign ?? 1) < 0 ? -units : units;
    byType.set(type, entry);
  }
  return [...byType.entries()]
    .sort(([leftType, left], [rightType, right]) => right.count - left.count || String(leftType).localeCompare(String(rightType)))
    .map(([type, entry]) => ({ type, count: entry.count, sum: decimalOf(entry.units, scale) }));
}

function amountCondition(rule: CheckedRule): AmountCondition | null {
  return (rule.conditions.find((condition) => condition.type === 'amount') as AmountCondition | undefined) ?? null;
}

/**
 * Keys longer than this are kept as their digest. Suggestions and rejected options are indexed by
 * their keys, and an index entry holds a few thousand bytes: the key of a payout of 300 rows
 * (11,000 characters) made its suggestion fail. Every key of a group of at most 20 transactions
 * (the largest before groups by key grew; 740 characters) stays as it was, so the options people
 * rejected then are still recognized.
 */
const OPTION_KEY_LENGTH_LIMIT = 800;

/** The key of an option: its transactions, sorted, origins before targets; a digest of that when long. */
export function optionKey(originIds: readonly string[], targetIds: readonly string[]): string {
  const key = `${[...originIds].sort().join(',')}>${[...targetIds].sort().join(',')}`;
  if (key.length <= OPTION_KEY_LENGTH_LIMIT) return key;
  // The comma keeps it among the group keys that findRejectedGroupKeys reads (pairs have none).
  return `sha256,${createHash('sha256').update(key).digest('hex')}`;
}

function keyOf(option: { origins: readonly { id: string }[]; targets: readonly { id: string }[] }): string {
  return optionKey(
    option.origins.map((member) => member.id),
    option.targets.map((member) => member.id),
  );
}

function notAmount(entry: unknown): boolean {
  return (entry as { type?: string }).type !== 'amount';
}

function stateOf(state: TransactionState): { id: string; status: string; allocated: string } {
  return { id: state.id, status: state.status, allocated: state.allocated };
}

function toMember(state: TransactionState): AllocationMember {
  return { id: state.id, datasetId: state.datasetId, remaining: state.remaining ?? '0' };
}

function toSetCandidate(candidate: CandidateList['candidates'][number]): SetCandidate {
  return { id: candidate.id, remaining: candidate.remaining, dateTerm: candidate.dateTerm, textTerm: candidate.textTerm };
}

/** A search that stopped at one of its bounds, as a result of kind "bounds". */
function boundsResult(
  message: string,
  evidence: Record<string, unknown>,
  transactions: ResultInsert['transactions'] = [],
  score: string | null = null,
): ResultInsert {
  return { kind: 'bounds', transactions, links: null, adjustment: null, options: null, evidence, score, status: null, message };
}

/** A set search that stopped for one anchor. */
function setSearchBounds(list: CandidateList, message: string): ResultInsert {
  return boundsResult(message, { candidates: list.total, limit: SET_SEARCH_LIMITS.candidates, steps: SET_SEARCH_LIMITS.steps }, [stateOf(list.anchor)]);
}

/** The order members are allocated in: by date, what is left and external id (findTransactionStates' position). */
function byAllocationOrder(left: TransactionState & { position: number }, right: TransactionState & { position: number }): number {
  return left.position - right.position;
}

/**
 * The tolerance of an amount condition for a total, exact: the larger of the absolute tolerance
 * and the percentage of the total.
 */
export function toleranceFor(condition: AmountCondition, total: string): string {
  const candidates: string[] = ['0'];
  if (condition.toleranceAbsolute !== null) candidates.push(condition.toleranceAbsolute);
  if (condition.tolerancePercent !== null) {
    const totalScale = commonScale([total]);
    const percentScale = commonScale([condition.tolerancePercent]);
    const product = unitsAt(total, totalScale) * unitsAt(condition.tolerancePercent, percentScale);
    // total × percent / 100: the product's scale plus two digits for the division by 100.
    candidates.push(decimalOf(product, totalScale + percentScale + 2));
  }
  const scale = commonScale(candidates);
  let largest = 0n;
  for (const candidate of candidates) {
    const units = unitsAt(candidate, scale);
    if (units > largest) largest = units;
  }
  return decimalOf(largest, scale);
}

function sum(states: readonly TransactionState[]): { units: bigint; scale: number } {
  const scale = commonScale(states.map((state) => state.remaining ?? '0'));
  return { units: states.reduce((total, state) => total + unitsAt(state.remaining ?? '0', scale), 0n), scale };
}

function totals(amount: AmountCondition, origins: readonly TransactionState[], targets: readonly TransactionState[]) {
  const origin = sum(origins);
  const target = sum(targets);
  const originText = decimalOf(origin.units, origin.scale);
  const targetText = decimalOf(target.units, target.scale);
  const tolerance = toleranceFor(amount, originText);
  const scale = commonScale([originText, targetText, tolerance]);
  const difference = unitsAt(originText, scale) - unitsAt(targetText, scale);
  return { originText, targetText, tolerance, scale, difference, toleranceUnits: unitsAt(tolerance, scale) };
}

function totalsFit(amount: AmountCondition, origins: readonly TransactionState[], targets: readonly TransactionState[]): boolean {
  const { difference, toleranceUnits } = totals(amount, origins, targets);
  return (difference < 0n ? -difference : difference) <= toleranceUnits;
}

function amountTerm(amount: AmountCondition | null, origins: readonly TransactionState[], targets: readonly TransactionState[]): number {
  if (!amount) return 0;
  const { difference, toleranceUnits } = totals(amount, origins, targets);
  if (toleranceUnits === 0n) return 0;
  return Math.min(1, Number(difference < 0n ? -difference : difference) / Number(toleranceUnits));
}

function totalsEvidence(amount: AmountCondition, origins: readonly TransactionState[], targets: readonly TransactionState[]) {
  const { originText, targetText, tolerance, scale, difference, toleranceUnits } = totals(amount, origins, targets);
  return {
    type: 'amount',
    sign: amount.sign,
    origin: originText,
    target: targetText,
    difference: decimalOf(difference, scale),
    tolerance,
    held: (difference < 0n ? -difference : difference) <= toleranceUnits,
  };
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((total, value) => total + value, 0) / values.length;
}

/** Connected parts of a bipartite graph given by its edges, in a deterministic order. */
function connectedComponents(pairs: readonly { originUnit: string; targetUnit: string }[]): { origins: string[]; targets: string[] }[] {
  const parent = new Map<string, string>();
  const find = (node: string): string => {
    let root = node;
    while (parent.get(root) !== root) root = parent.get(root)!;
    let current = node;
    while (parent.get(current) !== root) {
      const next = parent.get(current)!;
      parent.set(current, root);
      current = next;
    }
    return root;
  };
  const add = (node: string) => {
    if (!parent.has(node)) parent.set(node, node);
  };
  for (const pair of pairs) {
    const origin = `o:${pair.originUnit}`;
    const target = `t:${pair.targetUnit}`;
    add(origin);
    add(target);
    const left = find(origin);
    const right = find(target);
    if (left !== right) parent.set(left < right ? right : left, left < right ? left : right);
  }
  const components = new Map<string, { origins: string[]; targets: string[] }>();
  for (const node of [...parent.keys()].sort()) {
    const root = find(node);
    if (!components.has(root)) components.set(root, { origins: [], targets: [] });
    const component = components.get(root)!;
    if (node.startsWith('o:')) component.origins.push(node.slice(2));
    else component.targets.push(node.slice(2));
  }
  return [...components.values()];
}
