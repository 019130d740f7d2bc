import { type ReactNode, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../Button/Button';
import { AlertIcon } from '../lib/icons';
import { Modal } from '../Modal/Modal';
import './ConfirmDialog.css';

export type ConfirmTone = 'danger' | 'primary';

export interface ConfirmOptions {
  /** The question, e.g. '¿Estás seguro de que deseas eliminar estos clientes? …'. */
  message: ReactNode;
  /** Default 'Confirmar acción'. */
  title?: ReactNode;
  /** Default: 'Eliminar' for the danger tone, 'Aceptar' otherwise. */
  confirmLabel?: string;
  /** Default 'Cancelar'. */
  cancelLabel?: string;
  /** 'danger' (default) paints the confirm button red. */
  tone?: ConfirmTone;
}

export interface ConfirmDialogProps extends ConfirmOptions {
  open: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** Disables both buttons and shows a spinner while the confirmed action runs. */
  busy?: boolean;
}

/** Styled confirmation (never window.confirm). Focus starts on Cancel so Enter never deletes by accident. */
export function ConfirmDialog({
  open,
  message,
  title,
  confirmLabel,
  cancelLabel,
  tone = 'danger',
  onConfirm,
  onCancel,
  busy = false,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={open}
      onClose={() => {
        if (!busy) onCancel();
      }}
      title={title ?? t('widgets.confirm.title')}
      size="sm"
      role="alertdialog"
      initialFocusRef={cancelRef}
      hideCloseButton
      footer={
        <>
          <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={busy}>
            {cancelLabel ?? t('widgets.confirm.cancel')}
          </Button>
          <Button variant={tone === 'danger' ? 'danger' : 'primary'} onClick={onConfirm} busy={busy}>
            {confirmLabel ?? (tone === 'danger' ? t('widgets.confirm.delete') : t('widgets.confirm.accept'))}
          </Button>
        </>
      }
    >
      <div className={`hb-confirm hb-confirm--${tone}`}>
        <span className="hb-confirm__icon" aria-hidden="true">
          <AlertIcon size={22} />
        </span>
        <p className="hb-confirm__message">{message}</p>
      </div>
    </Modal>
  );
}
