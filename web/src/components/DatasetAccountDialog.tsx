import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { accountForPeople, accountIdOf, accountIdProblem, type Dataset } from '@ledger-recon/sdk';
import { showServerErrors } from '../forms.ts';
import { Field, FormError } from './FormField.tsx';
import { useSession } from '../session.tsx';

/** A currency as the server keeps it: an ISO 4217 code, three capitals. */
const CURRENCY_CODE = /^[A-Z]{3}$/;

/** The first bank statement imported into a dataset without an account gives it its account and currency. */
const SET_BY_FIRST_STATEMENT = 'set by the first bank statement you import';

/**
 * A dataset's account and currency in words, e.g. "Account NL91 ABNA 0417 1643 00 · EUR"; the
 * account number is kept on one line, as it is read and copied whole.
 */
export function AccountInWords({ dataset }: { dataset: Pick<Dataset, 'accountId' | 'currency'> }) {
  if (dataset.accountId === null) {
    return (
      <span>
        No account yet — {SET_BY_FIRST_STATEMENT}
        {dataset.currency === null ? '' : ` · ${dataset.currency}`}
      </span>
    );
  }
  return (
    <span>
      Account <span className="account-number">{accountForPeople(dataset.accountId)}</span> · {dataset.currency ?? 'no currency yet'}
    </span>
  );
}

interface AccountDraft {
  accountId: string;
  currency: string;
}

/** What saving the typed account means for later imports, in a sentence; null when it changes nothing. */
function consequence(before: string | null, typed: string): string | null {
  const after = typed.trim() === '' ? null : accountIdOf(typed);
  if (after === before) return null;
  if (after === null) {
    return `Without an account, the dataset takes the account of the next bank statement you import, whichever it is.`;
  }
  if (accountIdProblem(typed) !== null) return null;
  const refused =
    before === null
      ? `From then on, a bank statement of any other account than ${accountForPeople(after)} is refused`
      : `From then on, statements of ${accountForPeople(after)} are imported here and statements of ${accountForPeople(before)}, like those of any other account, are refused`;
  return `${refused}, unless whoever imports one chooses to import it anyway.`;
}

/**
 * The dialog that sets, changes or clears the bank account and currency of a dataset: a form in
 * the accountant's words, checked as the server checks it, that says what a change means for the
 * statements imported later.
 */
export function DatasetAccountDialog({ dataset, onClose, onSaved }: { dataset: Dataset; onClose: () => void; onSaved: (message: string) => void }) {
  const { recon } = useSession();
  const dialog = useRef<HTMLDialogElement>(null);
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<AccountDraft>({
    defaultValues: { accountId: dataset.accountId === null ? '' : accountForPeople(dataset.accountId), currency: dataset.currency ?? '' },
  });

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  async function save(draft: AccountDraft) {
    const accountId = draft.accountId.trim() === '' ? null : accountIdOf(draft.accountId);
    const currency = draft.currency.trim() === '' ? null : draft.currency.trim().toUpperCase();
    try {
      const saved = await recon.datasets.update(dataset.id, { accountId, currency });
      onSaved(
        saved.accountId === null
          ? `${dataset.name} has no account now; the next bank statement you import gives it one.`
          : `${dataset.name} now holds the statements of account ${accountForPeople(saved.accountId)}${saved.currency === null ? '' : ` in ${saved.currency}`}.`,
      );
    } catch (caught) {
      showServerErrors(caught, setError, { accountId: 'Account', currency: 'Currency' });
    }
  }

  const said = consequence(dataset.accountId, watch('accountId'));
  return (
    <dialog ref={dialog} className="confirm-dialog" aria-labelledby="dataset-account-title" onCancel={onClose}>
      <form onSubmit={handleSubmit(save)} noValidate>
        <h2 id="dataset-account-title">Bank account of {dataset.name}</h2>
        <p>A dataset holds the statements of one bank account. A statement of another account is not imported into it unless whoever imports it chooses to.</p>
        <Field label="Account (IBAN or account number)" error={errors.accountId}>
          {(aria) => (
            <input
              autoComplete="off"
              spellCheck={false}
              placeholder="e.g. NL91 ABNA 0417 1643 00"
              {...aria}
              {...register('accountId', { validate: (value) => value.trim() === '' || (accountIdProblem(value) ?? true) })}
            />
          )}
        </Field>
        <p className="hint">Spaces do not matter. Leave it empty to clear the account: the next bank statement you import then sets it.</p>
        <Field label="Currency" error={errors.currency}>
          {(aria) => (
            <input
              autoComplete="off"
              spellCheck={false}
              maxLength={3}
              placeholder="e.g. EUR"
              className="currency-input"
              {...aria}
              {...register('currency', {
                validate: (value) =>
                  value.trim() === '' ||
                  CURRENCY_CODE.test(value.trim().toUpperCase()) ||
                  'The currency is the three-letter code of the account’s currency, such as EUR or USD; leave it empty if you do not know it.',
              })}
            />
          )}
        </Field>
        {said && (
          <p className="notice" role="status">
            {said}
          </p>
        )}
        <FormError error={errors.root?.server} />
        <div className="buttons">
          <button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Saving…' : 'Save'}
          </button>
          <button type="button" className="secondary" disabled={isSubmitting} onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
