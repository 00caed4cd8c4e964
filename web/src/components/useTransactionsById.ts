import { useQueries, useQuery } from '@tanstack/react-query';
import type { Transaction } from '@ledger-recon/sdk';
import { useSession } from '../session.tsx';
import { COUNTERPARTY, NAMING_COLUMNS } from '../transaction-words.ts';
import { useDatasets } from './DatasetSelect.tsx';

/** The transactions of these ids, each read once and kept a while (several panels name the same ones). */
export function useTransactionsById(ids: readonly string[]): Map<string, Transaction> {
  const { recon } = useSession();
  const datasets = useDatasets();
  const unique = [...new Set(ids)];
  const results = useQueries({
    queries: unique.map((id) => ({
      queryKey: ['transaction', id],
      queryFn: async () => {
        const found = await recon.transactions.get(id, { columns: NAMING_COLUMNS });
        // A counterparty is a dataset's own column: asked for only where the dataset has one.
        const columns = datasets.find((dataset) => dataset.id === found.datasetId)?.columns ?? [];
        if (!columns.some((column) => column.name === COUNTERPARTY)) return found;
        return recon.transactions.get(id, { columns: [...NAMING_COLUMNS, COUNTERPARTY] });
      },
      staleTime: 30_000,
    })),
  });
  const found = new Map<string, Transaction>();
  unique.forEach((id, at) => {
    const data = results[at]?.data;
    if (data) found.set(id, data);
  });
  return found;
}

/** The organization's rules by id, for naming the rule behind a match. */
export function useRuleNames(): Map<string, string> {
  const { recon } = useSession();
  const rules = useQuery({ queryKey: ['rules'], queryFn: () => recon.rules.list(), staleTime: 30_000 });
  return new Map((rules.data ?? []).map((rule) => [rule.id, rule.name]));
}
