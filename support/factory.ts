/**
 * A small data factory: rows that tests and the bench make again and again, written once.
 * Bank and ledger records of the same number share a reference and an amount, so the
 * `referenceAndAmountRule` matches them in pairs.
 */

export interface RecordOptions {
  /** The first number (default 0). */
  start?: number;
  /** Epoch milliseconds of record 0; each later record is `step` milliseconds later. */
  timestamp?: number;
  step?: number;
}

/** `count` ingest records of one side ("bank", "ledger"...): externalId `${side}-${n}`, reference INV-n, amount n+1.25 EUR. */
export function transactionRecords(side: string, count: number, options: RecordOptions = {}) {
  const { start = 0, timestamp = 1_700_000_000_000, step = 1 } = options;
  return Array.from({ length: count }, (_, offset) => {
    const index = start + offset;
    return {
      externalId: `${side}-${index}`,
      timestamp: timestamp + index * step,
      description: `${side} ${index}`,
      reference: `INV-${index}`,
      amount: `${index + 1}.25`,
      currency: 'EUR',
    };
  });
}

/** A rule that matches one origin to one target of the same sign and the same reference. */
export function referenceAndAmountRule(originDatasetId: string, targetDatasetId: string) {
  return {
    name: 'Reference and amount',
    origin: { datasetIds: [originDatasetId] },
    target: { datasetIds: [targetDatasetId] },
    conditions: [
      { type: 'amount', sign: 'same' },
      { type: 'equals', origin: { path: 'reference' }, target: { path: 'reference' } },
    ],
  };
}
