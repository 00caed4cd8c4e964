import { useEffect, useRef, useState } from 'react';
import type { ImportReport, ImportUndoPreview } from '@ledger-recon/sdk';
import { countOf as count, formatCount } from '../format.ts';
import { Moment } from './When.tsx';
import { messageOf, useSession } from '../session.tsx';
import { cleaned } from '../messages.ts';

/** What undoing the import removes, in sentences, from the server's preview. */
export function undoSentences(preview: ImportUndoPreview): string[] {
  if (preview.refusal !== null) return [`This import cannot be undone: ${cleaned(preview.refusal) ?? 'what it added has changed since'}.`];
  const sentences = [
    preview.transactions === 0
      ? 'The transactions this import added are no longer in the dataset; undoing it only marks it as undone.'
      : `${count(preview.transactions, 'transaction')} that this import added will be removed from the dataset.`,
  ];
  if (preview.matched > 0) {
    sentences.push(
      `${formatCount(preview.matched)} of them ${preview.matched === 1 ? 'is' : 'are'} matched: ${preview.matchGroups === 1 ? 'that match is' : 'those matches are'} undone as well, ` +
        'and the transactions on the other side become unmatched again.',
    );
  } else if (preview.transactions > 0) {
    sentences.push('None of them is matched.');
  }
  sentences.push('This cannot be reversed, but you can import the file again afterwards.');
  return sentences;
}

/**
 * The confirmation of an undo: what will be removed and what becomes of the matches, read from
 * the server before anything is changed. Confirming removes the matches too (the person has just
 * been told so); the server still refuses anything that changed meanwhile.
 */
export function UndoImportDialog({ report, onClose, onUndone }: { report: ImportReport; onClose: () => void; onUndone: (message: string) => void }) {
  const { recon } = useSession();
  const dialog = useRef<HTMLDialogElement>(null);
  const [preview, setPreview] = useState<ImportUndoPreview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  useEffect(() => {
    dialog.current?.showModal();
    let cancelled = false;
    recon.imports
      .undoPreview(report.id)
      .then((answer) => !cancelled && setPreview(answer))
      .catch((error: unknown) => !cancelled && setProblem(messageOf(error)));
    return () => {
      cancelled = true;
    };
  }, [recon, report.id]);

  async function confirm() {
    if (!preview) return;
    setWorking(true);
    setProblem(null);
    try {
      const result = await recon.imports.undo(report.id, { unmatch: preview.matched > 0 });
      const dissolved = result.matchGroupsDissolved > 0 ? ` and ${count(result.matchGroupsDissolved, 'match', 'matches')} undone` : '';
      onUndone(`The import of ${report.fileName ?? 'the file'} was undone: ${count(result.removed, 'transaction')} removed${dissolved}.`);
    } catch (error) {
      setProblem(messageOf(error));
      setWorking(false);
    }
  }

  const name = report.fileName ?? 'the file';
  return (
    <dialog ref={dialog} className="confirm-dialog" aria-labelledby="undo-import-title" onCancel={onClose}>
      <h2 id="undo-import-title">Undo the import of {name}?</h2>
      <p className="hint">
        Imported <Moment value={report.createdAt} />.
      </p>
      {!preview && !problem && <p role="status">Finding what the import added…</p>}
      {preview && undoSentences(preview).map((sentence) => <p key={sentence}>{sentence}</p>)}
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <div className="buttons">
        {preview && preview.refusal === null && (
          <button type="button" className="danger" disabled={working} onClick={() => void confirm()}>
            {working ? 'Undoing…' : 'Undo import'}
          </button>
        )}
        <button type="button" className="secondary" disabled={working} onClick={onClose} autoFocus>
          Keep it
        </button>
      </div>
    </dialog>
  );
}
