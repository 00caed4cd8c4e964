import { messageOf } from '../session.tsx';

/** An error as a person reads it, announced to screen readers; nothing when there is none. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  return (
    <p className="error" role="alert">
      {messageOf(error)}
    </p>
  );
}
