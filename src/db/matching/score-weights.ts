/**
 * How a candidate's score (0..1) weighs its parts: the amount difference against the tolerance,
 * the date distance against the window, and text similarity. A perfect candidate scores 1.
 * Here rather than in the domain because the run's SQL (rule-sql.ts, run-work.ts) computes scores
 * with them, and storage imports no value of the domain; the domain re-exports them
 * (domain/matching/rule-definition.ts) for the scores it computes itself (set-search.ts).
 */
export const SCORE_WEIGHTS = { amount: 0.5, date: 0.3, text: 0.2 } as const;
