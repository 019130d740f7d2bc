import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, initTestI18n } from '../../test';
import { ConfirmDialog } from './ConfirmDialog';
import { ConfirmProvider, useConfirm, useConfirmDialog } from './useConfirm';

const MESSAGE = '¿Estás seguro de que deseas eliminar estos clientes? Esta acción no se puede deshacer.';

function DeleteButton() {
  const confirm = useConfirm();
  const [result, setResult] = useState('none');
  return (
    <>
      <button
        type="button"
        onClick={async () => setResult(String(await confirm({ message: MESSAGE, tone: 'danger' })))}
      >
        Borrar
      </button>
      <output>{result}</output>
    </>
  );
}

function Local() {
  const [confirm, dialog] = useConfirmDialog();
  const [result, setResult] = useState('none');
  return (
    <>
      <button
        type="button"
        onClick={async () => setResult(String(await confirm({ message: 'Seguro?', tone: 'primary' })))}
      >
        Go
      </button>
      <output>{result}</output>
      {dialog}
    </>
  );
}

function Broken() {
  useConfirm();
  return null;
}

beforeEach(() => {
  initTestI18n('es');
});

describe('ConfirmDialog and useConfirm', { timeout: 20_000 }, () => {
  it('resolves true when the user confirms', async () => {
    const user = userEvent.setup();
    render(
      <ConfirmProvider>
        <DeleteButton />
      </ConfirmProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'Borrar' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Confirmar acción' });
    expect(dialog).toHaveTextContent(MESSAGE);
    await user.click(screen.getByRole('button', { name: 'Eliminar' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('true');
  });

  it('resolves false on Cancelar and on Escape; focus starts on Cancelar and returns to the opener', async () => {
    const user = userEvent.setup();
    render(
      <ConfirmProvider>
        <DeleteButton />
      </ConfirmProvider>,
    );
    const opener = screen.getByRole('button', { name: 'Borrar' });
    await user.click(opener);
    expect(screen.getByRole('button', { name: 'Cancelar' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(screen.getByRole('status')).toHaveTextContent('false');

    await user.click(opener);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('false');
    expect(opener).toHaveFocus();
  });

  it('useConfirm without a provider explains what is missing; useConfirmDialog works locally', async () => {
    const user = userEvent.setup();
    expect(() => render(<Broken />)).toThrow(/ConfirmProvider/);

    render(<Local />);
    await user.click(screen.getByRole('button', { name: 'Go' }));
    await user.click(screen.getByRole('button', { name: 'Aceptar' }));
    expect(screen.getByRole('status')).toHaveTextContent('true');
  });

  it('uses the caller labels and can show a busy state', () => {
    render(
      <ConfirmDialog
        open
        title="Eliminar segmento"
        message="¿Estás seguro de que deseas eliminar este segmento? Esta acción no se puede deshacer."
        confirmLabel="Sí, eliminar"
        cancelLabel="No"
        busy
        onConfirm={() => {}}
        onCancel={() => {}}
      />,
    );
    expect(screen.getByRole('alertdialog', { name: 'Eliminar segmento' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sí, eliminar' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'No' })).toBeDisabled();
  });

  it('has no serious accessibility violations', async () => {
    render(<ConfirmDialog open message={MESSAGE} onConfirm={() => {}} onCancel={() => {}} />);
    await act(async () => {
      await expectNoSeriousA11yViolations(document.body);
    });
  });
});
