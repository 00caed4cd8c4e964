import type { LedgerRecon } from '@ledger-recon/sdk';

/** The organization's sources with their datasets: one query, read by the pickers and started early by the explorer. */
export function sourcesQuery(recon: LedgerRecon) {
  return { queryKey: ['sources'], queryFn: () => recon.sources.list() };
}
