import { useId, type ReactNode } from 'react';

/** An error of a form or of one of its fields, as the forms library keeps it. */
interface FormProblem {
  message?: string;
}

/** What ties an input to its error, for screen readers: spread on the input. */
export interface FieldAria {
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** The ids that tie a field (an input, or a fieldset of checkboxes) to its error. */
export function useFieldAria(error: FormProblem | undefined): { errorId: string; aria: FieldAria } {
  const errorId = useId();
  const invalid = error?.message !== undefined;
  return { errorId, aria: { 'aria-invalid': invalid || undefined, 'aria-describedby': invalid ? errorId : undefined } };
}

/** A field's problem, right below it; announced as it appears. */
export function FieldError({ id, error }: { id: string; error: FormProblem | undefined }) {
  if (error?.message === undefined) return null;
  return (
    <p className="error field-error" id={id} role="alert">
      {error.message}
    </p>
  );
}

/**
 * A labelled input with its problem below it. The input is given as a function of the
 * attributes that tie it to the problem, so that each form keeps its own input and registration.
 */
export function Field({
  label,
  error,
  className,
  children,
}: {
  label: ReactNode;
  error: FormProblem | undefined;
  className?: string;
  children: (aria: FieldAria) => ReactNode;
}) {
  const { errorId, aria } = useFieldAria(error);
  return (
    <div className={className === undefined ? 'form-field' : `form-field ${className}`}>
      <label>
        {label}
        {children(aria)}
      </label>
      <FieldError id={errorId} error={error} />
    </div>
  );
}

/** The problem of a whole form (one the server tied to no field), above or below its buttons. */
export function FormError({ error }: { error: FormProblem | undefined }) {
  if (error?.message === undefined) return null;
  return (
    <p className="error" role="alert">
      {error.message}
    </p>
  );
}
