import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Field, FieldError, FormError, useFieldAria } from '../components/FormField.tsx';
import { showServerErrors } from '../forms.ts';
import { formatCount } from '../format.ts';
import { Moment } from '../components/When.tsx';
import { ConfirmSubform } from '../components/ConfirmSubform.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { CopyButton } from '../components/CopyButton.tsx';
import { columnInWords } from '../audit-words.ts';
import { RECONCILIATION_STATUSES, type Dataset } from '@ledger-recon/sdk';
import { AccountInWords, DatasetAccountDialog } from '../components/DatasetAccountDialog.tsx';
import { useSession } from '../session.tsx';

const COLUMN_TYPES = ['string', 'number', 'money', 'date', 'boolean'] as const;

/** The server's longest name of a source or a dataset. */
const NAME_MAX_LENGTH = 200;

interface DraftColumn {
  name: string;
  type: (typeof COLUMN_TYPES)[number];
}

interface DraftDataset {
  name: string;
  columns: DraftColumn[];
}

/** The rules of a source's or a dataset's name, as the server checks them, with messages that name the field. */
function nameRules(label: string, example: string) {
  return {
    validate: (value: string) => value.trim() !== '' || `Give the ${label} a name, e.g. ${example}.`,
    maxLength: { value: NAME_MAX_LENGTH, message: `The ${label} name must have at most ${NAME_MAX_LENGTH} characters.` },
  };
}

