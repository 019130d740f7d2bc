import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setupTestI18n } from '../../test';
import { FormModal, type FormModalProps } from './FormModal';

function renderFormModal(overrides: Partial<FormModalProps> = {}) {
  const onClose = vi.fn();
  const onSubmit = vi.fn((event: { preventDefault(): void }) => event.preventDefault());
  render(
    <FormModal
      formId="f-segment"
      title="Nuevo segmento"
      busy={false}
      cancelLabel="Cancelar"
      submitLabel="Crear"
      onClose={onClose}
      onSubmit={onSubmit}
      {...overrides}
    >
      <label htmlFor="f-segment-name">Nombre</label>
      <input id="f-segment-name" required />
    </FormModal>,
  );
  return { onClose, onSubmit };
}

beforeEach(() => setupTestI18n('es'));

describe('FormModal', () => {
  it('submits its form from the footer button, skipping the browser’s own checks', async () => {
    const user = userEvent.setup();
    const { onSubmit, onClose } = renderFormModal();
    const dialog = screen.getByRole('dialog', { name: 'Nuevo segmento' });
    // The required field is empty: with noValidate the app's checks decide, so the submit still arrives.
    await user.click(screen.getByRole('button', { name: 'Crear' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(dialog.querySelector('form')).toHaveAttribute('id', 'f-segment');
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('cannot be closed while busy: Cancel is disabled and Escape does nothing', async () => {
    const user = userEvent.setup();
    const { onClose } = renderFormModal({ busy: true });
    expect(screen.getByRole('button', { name: 'Cancelar' })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('keeps the submit button disabled when told, and a click outside closes it only when allowed', async () => {
    const user = userEvent.setup();
    const first = renderFormModal({ submitDisabled: true });
    expect(screen.getByRole('button', { name: 'Crear' })).toBeDisabled();
    await user.click(screen.getByRole('dialog').parentElement as HTMLElement);
    expect(first.onClose).not.toHaveBeenCalled();
  });

  it('closes on a click outside with closeOnBackdrop', async () => {
    const user = userEvent.setup();
    const { onClose } = renderFormModal({ closeOnBackdrop: true });
    await user.click(screen.getByRole('dialog').parentElement as HTMLElement);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
