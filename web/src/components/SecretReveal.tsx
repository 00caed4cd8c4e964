import { useEffect, useId, useRef, type ReactNode } from 'react';
import { CopyButton } from './CopyButton.tsx';

/** A labelled value with a button that copies it. */
export function CopyField({ label, value }: { label: string; value: string }) {
  return (
    <div className="field">
      <dt>{label}</dt>
      <dd>
        <code>{value}</code> <CopyButton value={value} label={label} />
      </dd>
    </div>
  );
}

/**
 * A secret shown once, with what to do with it: its fields, a ready snippet and a button that
 * dismisses it. The heading takes the focus when a secret appears, so that a person who pressed
 * a button further down the page, and a screen reader, are brought to it before it is lost.
 */
export function SecretReveal({
  title,
  notice,
  fields,
  snippetTitle,
  snippetLabel,
  snippet,
  onDismiss,
}: {
  title: string;
  notice: ReactNode;
  fields: { label: string; value: string }[];
  snippetTitle: string;
  /** What the snippet's copy button names, e.g. "the commands". */
  snippetLabel: string;
  snippet: string;
  onDismiss: () => void;
}) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const secret = fields.map((field) => field.value).join(' ');
  useEffect(() => heading.current?.focus(), [secret]);
  return (
    <section className="card reveal" aria-labelledby={headingId}>
      <h2 ref={heading} tabIndex={-1} id={headingId}>
        {title}
      </h2>
      <p>{notice}</p>
      <dl className="fields">
        {fields.map((field) => (
          <CopyField key={field.label} label={field.label} value={field.value} />
        ))}
      </dl>
      <h3>{snippetTitle}</h3>
      <pre>{snippet}</pre>
      <div className="buttons">
        <CopyButton value={snippet} label={snippetLabel} />
        <button type="button" className="secondary" onClick={onDismiss}>
          I have stored the secret
        </button>
      </div>
    </section>
  );
}
