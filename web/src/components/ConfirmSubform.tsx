import type { ReactNode } from 'react';
import { ErrorMessage } from './ErrorMessage.tsx';

/**
 * An action asked before it is done, in the row or card it acts on: what it does in words (say
 * whether it can be undone), the error of a failed try, and two buttons — do it, or keep things as
 * they are.
 */
export function ConfirmSubform({
  label,
  children,
  error,
  pending,
  confirmLabel,
  pendingLabel,
  danger = false,
  onConfirm,
  onCancel,
}: {
  label: string;
  children: ReactNode;
  error: unknown;
  pending: boolean;
  confirmLabel: string;
  pendingLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <div className="subform" role="group" aria-label={label}>
      <p>{children}</p>
      <ErrorMessage error={error} />
      <div className="buttons">
        <button type="button" className={danger ? 'danger' : undefined} disabled={pending} onClick={onConfirm}>
          {pending ? pendingLabel : confirmLabel}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Keep it
        </button>
      </div>
    </div>
  );
}
