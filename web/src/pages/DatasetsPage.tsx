import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Field, FieldError, FormError, useFieldAria } from '../components/FormField.tsx';
import { showServerErrors } from '../forms.ts';
import { formatCount } from '../format.ts';
import { Moment } from '../components/When.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { useSources } from '../components/DatasetSelect.tsx';
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

function NewDatasetForm({ sourceId, onDone }: { sourceId: string; onDone: () => void }) {
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
      await recon.datasets.create(sourceId, {
        name: draft.name.trim(),
        columns: draft.columns.map((column) => ({ ...column, name: column.name.trim() })) as never,
      });
      onDone();
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
          {isSubmitting ? 'Creating the dataset…' : 'Create dataset'}
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

export function DatasetsPage() {
  const { session, recon } = useSession();
  const canWrite = session.user.role !== 'View-only';
  const client = useQueryClient();
  const sources = useSources();
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
          {source.datasets.length === 0 && <p className="hint">No datasets yet.</p>}
          {accountSaved?.sourceId === source.id && (
            <p className="success" role="status">
              {accountSaved.message}
            </p>
          )}
          {source.datasets.length > 0 && (
            <table>
              <TableHead columns={['Dataset', 'Transactions', ...RECONCILIATION_STATUSES, 'Last received', 'Last file', 'Failed imports']} />
              <tbody>
                {source.datasets.map((dataset) => (
                  <tr key={dataset.id}>
                    <td className="dataset-cell">
                      <Link to={`/transactions?dataset=${dataset.id}`}>{dataset.name}</Link>
                      <div className="dataset-account">
                        <AccountInWords dataset={dataset} />
                        {canWrite && (
                          <button
                            type="button"
                            className="secondary small"
                            aria-label={`${dataset.accountId === null ? 'Set the account' : 'Change the account'} of ${dataset.name}`}
                            onClick={() => {
                              setAccountSaved(null);
                              setEditingAccount(dataset);
                            }}
                          >
                            {dataset.accountId === null ? 'Set the account' : 'Change the account'}
                          </button>
                        )}
                      </div>
                      <span className="hint">
                        {dataset.columns
                          .filter((column) => !column.standard)
                          .map((column) => `${column.name}: ${column.type}`)
                          .join(', ')}
                      </span>
                    </td>
                    <td>{formatCount(dataset.transactionCount)}</td>
                    {RECONCILIATION_STATUSES.map((status) => (
                      <td key={status}>{formatCount(dataset.statusCounts[status])}</td>
                    ))}
                    <td>
                      <Moment value={dataset.lastReceived} />
                    </td>
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
