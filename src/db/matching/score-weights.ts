/**
 * How a candidate's score (0..1) weighs its parts: the amount difference against the tolerance,
 * the date distance against the window, and text similarity. A perfect candidate scores 1.
 */
export const SCORE_WEIGHTS = { amount: 0.5, date: 0.3, text: 0.2 } as const;
