import { evidenceSentences, type EvidenceContext } from '@ledger-recon/sdk';

/**
 * A match's evidence as sentences (what each condition compared, the score, the runners-up, a
 * group's make-up), each marked held or not; the evidence as the API sends it stays one click
 * away, for engineers.
 */
export function Evidence({ evidence, context, label = 'Evidence' }: { evidence: unknown; context?: EvidenceContext; label?: string }) {
  const sentences = evidenceSentences(evidence, context);
  return (
    <div className="evidence">
      {sentences.length === 0 ? (
        <p className="hint">No evidence recorded.</p>
      ) : (
        <ul aria-label={label}>
          {sentences.map((sentence, index) => (
            <li key={index} className={sentence.held === false ? 'evidence-failed' : sentence.held ? 'evidence-held' : 'evidence-note'}>
              {sentence.held !== null && (
                <span className="evidence-mark" aria-hidden="true">
                  {sentence.held ? '✓' : '✗'}
                </span>
              )}
              {sentence.held === false && <span className="visually-hidden">Did not hold: </span>}
              {sentence.text}
            </li>
          ))}
        </ul>
      )}
      <details className="evidence-raw">
        <summary>Technical details</summary>
        <pre>{JSON.stringify(evidence, null, 2)}</pre>
      </details>
    </div>
  );
}
