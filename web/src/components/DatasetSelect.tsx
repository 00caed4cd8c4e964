import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Dataset } from '@ledger-recon/sdk';
import { useSession } from '../session.tsx';
import { sourcesQuery } from '../sources-query.ts';

export type NamedDataset = Dataset & { sourceName: string };

/** The organization's sources with their datasets, shared by every page that lists or picks them. */
export function useSources() {
  const { recon } = useSession();
  return useQuery(sourcesQuery(recon));
}

/** Every dataset of the organization with its source's name, as the pickers show them. */
export function useDatasets(): NamedDataset[] {
  const sources = useSources();
  return useMemo(() => (sources.data ?? []).flatMap((source) => source.datasets.map((dataset) => ({ ...dataset, sourceName: source.name }))), [sources.data]);
}

/** A dataset picker: "Source · Dataset" for each, with an empty choice when `placeholder` is given. */
export function DatasetSelect({
  label,
  value,
  onChange,
  datasets,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (datasetId: string) => void;
  datasets: NamedDataset[];
  placeholder?: string;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {datasets.map((dataset) => (
          <option key={dataset.id} value={dataset.id}>
            {dataset.sourceName} · {dataset.name}
          </option>
        ))}
      </select>
    </label>
  );
}
