import type { ReactNode } from 'react';
import type { Suggestion, Transaction } from '@ledger-recon/sdk';
import { absolute, subtract, sum } from '../decimal.ts';
import { formatAmount } from '../format.ts';
import { field, forEvidence, nameOf } from '../transaction-words.ts';
import { Amount } from './Amount.tsx';
import { Evidence } from './Evidence.tsx';
import { Timestamp } from './When.tsx';

type Link = { originId: string; targetId: string; amount?: string | null };

function linksOf(option: Suggestion['options'][number]): Link[] {
  return (option.links as Link[]).filter((link) => typeof link.originId === 'string' && typeof link.targetId === 'string');
}

/** The transaction every option of a suggestion matches: the one its options share (else the first link's origin). */
export function subjectIdOf(suggestion: Suggestion): string | null {
  const sets = suggestion.options.map((option) => new Set(linksOf(option).flatMap((link) => [link.originId, link.targetId])));
  // An origin first (the bank's side, as the rule reads it), then a target.
  const links = suggestion.options[0] ? linksOf(suggestion.options[0]) : [];
  const candidates = [...links.map((link) => link.originId), ...links.map((link) => link.targetId)];
  return candidates.find((id) => sets.every((set) => set.has(id))) ?? candidates[0] ?? null;
}

/** The transactions an option proposes for the subject. */
export function optionTransactionIds(option: Suggestion['options'][number], subjectId: string | null): string[] {
  return [...new Set(linksOf(option).flatMap((link) => [link.originId, link.targetId]))].filter((id) => id !== subjectId);
}

/** "Matched 950.00 EUR Kestrel Aviation of Oct 1, 2026 with 950.00 EUR Invoice 10424 of Oct 2, 2026." */
export function confirmedMessage(subject: Transaction | undefined, others: (Transaction | undefined)[]): string {
  return `Matched ${nameOf(subject)} with ${others.map(nameOf).join(' and ') || 'its option'}.`;
}

/** What an option comes to against the subject's amount: the difference in size, by its currency ("0.00 EUR": equal). */
function difference(subject: Transaction | undefined, others: Transaction[]): string | null {
  const amount = field(subject, 'amount');
  const amounts = others.map((other) => field(other, 'amount'));
  if (amount === '' || amounts.length === 0 || amounts.some((one) => one === '')) return null;
  return subtract(absolute(sum(amounts)), absolute(amount));
}

function Row({ label, transaction, diff, action }: { label: string; transaction: Transaction | undefined; diff?: string | null; action?: ReactNode }) {
  const currency = field(transaction, 'currency') || null;
  return (
    <tr>
      <th scope="row" data-label="">
        {label}
      </th>
      <td data-label="Date">{transaction ? <Timestamp value={transaction.timestamp} /> : '…'}</td>
      <td data-label="Description">{transaction?.description || <span className="hint">No description</span>}</td>
      <td data-label="Reference">{field(transaction, 'reference') || '—'}</td>
      <td data-label="Counterparty">{field(transaction, 'counterparty') || '—'}</td>
      <td data-label="Amount" className="number">
        {field(transaction, 'amount') ? <Amount amount={field(transaction, 'amount')} currency={currency} /> : '—'}
      </td>
      <td data-label="Difference" className="number">
        {diff === undefined ? '' : diff === null ? '—' : isZero(diff) ? 'none' : formatAmount(diff, currency)}
      </td>
      <td data-label="">{action}</td>
    </tr>
  );
}

function isZero(decimal: string): boolean {
  return /^[-+]?0*(\.0*)?$/.test(decimal);
}

/**
 * A suggestion as one table: the transaction to match on top, each option under it with its
 * date, description, reference, counterparty, amount and the difference to the transaction's
 * amount, so the right one is picked by reading across; then each option's evidence in sentences.
 */
export function SuggestionOptions({
  suggestion,
  transactions,
  datasetName,
  action,
}: {
  suggestion: Suggestion;
  transactions: ReadonlyMap<string, Transaction>;
  datasetName: (id: string) => string | null;
  action: (index: number, label: string) => ReactNode;
}) {
  const subjectId = subjectIdOf(suggestion);
  const subject = subjectId ? transactions.get(subjectId) : undefined;
  const options = suggestion.options.map((option, index) => {
    const others = optionTransactionIds(option, subjectId).map((id) => transactions.get(id));
    const known = others.filter((one): one is Transaction => one !== undefined);
    const label = suggestion.options.length === 1 ? 'Proposed' : `Option ${index + 1}`;
    return { option, index, others, known, label };
  });
  return (
    <>
      <table className="suggestion-options">
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Row</span>
            </th>
            <th scope="col">Date</th>
            <th scope="col">Description</th>
            <th scope="col">Reference</th>
            <th scope="col">Counterparty</th>
            <th scope="col" className="number">
              Amount
            </th>
            <th scope="col" className="number">
              Difference
            </th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          <Row label="To match" transaction={subject} />
          {options.flatMap(({ index, others, known, label }) =>
            (others.length === 0 ? [undefined] : others).map((other, at) => (
              <Row
                key={`${index}-${at}`}
                label={at === 0 ? label : ''}
                transaction={other}
                diff={at === 0 ? difference(subject, known) : undefined}
                action={at === 0 ? action(index, label) : null}
              />
            )),
          )}
        </tbody>
      </table>
      {options.map(({ option, index, label }) => {
        const [link] = linksOf(option);
        return (
          <div key={index} className="suggestion-evidence">
            <p className="run-option-title">Why {label.toLowerCase()}</p>
            <Evidence
              evidence={option.evidence}
              label={`Evidence of ${label.toLowerCase()}`}
              context={{
                transactions: [...transactions.values()].map((one) => forEvidence(one, datasetName(one.datasetId))),
                pair: linksOf(option).length === 1 && link ? { originId: link.originId, targetId: link.targetId } : null,
                originName: link ? datasetName(transactions.get(link.originId)?.datasetId ?? '') : null,
                targetName: link ? datasetName(transactions.get(link.targetId)?.datasetId ?? '') : null,
                adjustment: option.adjustment,
              }}
            />
          </div>
        );
      })}
    </>
  );
}
