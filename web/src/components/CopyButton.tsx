import { useState } from 'react';

/** Copies a value to the clipboard and says so, for the screen reader too. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="copy"
      // The name starts with the visible word, "Copied" too, as speech input users say what they see.
      aria-label={`${copied ? 'Copied' : 'Copy'} ${label}`}
      onClick={async () => {
        await navigator.clipboard.writeText(value);
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
    >
      {copied ? 'Copied' : 'Copy'}
      <span className="visually-hidden" role="status">
        {copied ? `${label} copied` : ''}
      </span>
    </button>
  );
}
