import { commonScale, unitsAt } from './allocation.ts';
import { SCORE_WEIGHTS } from './rule-definition.ts';

/**
 * The search for the set of counterparts whose total fits one transaction (SPEC §8.1: `1:N` and
 * `N:1` without `groupBy`). A subset-sum search over a short, ranked list of candidates, in exact
 * integer units, with a bound on the work it may do for one transaction: when the bound is hit
 * the search stops and says so, and the caller reports it instead of matching on a partial view.
 */

export const SET_SEARCH_LIMITS = {
  /** Candidates one transaction's search considers; more than this and the search is not attempted. */
  candidates: 40,
  /** Steps (sets tried) one transaction's search may take. */
  steps: 50_000,
  /** Fitting sets kept: enough to tell the best from its equals and to list them as options. */
  solutions: 50,
} as const;

export interface SetCandidate {
  id: string;
  /** What is left to allocate, a positive decimal text. */
  remaining: string;
  /** The pair's date part of the score, 0..1. */
  dateTerm: number;
  /** The pair's text part of the score, 0..1 (1 without similarity conditions). */
  textTerm: number;
}

export interface SetSearchInput {
  /** What is left of the transaction the set must fit. */
  anchorRemaining: string;
  /** The allowed difference between the anchor and the set's total, a decimal text (0 for exact). */
  tolerance: string;
  maxSize: number;
  candidates: readonly SetCandidate[];
  limits?: { steps: number; solutions: number };
}

export interface FoundSet {
  /** Indexes into the candidates, ascending. */
  members: number[];
  /** The set's total, in the search's units. */
  difference: bigint;
  score: number;
}

export interface SetSearchResult {
  /** Fitting sets, best first (score descending, then fewer members, then earlier candidates). */
  sets: FoundSet[];
  /** The search stopped at its step bound before trying every set. */
  boundHit: boolean;
  steps: number;
}

export function roundScore(score: number): number {
  return Math.round(score * 1e6) / 1e6;
}

export function searchSets(input: SetSearchInput): SetSearchResult {
  const limits = input.limits ?? SET_SEARCH_LIMITS;
  const scale = commonScale([input.anchorRemaining, input.tolerance, ...input.candidates.map((candidate) => candidate.remaining)]);
  const anchor = unitsAt(input.anchorRemaining, scale);
  const tolerance = unitsAt(input.tolerance, scale);
  // Largest first: totals grow fastest, so sets that overshoot are cut early.
  const order = input.candidates
    .map((_, index) => index)
    .sort((left, right) => {
      const difference = unitsAt(input.candidates[right]!.remaining, scale) - unitsAt(input.candidates[left]!.remaining, scale);
      return difference > 0n ? 1 : difference < 0n ? -1 : left - right;
    });
  const amounts = order.map((index) => unitsAt(input.candidates[index]!.remaining, scale));
  // suffix[i]: the total of every candidate from position i on, to cut sets that can no longer reach the anchor.
  const suffix = new Array<bigint>(amounts.length + 1).fill(0n);
  for (let position = amounts.length - 1; position >= 0; position -= 1) suffix[position] = suffix[position + 1]! + amounts[position]!;

  const sets: FoundSet[] = [];
  let steps = 0;
  let boundHit = false;
  const chosen: number[] = [];

  const visit = (start: number, total: bigint): void => {
    for (let position = start; position < amounts.length; position += 1) {
      if (boundHit) return;
      steps += 1;
      if (steps > limits.steps) {
        boundHit = true;
        return;
      }
      const next = total + amounts[position]!;
      if (next > anchor + tolerance) continue;
      if (next + suffix[position + 1]! < anchor - tolerance) return;
      chosen.push(position);
      const difference = anchor - next;
      if ((difference < 0n ? -difference : difference) <= tolerance) {
        sets.push({ members: chosen.map((place) => order[place]!).sort((a, b) => a - b), difference, score: 0 });
        if (sets.length >= limits.solutions) boundHit = true;
      }
      if (chosen.length < input.maxSize) visit(position + 1, next);
      chosen.pop();
    }
  };
  visit(0, 0n);

  for (const set of sets) {
    const amountTerm = tolerance > 0n ? Math.min(1, Number(set.difference < 0n ? -set.difference : set.difference) / Number(tolerance)) : 0;
    const dateTerm = set.members.reduce((sum, index) => sum + input.candidates[index]!.dateTerm, 0) / set.members.length;
    const textTerm = set.members.reduce((sum, index) => sum + input.candidates[index]!.textTerm, 0) / set.members.length;
    set.score = roundScore(1 - SCORE_WEIGHTS.amount * amountTerm - SCORE_WEIGHTS.date * dateTerm - SCORE_WEIGHTS.text * (1 - textTerm));
  }
  sets.sort((left, right) => right.score - left.score || left.members.length - right.members.length || compareMembers(left.members, right.members));
  return { sets, boundHit, steps };
}

function compareMembers(left: readonly number[], right: readonly number[]): number {
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    if (left[index] !== right[index]) return left[index]! - right[index]!;
  }
  return left.length - right.length;
}
