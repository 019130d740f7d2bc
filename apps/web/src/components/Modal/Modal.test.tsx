import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, initTestI18n } from '../../test';
import { Modal } from './Modal';

function Harness({ nested = false }: { nested?: boolean }) {
  const [open, setOpen] = useState(false);
  const [inner, setInner] = useState(false);
  return (
    <main>
      <button type="button" onClick={() => setOpen(true)}>
        Crear cliente
      </button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title="Nuevo cliente"
        description="Datos de contacto"
        footer={<button type="button">Guardar</button>}
      >
        <label>
          Nombre
          <input />
        </label>
        <label>
          Correo
          <input type="email" />
        </label>
        {nested && (
          <button type="button" onClick={() => setInner(true)}>
            Abrir segmento
          </button>
        )}
        <Modal open={inner} onClose={() => setInner(false)} title="Segmento">
          <input aria-label="Color" />
        </Modal>
      </Modal>
    </main>
  );
}

beforeEach(() => {
  initTestI18n('es');
});

describe('Modal', { timeout: 20_000 }, () => {
  it('opens labelled by its title, moves focus inside and locks page scroll', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Crear cliente' }));
    const dialog = screen.getByRole('dialog', { name: 'Nuevo cliente' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleDescription('Datos de contacto');
    expect(screen.getByLabelText('Nombre')).toHaveFocus();
    expect(document.body.style.overflow).toBe('hidden');
  });

  it('traps Tab and Shift+Tab inside the dialog', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Crear cliente' }));
    const close = screen.getByRole('button', { name: 'Cerrar' });
    const save = screen.getByRole('button', { name: 'Guardar' });
    await user.tab();
    expect(screen.getByLabelText('Correo')).toHaveFocus();
    await user.tab();
    expect(save).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(save).toHaveFocus();
    await user.tab();
    await user.tab();
    expect(screen.getByLabelText('Nombre')).toHaveFocus();
  });

  it('closes on Escape and gives focus back to the opener, unlocking scroll', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Crear cliente' });
    await user.click(opener);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();
    expect(document.body.style.overflow).toBe('');
  });

  it('closes with the close button and with a backdrop click, not with a click inside', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Crear cliente' }));
    await user.click(screen.getByLabelText('Nombre'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cerrar' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Crear cliente' }));
    const backdrop = screen.getByRole('dialog').parentElement as HTMLElement;
    await user.click(backdrop);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes only the top modal on Escape when modals are stacked', async () => {
    const user = userEvent.setup();
    render(<Harness nested />);
    await user.click(screen.getByRole('button', { name: 'Crear cliente' }));
    const innerOpener = screen.getByRole('button', { name: 'Abrir segmento' });
    await user.click(innerOpener);
    expect(screen.getByRole('dialog', { name: 'Segmento' })).toBeInTheDocument();
    expect(screen.getByLabelText('Color')).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Segmento' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Nuevo cliente' })).toBeInTheDocument();
    expect(innerOpener).toHaveFocus();
    expect(document.body.style.overflow).toBe('hidden');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.style.overflow).toBe('');
  });

  it('renders nothing while closed', () => {
    render(
      <Modal open={false} onClose={() => {}} title="x">
        body
      </Modal>,
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('has no serious accessibility violations', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Crear cliente' }));
    await act(async () => {
      await expectNoSeriousA11yViolations(document.body);
    });
  });
});