function NewDatasetForm({ sourceId, onDone, onCreated }: { sourceId: string; onDone: () => void; onCreated: (dataset: Dataset) => void }) {
  const { recon } = useSession();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<DraftDataset>({ defaultValues: { name: '', columns: [] } });
  const columns = useFieldArray({ control, name: 'columns' });

  async function submit(draft: DraftDataset) {
    try {
      const created = await recon.datasets.create(sourceId, {
        name: draft.name.trim(),
        columns: draft.columns.map((column) => ({ ...column, name: column.name.trim() })) as never,
      });
      onCreated(created);
    } catch (caught) {
      const labels: Record<string, string> = { name: 'Dataset name', columns: 'Columns:' };
      // The server names a column by its place in the list, as the form's labels do.
      columns.fields.forEach((_, index) => {
        labels[`columns.${index}.name`] = `Column ${index + 1}:`;
        labels[`columns.${index}.type`] = `Column ${index + 1}:`;
      });
      showServerErrors(caught, setError, labels);
    }
  }

  return (
    <form onSubmit={handleSubmit(submit)} className="subform" aria-label="New dataset" noValidate>
      <Field label="Dataset name" error={errors.name}>
        {(aria) => <input placeholder="e.g. Operating account EUR" {...aria} {...register('name', nameRules('dataset', 'Operating account EUR'))} />}
      </Field>
      <fieldset>
        <legend>Columns beyond the standard ones (timestamp, description, type, reference, bank reference, currency, amount)</legend>
        {columns.fields.map((column, index) => (
          <ColumnRow key={column.id} index={index} errors={errors.columns?.[index]} register={register} onRemove={() => columns.remove(index)} />
        ))}
        <button type="button" className="secondary" onClick={() => columns.append({ name: '', type: 'string' })}>
          Add a column
        </button>
      </fieldset>
      <FormError error={errors.root?.server} />
      <div className="buttons">
        <button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Creating the dataset…' : 'Create dataset and import a file'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** One custom column of a new dataset: its name and type, each with its problem below it. */
function ColumnRow({
  index,
  errors,
  register,
  onRemove,
}: {
  index: number;
  errors: { name?: { message?: string }; type?: { message?: string } } | undefined;
  register: ReturnType<typeof useForm<DraftDataset>>['register'];
  onRemove: () => void;
}) {
  const nameAria = useFieldAria(errors?.name);
  const typeAria = useFieldAria(errors?.type);
  return (
    <div className="column-row">
      <div className="row">
        <input
          aria-label={`Column ${index + 1} name`}
          {...nameAria.aria}
          {...register(`columns.${index}.name`, {
            validate: (value) => value.trim() !== '' || `Column ${index + 1}: give the column a name, e.g. invoiceNumber.`,
          })}
        />
        <select aria-label={`Column ${index + 1} type`} {...typeAria.aria} {...register(`columns.${index}.type`)}>
          {COLUMN_TYPES.map((type) => (
            <option key={type}>{type}</option>
          ))}
        </select>
        <button type="button" className="secondary" onClick={onRemove}>
          Remove
        </button>
      </div>
      <FieldError id={nameAria.errorId} error={errors?.name} />
      <FieldError id={typeAria.errorId} error={errors?.type} />
    </div>
  );
}

/** What a dataset's row offers: nothing, renaming it, or confirming that it is archived. */
type RowMode = 'view' | 'rename' | 'archive';

/** A source's datasets: account, currency, columns in words, counts, the id for the API, and their next steps. */
function DatasetTable({
  datasets,
  canWrite,
  onChangeAccount,
  onChanged,
}: {
  datasets: Dataset[];
  canWrite: boolean;
  onChangeAccount: (dataset: Dataset) => void;
  onChanged: (message: string) => void;
}) {
  if (datasets.length === 0) return null;
  return (
    <table className="datasets-table">
      <TableHead
        columns={[
          'Dataset',
          '#Transactions',
          ...RECONCILIATION_STATUSES.map((status) => `#${statusWords(status)}`),
          'Last received',
          'Last file',
          '#Failed imports',
        ]}
      />
      <tbody>
        {datasets.map((dataset) => (
          <DatasetRow key={dataset.id} dataset={dataset} canWrite={canWrite} onChangeAccount={onChangeAccount} onChanged={onChanged} />
        ))}
      </tbody>
    </table>
  );
}

/** A reconciliation status as a column header says it. */
function statusWords(status: string): string {
  const words: Record<string, string> = {
    none: 'Open',
    partial: 'Partly matched',
    full: 'Matched',
    informative: 'Informative',
    'out of scope': 'Out of scope',
  };
  return words[status] ?? status;
}

function DatasetRow({
  dataset,
  canWrite,
  onChangeAccount,
  onChanged,
}: {
  dataset: Dataset;
  canWrite: boolean;
  onChangeAccount: (dataset: Dataset) => void;
  onChanged: (message: string) => void;
}) {
  const { recon } = useSession();
  const [mode, setMode] = useState<RowMode>('view');
  const archived = dataset.status === 'archived';
  const customColumns = dataset.columns.filter((column) => !column.standard);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<{ name: string }>({ values: { name: dataset.name } });
  const archive = useMutation({
    mutationFn: (archive: boolean) => recon.datasets.update(dataset.id, { archived: archive }),
    onSuccess: (changed) => {
      setMode('view');
      onChanged(
        changed.status === 'archived'
          ? `${changed.name} is archived: hidden from the other screens, its transactions and matches kept.`
          : `${changed.name} is restored.`,
      );
    },
  });

  async function rename({ name }: { name: string }) {
    try {
      const changed = await recon.datasets.update(dataset.id, { name: name.trim() });
      setMode('view');
      onChanged(`${dataset.name} is now called ${changed.name}.`);
    } catch (caught) {
      showServerErrors(caught, setError, { name: 'New name' });
    }
  }

  return (
    <tr>
      <td className="dataset-cell" data-label="Dataset">
        {archived ? (
          <strong id={`dataset-name-${dataset.id}`}>{dataset.name}</strong>
        ) : (
          <Link id={`dataset-name-${dataset.id}`} to={`/transactions?dataset=${dataset.id}`}>
            {dataset.name}
          </Link>
        )}
        <div className="dataset-account">
          <AccountInWords dataset={dataset} />
          {canWrite && !archived && (
            <button
              type="button"
              className="secondary small"
              aria-label={`${dataset.accountId === null ? 'Set the account' : 'Change the account'} of ${dataset.name}`}
              onClick={() => onChangeAccount(dataset)}
            >
              {dataset.accountId === null ? 'Set the account' : 'Change the account'}
            </button>
          )}
        </div>
        {customColumns.length > 0 && (
          <ul className="dataset-columns" aria-label={`Columns of ${dataset.name} beyond the standard ones`}>
            {customColumns.map((column) => (
              <li key={column.name}>{columnInWords(column)}</li>
            ))}
          </ul>
        )}
        {/* The one id on a screen: for an engineer, labelled as such (screen checks leave it out). */}
        <div className="dataset-id" data-for-engineers>
          <span>Dataset id for the API:</span> <code>{dataset.id}</code> <CopyButton value={dataset.id} label={`the API id of ${dataset.name}`} />
        </div>
        {canWrite && mode === 'view' && (
          <div className="dataset-actions">
            {!archived && (
              <Link className="button" to={`/imports?dataset=${encodeURIComponent(dataset.id)}`} aria-describedby={`dataset-name-${dataset.id}`}>
                Import a file
              </Link>
            )}
            {!archived && (
              <button type="button" className="secondary small" aria-label={`Rename ${dataset.name}`} onClick={() => setMode('rename')}>
                Rename
              </button>
            )}
            {archived ? (
              <button
                type="button"
                className="secondary small"
                aria-label={`Restore ${dataset.name}`}
                disabled={archive.isPending}
                onClick={() => archive.mutate(false)}
              >
                {archive.isPending ? 'Restoring…' : 'Restore'}
              </button>
            ) : (
              <button type="button" className="secondary small" aria-label={`Archive ${dataset.name}`} onClick={() => setMode('archive')}>
                Archive
              </button>
            )}
          </div>
        )}
        {mode === 'rename' && (
          <form className="subform" aria-label={`Rename ${dataset.name}`} onSubmit={handleSubmit(rename)} noValidate>
            <Field label="New name" error={errors.name}>
              {(aria) => <input {...aria} {...register('name', nameRules('dataset', 'Operating account EUR'))} />}
            </Field>
            <FormError error={errors.root?.server} />
            <div className="buttons">
              <button type="submit" disabled={isSubmitting}>
                {isSubmitting ? 'Saving…' : 'Save the name'}
              </button>
              <button type="button" className="secondary" onClick={() => setMode('view')}>
                Cancel
              </button>
            </div>
          </form>
        )}
        {mode === 'archive' && (
          <ConfirmSubform
            label={`Archive ${dataset.name}`}
            error={archive.error}
            pending={archive.isPending}
            confirmLabel="Archive the dataset"
            pendingLabel="Archiving…"
            onConfirm={() => archive.mutate(true)}
            onCancel={() => setMode('view')}
          >
            Archive {dataset.name}? It is hidden from the lists and pickers of the other screens. Its {formatCount(dataset.transactionCount)} transactions and
            their matches are kept, and you can restore it here at any time.
          </ConfirmSubform>
        )}
      </td>
      <td className="number" data-label="Transactions">
        {formatCount(dataset.transactionCount)}
      </td>
      {RECONCILIATION_STATUSES.map((status) => (
        <td key={status} className="number" data-label={statusWords(status)}>
          {formatCount(dataset.statusCounts[status])}
        </td>
      ))}
      <td data-label="Last received">
        <Moment value={dataset.lastReceived} />
      </td>
      <td data-label="Last file">{dataset.lastFile ?? '—'}</td>
      <td className={dataset.failures > 0 ? 'number error' : 'number'} data-label="Failed imports">
        {dataset.failures}
      </td>
    </tr>
  );
}

export function DatasetsPage() {
  const { session, recon } = useSession();
  const canWrite = session.user.role !== 'View-only';
  const client = useQueryClient();
  // This screen lists archived datasets too (below the others); the pickers do not.
  const sources = useQuery({ queryKey: ['sources', 'with archived'], queryFn: () => recon.sources.list({ includeArchived: true }) });
  const navigate = useNavigate();
  const [showArchived, setShowArchived] = useState(false);
  const [addingTo, setAddingTo] = useState<string | null>(null);
  // The dataset whose account is being changed, and what the last change did (shown in its source's card).
  const [editingAccount, setEditingAccount] = useState<Dataset | null>(null);
  const [accountSaved, setAccountSaved] = useState<{ sourceId: string; message: string } | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ['sources'] });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<{ name: string }>({ defaultValues: { name: '' } });
  const createSource = useMutation({
    mutationFn: (name: string) => recon.sources.create({ name }),
    onSuccess: () => {
      reset();
      void refresh();
    },
  });

  async function submitSource({ name }: { name: string }) {
    try {
      await createSource.mutateAsync(name.trim());
    } catch (caught) {
      showServerErrors(caught, setError, { name: 'New source' });
    }
  }

  return (
    <>
      <section className="card">
        <h1>Sources and datasets</h1>
        <p className="hint">A source is a bank, a payment provider or a ledger; each of its datasets holds the transactions of one account or ledger.</p>
        {canWrite && (
          <form className="inline" onSubmit={handleSubmit(submitSource)} noValidate>
            <Field label="New source" error={errors.name}>
              {(aria) => <input placeholder="e.g. Northwind Bank" {...aria} {...register('name', nameRules('source', 'Northwind Bank'))} />}
            </Field>
            <button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Creating the source…' : 'Create source'}
            </button>
            <FormError error={errors.root?.server} />
          </form>
        )}
        {sources.isPending && <p role="status">Loading…</p>}
        <ErrorMessage error={sources.error} />
        {sources.data?.length === 0 && <p>No sources yet.</p>}
      </section>
      {sources.data?.map((source) => (
        <section className="card" key={source.id} aria-labelledby={`source-${source.id}`}>
          <h2 id={`source-${source.id}`}>{source.name}</h2>
          {source.datasets.every((dataset) => dataset.status === 'archived') && <p className="hint">No datasets yet.</p>}
          {accountSaved?.sourceId === source.id && (
            <p className="success" role="status">
              {accountSaved.message}
            </p>
          )}
          <DatasetTable
            datasets={source.datasets.filter((dataset) => dataset.status !== 'archived')}
            canWrite={canWrite}
            onChangeAccount={(dataset) => {
              setAccountSaved(null);
              setEditingAccount(dataset);
            }}
            onChanged={(message) => {
              setAccountSaved({ sourceId: source.id, message });
              void refresh();
            }}
          />
          {source.datasets.some((dataset) => dataset.status === 'archived') &&
            (showArchived ? (
              <>
                <h3>Archived datasets</h3>
                <p className="hint">Hidden from the lists and pickers of the other screens; their transactions and matches are kept.</p>
                <DatasetTable
                  datasets={source.datasets.filter((dataset) => dataset.status === 'archived')}
                  canWrite={canWrite}
                  onChangeAccount={() => {}}
                  onChanged={(message) => {
                    setAccountSaved({ sourceId: source.id, message });
                    void refresh();
                  }}
                />
              </>
            ) : (
              <button type="button" className="secondary small" onClick={() => setShowArchived(true)}>
                Show {formatCount(source.datasets.filter((dataset) => dataset.status === 'archived').length)} archived{' '}
                {source.datasets.filter((dataset) => dataset.status === 'archived').length === 1 ? 'dataset' : 'datasets'}
              </button>
            ))}
          {canWrite &&
            (addingTo === source.id ? (
              <NewDatasetForm
                sourceId={source.id}
                onDone={() => setAddingTo(null)}
                onCreated={(dataset) => {
                  setAddingTo(null);
                  void refresh();
                  void navigate(`/imports?dataset=${encodeURIComponent(dataset.id)}`);
                }}
              />
            ) : (
              <button type="button" className="secondary" onClick={() => setAddingTo(source.id)}>
                Add a dataset to {source.name}
              </button>
            ))}
        </section>
      ))}
      {editingAccount && (
        <DatasetAccountDialog
          dataset={editingAccount}
          onClose={() => setEditingAccount(null)}
          onSaved={(message) => {
            setAccountSaved({ sourceId: editingAccount.sourceId, message });
            setEditingAccount(null);
            void refresh();
          }}
        />
      )}
    </>
  );
}
