import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { formatCount, formatDateTime } from '../format.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { useSources } from '../components/DatasetSelect.tsx';
import { messageOf, useSession } from '../session.tsx';

const COLUMN_TYPES = ['string', 'number', 'money', 'date', 'boolean'] as const;
const STATUSES = ['none', 'partial', 'full', 'informative', 'out of scope'] as const;

interface DraftColumn {
  name: string;
  type: (typeof COLUMN_TYPES)[number];
}

function NewDatasetForm({ sourceId, onDone }: { sourceId: string; onDone: () => void }) {
  const { recon } = useSession();
  const [name, setName] = useState('');
  const [columns, setColumns] = useState<DraftColumn[]>([]);
  const create = useMutation({ mutationFn: () => recon.datasets.create(sourceId, { name, columns: columns as never }), onSuccess: onDone });
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate();
  }
  return (
    <form onSubmit={submit} className="subform" aria-label="New dataset">
      <label>
        Dataset name
        <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} placeholder="e.g. Operating account EUR" />
      </label>
      <fieldset>
        <legend>Columns beyond the standard ones (timestamp, description, type, reference, currency, amount)</legend>
        {columns.map((column, index) => (
          <div className="row" key={index}>
            <input aria-label={`Column ${index + 1} name`} required value={column.name} onChange={(event) => setColumns(columns.map((other, at) => (at === index ? { ...other, name: event.target.value } : other)))} />
            <select aria-label={`Column ${index + 1} type`} value={column.type} onChange={(event) => setColumns(columns.map((other, at) => (at === index ? { ...other, type: event.target.value as DraftColumn['type'] } : other)))}>
              {COLUMN_TYPES.map((type) => (
                <option key={type}>{type}</option>
              ))}
            </select>
            <button type="button" className="secondary" onClick={() => setColumns(columns.filter((_, at) => at !== index))}>
              Remove
            </button>
          </div>
        ))}
        <button type="button" className="secondary" onClick={() => setColumns([...columns, { name: '', type: 'string' }])}>
          Add a column
        </button>
      </fieldset>
      <ErrorMessage error={create.error} />
      <div className="buttons">
        <button type="submit" disabled={create.isPending}>
          Create dataset
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function DatasetsPage() {
  const { session, recon } = useSession();
  const canWrite = session.user.role !== 'View-only';
  const client = useQueryClient();
  const sources = useSources();
  const [sourceName, setSourceName] = useState('');
  const [addingTo, setAddingTo] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ['sources'] });
  const createSource = useMutation({
    mutationFn: () => recon.sources.create({ name: sourceName }),
    onSuccess: () => {
      setSourceName('');
      void refresh();
    },
  });

  return (
    <>
      <section className="card">
        <h1>Sources and datasets</h1>
        <p className="hint">A source is a bank, a payment provider or a ledger; each of its datasets holds the transactions of one account or ledger.</p>
        {canWrite && (
          <form
            className="inline"
            onSubmit={(event) => {
              event.preventDefault();
              createSource.mutate();
            }}
          >
            <label>
              New source
              <input required maxLength={200} value={sourceName} onChange={(event) => setSourceName(event.target.value)} placeholder="e.g. Northwind Bank" />
            </label>
            <button type="submit" disabled={createSource.isPending}>
              Create source
            </button>
          </form>
        )}
        <ErrorMessage error={createSource.error} />
        {sources.isPending && <p role="status">Loading…</p>}
        <ErrorMessage error={sources.error} />
        {sources.data?.length === 0 && <p>No sources yet.</p>}
      </section>
      {sources.data?.map((source) => (
        <section className="card" key={source.id} aria-labelledby={`source-${source.id}`}>
          <h2 id={`source-${source.id}`}>{source.name}</h2>
          {source.datasets.length === 0 && <p className="hint">No datasets yet.</p>}
          {source.datasets.length > 0 && (
            <table>
              <TableHead columns={['Dataset', 'Transactions', ...STATUSES, 'Last received', 'Last file', 'Failed imports']} />
              <tbody>
                {source.datasets.map((dataset) => (
                  <tr key={dataset.id}>
                    <td>
                      <Link to={`/transactions?dataset=${dataset.id}`}>{dataset.name}</Link>
                      <br />
                      <span className="hint">{dataset.columns.filter((column) => !column.standard).map((column) => `${column.name}: ${column.type}`).join(', ')}</span>
                    </td>
                    <td>{formatCount(dataset.transactionCount)}</td>
                    {STATUSES.map((status) => (
                      <td key={status}>{formatCount(dataset.statusCounts[status])}</td>
                    ))}
                    <td>{formatDateTime(dataset.lastReceived)}</td>
                    <td>{dataset.lastFile ?? '—'}</td>
                    <td className={dataset.failures > 0 ? 'error' : undefined}>{dataset.failures}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {canWrite &&
            (addingTo === source.id ? (
              <NewDatasetForm
                sourceId={source.id}
                onDone={() => {
                  setAddingTo(null);
                  void refresh();
                }}
              />
            ) : (
              <button type="button" className="secondary" onClick={() => setAddingTo(source.id)}>
                Add a dataset to {source.name}
              </button>
            ))}
        </section>
      ))}
    </>
  );
}
