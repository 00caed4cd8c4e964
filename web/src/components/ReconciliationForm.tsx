import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { amountProblem, isCalendarDate } from '@ledger-recon/sdk';
import { closeApi, type Reconciliation, type ReconciliationDraft } from '../close-api.ts';
import { showServerErrors } from '../forms.ts';
import { useSession } from '../session.tsx';
import { useDatasets, type NamedDataset } from './DatasetSelect.tsx';
import { Field, FieldError, FormError, useFieldAria } from './FormField.tsx';

/** How long a period lasts, in the words of a finance team. */
export const PERIOD_LENGTHS = [
  { months: 1, words: 'A month' },
  { months: 3, words: 'A quarter' },
  { months: 6, words: 'Half a year' },
  { months: 12, words: 'A year' },
] as const;

export function periodLengthInWords(months: number): string {
  return PERIOD_LENGTHS.find((length) => length.months === months)?.words ?? `${months} months`;
}

interface Draft {
  name: string;
  currency: string;
  bankDatasetIds: string[];
  ledgerDatasetIds: string[];
  ledgerOpeningBalance: string;
  ledgerOpeningDate: string;
  periodMonths: string;
}

/** The datasets of one side, as checkboxes named "Source · Dataset", with the side's problem below. */
function DatasetChoice({
  legend,
  datasets,
  value,
  onChange,
  error,
  taken,
}: {
  legend: string;
  datasets: NamedDataset[];
  value: string[];
  onChange: (ids: string[]) => void;
  error: { message?: string } | undefined;
  taken: string[];
}) {
  const { errorId, aria } = useFieldAria(error);
  return (
    <fieldset className="close-dataset-choice" aria-invalid={aria['aria-invalid']} aria-describedby={aria['aria-describedby']}>
      <legend>{legend}</legend>
      {datasets.length === 0 && <p className="hint">No dataset yet: create one on the Datasets page.</p>}
      {datasets.map((dataset) => (
        <label key={dataset.id} className="checkbox">
          <input
            type="checkbox"
            checked={value.includes(dataset.id)}
            disabled={taken.includes(dataset.id)}
            onChange={(event) => onChange(event.target.checked ? [...value, dataset.id] : value.filter((id) => id !== dataset.id))}
          />
          {dataset.sourceName} · {dataset.name}
          {dataset.currency ? ` (${dataset.currency})` : ''}
        </label>
      ))}
      <FieldError id={errorId} error={error} />
    </fieldset>
  );
}

/**
 * A reconciliation's form: its name and currency, the bank's and the ledger's datasets picked by
 * name, the ledger's opening balance with its date, and how long a period lasts.
 */
