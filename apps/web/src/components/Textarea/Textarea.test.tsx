import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { expectNoSeriousA11yViolations, initTestI18n } from '../../test';
import { clampText, Textarea } from './Textarea';

function Controlled({ max = 10, initial = '' }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <label htmlFor="reply">Descripción</label>
      <Textarea id="reply" maxLength={max} value={value} onChange={(e) => setValue(e.target.value)} />
      <output data-testid="value">{value}</output>
    </>
  );
}

const field = () => screen.getByRole('textbox', { name: 'Descripción' }) as HTMLTextAreaElement;

function AskForm({ onSubmit }: { onSubmit: (data: { ask: string }) => void }) {
  const { register, handleSubmit } = useForm<{ ask: string }>({ defaultValues: { ask: '' } });
  return (
    <form onSubmit={handleSubmit(onSubmit)}>
      <Textarea aria-label="Nombre" maxLength={5} {...register('ask')} />
      <button type="submit">Guardar</button>
    </form>
  );
}

/** A registered (uncontrolled) textarea whose form is reset from outside the field. */
function NotesForm() {
  const { register, reset, setValue } = useForm<{ notes: string }>({ defaultValues: { notes: 'hola' } });
  return (
    <form>
      <Textarea aria-label="Notas" maxLength={100} {...register('notes')} />
      <button type="button" onClick={() => reset({ notes: 'un texto nuevo' })}>
        Restablecer
      </button>
      <button type="button" onClick={() => reset()}>
        Vaciar
      </button>
      <button type="button" onClick={() => setValue('notes', 'ok')}>
        Poner
      </button>
    </form>
  );
}

beforeEach(() => {
  initTestI18n('es');
});

describe('Textarea', { timeout: 20_000 }, () => {
  it('counts characters and stops typing at the limit', async () => {
    const user = userEvent.setup();
    render(<Controlled max={10} />);
    expect(screen.getByText('0 / 10')).toBeInTheDocument();
    await user.type(field(), 'Hola mundo, adiós');
    expect(field().value).toBe('Hola mundo');
    expect(screen.getByText('10 / 10')).toBeInTheDocument();
    expect(field()).toHaveAccessibleDescription('Has alcanzado el límite de 10 caracteres.');
  });

  it('truncates pasted text to the room left, also when pasting into the middle', async () => {
    const user = userEvent.setup();
    render(<Controlled max={10} initial="abcdef" />);
    field().setSelectionRange(3, 3);
    field().focus();
    await user.paste('123456789');
    expect(field().value).toBe('abc1234def');
    expect(screen.getByTestId('value')).toHaveTextContent('abc1234def');
  });

  it('replacing a selection by paste counts the selected text as free room', async () => {
    const user = userEvent.setup();
    render(<Controlled max={8} initial="12345678" />);
    field().focus();
    field().setSelectionRange(0, 8);
    await user.paste('ABCDEFGHIJKL');
    expect(field().value).toBe('ABCDEFGH');
  });

  it('cuts any overlong change before the caller sees it (programmatic input, autofill)', () => {
    const onChange = vi.fn();
    render(<Textarea aria-label="Texto" maxLength={5} onChange={(e) => onChange(e.target.value)} />);
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'abcdefghij' } });
    expect(onChange).toHaveBeenLastCalledWith('abcde');
    expect(screen.getByText('5 / 5')).toBeInTheDocument();
  });

  it('works with react-hook-form register (uncontrolled)', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<AskForm onSubmit={onSubmit} />);
    await user.type(screen.getByRole('textbox', { name: 'Nombre' }), 'instrucción');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(onSubmit.mock.calls[0][0]).toEqual({ ask: 'instr' });
    expect(screen.getByText('5 / 5')).toBeInTheDocument();
  });

  it('keeps its counter right after a react-hook-form reset() or setValue() of a registered field', async () => {
    const user = userEvent.setup();
    render(<NotesForm />);
    const notes = screen.getByRole('textbox', { name: 'Notas' });
    expect(screen.getByText('4 / 100')).toBeInTheDocument();
    await user.type(notes, ' a todos');
    expect(screen.getByText('12 / 100')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Restablecer' }));
    expect(notes).toHaveValue('un texto nuevo');
    expect(screen.getByText('14 / 100')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Poner' }));
    expect(screen.getByText('2 / 100')).toBeInTheDocument();

    // The counter still follows typing after the writes.
    await user.type(notes, '!');
    expect(screen.getByText('3 / 100')).toBeInTheDocument();
  });

  it('never splits an emoji when cutting', () => {
    expect(clampText('ab😀', 3)).toBe('ab');
    expect(clampText('ab😀', 4)).toBe('ab😀');
  });

  it('has no serious accessibility violations', async () => {
    const { container } = render(<Controlled />);
    await act(async () => {
      await expectNoSeriousA11yViolations(container);
    });
  });
});
