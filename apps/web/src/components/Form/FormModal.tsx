import type { FormEventHandler, ReactNode } from 'react';
import { Button } from '../Button/Button';
import { Modal, type ModalSize } from '../Modal/Modal';

export interface FormModalProps {
  /** The form element's id: the submit button in the footer points at it (`form=`). */
  formId: string;
  title: string;
  /** Text under the title, the dialog's description. */
  description?: ReactNode;
  size?: ModalSize;
  /** A click outside closes the dialog (off by default: half-typed forms are not lost by a stray click). */
  closeOnBackdrop?: boolean;
  /** A save is under way: the dialog cannot be closed, Cancel is disabled and Submit shows it is busy. */
  busy: boolean;
  /** Submit disabled for another reason (e.g. the dialog is closing after a save). */
  submitDisabled?: boolean;
  cancelLabel: string;
  submitLabel: string;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}

/**
 * A dialog holding one form, as every create/edit form of the app shows it: the title, the form (checked
 * by the app, `noValidate`), and a footer with Cancel and the submit button outside the form but bound
 * to it. While `busy`, neither Escape, the close button nor Cancel can close it.
 */
export function FormModal({
  formId,
  title,
  description,
  size,
  closeOnBackdrop = false,
  busy,
  submitDisabled,
  cancelLabel,
  submitLabel,
  onClose,
  onSubmit,
  children,
}: FormModalProps) {
  return (
    <Modal
      open
      onClose={() => {
        if (!busy) onClose();
      }}
      title={title}
      description={description}
      size={size}
      closeOnBackdrop={closeOnBackdrop}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button variant="primary" type="submit" form={formId} busy={busy} disabled={submitDisabled}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id={formId} className="hb-form" onSubmit={onSubmit} noValidate>
        {children}
      </form>
    </Modal>
  );
}