export function ReconciliationForm({
  reconciliation,
  onDone,
  onSaved,
}: {
  reconciliation?: Reconciliation;
  onDone: () => void;
  onSaved: (saved: Reconciliation) => void;
}) {
  const { recon } = useSession();
  const client = useQueryClient();
  const datasets = useDatasets();
  const {
    register,
    control,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<Draft>({
    defaultValues: {
      name: reconciliation?.name ?? '',
      currency: reconciliation?.currency ?? '',
      bankDatasetIds: reconciliation?.bankDatasetIds ?? [],
      ledgerDatasetIds: reconciliation?.ledgerDatasetIds ?? [],
      ledgerOpeningBalance: reconciliation?.ledgerOpeningBalance ?? '0.00',
      ledgerOpeningDate: reconciliation?.ledgerOpeningDate ?? '',
      periodMonths: String(reconciliation?.periodMonths ?? 1),
    },
  });
  const bankIds = watch('bankDatasetIds');
  const ledgerIds = watch('ledgerDatasetIds');

  async function submit(draft: Draft) {
    const body: ReconciliationDraft = {
      name: draft.name.trim(),
      currency: draft.currency.trim().toUpperCase(),
      bankDatasetIds: draft.bankDatasetIds,
      ledgerDatasetIds: draft.ledgerDatasetIds,
      ledgerOpeningBalance: draft.ledgerOpeningBalance.trim(),
      ledgerOpeningDate: draft.ledgerOpeningDate,
      periodMonths: Number(draft.periodMonths),
    };
    try {
      const saved = reconciliation ? await closeApi.updateReconciliation(recon, reconciliation.id, body) : await closeApi.createReconciliation(recon, body);
      void client.invalidateQueries({ queryKey: ['close'] });
      onSaved(saved);
    } catch (caught) {
      showServerErrors(caught, setError, {
        name: 'Name',
        currency: 'Currency',
        bankDatasetIds: 'Bank datasets:',
        ledgerDatasetIds: 'Ledger datasets:',
        ledgerOpeningBalance: 'Opening balance',
        ledgerOpeningDate: 'Opening balance date',
        periodMonths: 'Period length',
      });
    }
  }

  const title = reconciliation ? `Change ${reconciliation.name}` : 'New reconciliation';
  return (
    <form onSubmit={handleSubmit(submit)} className="subform close-form" aria-label={title} noValidate>
      <div className="close-form-row">
        <Field label="Name" error={errors.name}>
          {(aria) => (
            <input
              placeholder="e.g. Operating account EUR ↔ GL 1200"
              {...aria}
              {...register('name', {
                validate: (value) => value.trim() !== '' || 'Give the reconciliation a name, e.g. Operating account EUR ↔ GL 1200.',
                maxLength: { value: 200, message: 'The name must have at most 200 characters.' },
              })}
            />
          )}
        </Field>
        <Field label="Currency" error={errors.currency}>
          {(aria) => (
            <input
              className="currency-input"
              placeholder="EUR"
              maxLength={3}
              autoCapitalize="characters"
              {...aria}
              {...register('currency', {
                validate: (value) => /^[A-Za-z]{3}$/.test(value.trim()) || 'Give the currency as its three letters, e.g. EUR.',
              })}
            />
          )}
        </Field>
      </div>
      <div className="close-form-sides">
        <Controller
          control={control}
          name="bankDatasetIds"
          rules={{ validate: (value) => value.length > 0 || 'Pick at least one bank dataset: the statements the bank sends.' }}
          render={({ field }) => (
            <DatasetChoice
              legend="Bank datasets (the bank's statements)"
              datasets={datasets}
              value={field.value}
              onChange={field.onChange}
              error={errors.bankDatasetIds}
              taken={ledgerIds}
            />
          )}
        />
        <Controller
          control={control}
          name="ledgerDatasetIds"
          rules={{ validate: (value) => value.length > 0 || 'Pick at least one ledger dataset: the entries of the ledger account.' }}
          render={({ field }) => (
            <DatasetChoice
              legend="Ledger datasets (the ledger account's entries)"
              datasets={datasets}
              value={field.value}
              onChange={field.onChange}
              error={errors.ledgerDatasetIds}
              taken={bankIds}
            />
          )}
        />
      </div>
      <div className="close-form-row">
        <Field label="Ledger opening balance" error={errors.ledgerOpeningBalance}>
          {(aria) => (
            <input
              inputMode="decimal"
              {...aria}
              {...register('ledgerOpeningBalance', {
                validate: (value) => {
                  const problem = amountProblem(value.trim());
                  return problem === null || `The opening balance ${problem}.`;
                },
              })}
            />
          )}
        </Field>
        <Field label="On (the day the balance is at)" error={errors.ledgerOpeningDate}>
          {(aria) => (
            <input
              type="date"
              {...aria}
              {...register('ledgerOpeningDate', { validate: (value) => isCalendarDate(value) || 'Give the day of the opening balance.' })}
            />
          )}
        </Field>
        <Field label="Period length" error={errors.periodMonths}>
          {(aria) => (
            <select {...aria} {...register('periodMonths')}>
              {PERIOD_LENGTHS.map((length) => (
                <option key={length.months} value={length.months}>
                  {length.words}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <p className="hint">
        Ledger exports seldom carry a balance: the ledger's balance at a period's end is this opening balance plus the entries up to that day.
      </p>
      <FormError error={errors.root?.server} />
      <div className="buttons">
        <button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : reconciliation ? 'Save the changes' : 'Create the reconciliation'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
