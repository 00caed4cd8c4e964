import { useState } from 'react';
import { Button, Dialog, Form, Heading, Input, Label, Modal, ModalOverlay, TextField } from 'react-aria-components';

/** The two statuses a person sets by hand; "none" clears either. */
export type Mark = 'informative' | 'out of scope';

/** What a mark means, in a sentence shown before it is set. */
const MEANING: Record<Mark, string> = {
  informative: 'It stays for context and is no longer expected to be matched.',
  'out of scope': 'It is left out of the reconciliation.',
};

/**
 * Asks for the optional reason of a mark before it is set; the reason is kept in the audit trail
 * next to the change. `subject` names what is marked ("“Bank fee”", "3 transactions").
 */
export function MarkDialog({
  mark,
  subject,
  pending,
  onConfirm,
  onCancel,
}: {
  mark: Mark;
  subject: string;
  pending: boolean;
  onConfirm: (reason: string | null) => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState('');
  return (
    <ModalOverlay isOpen isDismissable={!pending} onOpenChange={(open) => !open && onCancel()} className="modal-overlay">
      <Modal className="modal">
        <Dialog className="mark-dialog">
          <Form
            onSubmit={(event) => {
              event.preventDefault();
              if (!pending) onConfirm(reason.trim() === '' ? null : reason.trim());
            }}
          >
            <Heading slot="title">
              Mark {subject} {mark}?
            </Heading>
            <p>{MEANING[mark]} You can clear the mark again later.</p>
            <TextField value={reason} onChange={setReason} maxLength={500} autoFocus className="mark-reason">
              <Label>Reason (optional)</Label>
              <Input placeholder="e.g. internal transfer between our own accounts" />
            </TextField>
            <div className="buttons">
              <Button type="submit" isDisabled={pending}>
                {pending ? 'Marking…' : `Mark ${mark}`}
              </Button>
              <Button className="secondary" isDisabled={pending} onPress={onCancel}>
                Cancel
              </Button>
            </div>
          </Form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

/**
 * A confirmation in words before something unusual is done: the question, and the two answers.
 * The dialog is an alert dialog: its question is read out when it opens.
 */
export function ConfirmDialog({
  title,
  question,
  confirm,
  onConfirm,
  onCancel,
}: {
  title: string;
  question: string;
  confirm: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && onCancel()} className="modal-overlay">
      <Modal className="modal">
        <Dialog role="alertdialog" className="mark-dialog">
          <Heading slot="title">{title}</Heading>
          <p>{question}</p>
          <div className="buttons">
            <Button onPress={onConfirm}>{confirm}</Button>
            <Button className="secondary" onPress={onCancel} autoFocus>
              Cancel
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
