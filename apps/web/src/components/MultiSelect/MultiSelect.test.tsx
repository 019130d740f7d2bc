import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { expectNoSeriousA11yViolations, initTestI18n, useTestLayout } from '../../test';
import { Modal } from '../Modal/Modal';
import { MultiSelect, type MultiSelectOption } from './MultiSelect';

const SEGMENTS: MultiSelectOption<number>[] = [
  { value: 1, label: 'Clientes VIP', color: '#7300ff' },
  { value: 2, label: 'Préstamos', color: '#1a73e8' },
  { value: 3, label: 'Educación', color: '#25d366' },
  { value: 4, label: 'Archivados', disabled: true },
  { value: 5, label: 'Campaña de verano', description: 'Julio y agosto' },
];

function Controlled({ initial = [] as number[], required = false, onChange = vi.fn() }) {
  const [value, setValue] = useState<number[]>(initial);
  return (
    <>
      <label htmlFor="segments">Segmentos</label>
      <MultiSelect
        id="segments"
        options={SEGMENTS}
        value={value}
        required={required}
        onChange={(next) => {
          setValue(next);
          onChange(next);
        }}
      />
      <output data-testid="value">{JSON.stringify(value)}</output>
    </>
  );
}

const value = () => JSON.parse(screen.getByTestId('value').textContent ?? '[]');

function SegmentsForm({ onSubmit }: { onSubmit: (data: { segments: number[] }) => void }) {
  const { control, handleSubmit, formState } = useForm<{ segments: number[] }>({
    defaultValues: { segments: [5] },
  });
  return (
    <form onSubmit={handleSubmit((data) => onSubmit(data))}>
      <Controller
        name="segments"
        control={control}
        rules={{ validate: (v) => v.length > 0 || 'Debe seleccionar al menos un segmento' }}
        render={({ field, fieldState }) => (
          <MultiSelect aria-label="Segmentos" options={SEGMENTS} invalid={fieldState.invalid} {...field} />
        )}
      />
      {formState.errors.segments && <p>{formState.errors.segments.message}</p>}
      <button type="submit">Guardar</button>
    </form>
  );
}

beforeEach(() => {
  initTestI18n('es');
});

describe('MultiSelect', { timeout: 20_000 }, () => {
  it('opens with ArrowDown, moves with the arrows (skipping disabled options) and toggles with Enter', async () => {
    const user = userEvent.setup();
    render(<Controlled />);
    const combo = screen.getByRole('combobox', { name: 'Segmentos' });
    await user.click(combo);
    expect(combo).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getAllByRole('option')).toHaveLength(5);
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(value()).toEqual([3]);
    const active = combo.getAttribute('aria-activedescendant');
    expect(document.getElementById(active ?? '')).toHaveTextContent('Educación');
    await user.keyboard('{ArrowDown}{Enter}');
    // 'Archivados' is disabled, so the next stop is 'Campaña de verano'.
    expect(value()).toEqual([3, 5]);
    await user.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}{Enter}');
    expect(value()).toEqual([3, 5, 1]);
    await user.keyboard('{Enter}');
    expect(value()).toEqual([3, 5]);
    expect(screen.getByRole('option', { name: /Educación/ })).toHaveAttribute('aria-selected', 'true');
  });

  it('searches accent-insensitively and shows chips for the chosen options', async () => {
    const user = userEvent.setup();
    render(<Controlled />);
    const combo = screen.getByRole('combobox', { name: 'Segmentos' });
    await user.type(combo, 'prestamos');
    expect(screen.getAllByRole('option')).toHaveLength(1);
    await user.keyboard('{Enter}');
    expect(value()).toEqual([2]);
    await user.clear(combo);
    await user.type(combo, 'agosto');
    expect(screen.getByRole('option')).toHaveTextContent('Campaña de verano');
    await user.clear(combo);
    await user.type(combo, 'zzz');
    expect(screen.getByText('No hay opciones que coincidan.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Quitar Préstamos' })).toBeInTheDocument();
  });

  it('Backspace in an empty search removes the last chip; a chip button removes its option', async () => {
    const user = userEvent.setup();
    render(<Controlled initial={[1, 2, 3]} />);
    const combo = screen.getByRole('combobox', { name: 'Segmentos' });
    await user.click(combo);
    await user.keyboard('{Backspace}');
    expect(value()).toEqual([1, 2]);
    await user.type(combo, 'ed');
    await user.keyboard('{Backspace}');
    expect(value()).toEqual([1, 2]);
    await user.click(screen.getByRole('button', { name: 'Quitar Clientes VIP' }));
    expect(value()).toEqual([2]);
    expect(combo).toHaveFocus();
  });

  it('Escape closes the list without closing an enclosing modal; a second Escape closes the modal', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(
      <Modal open onClose={onClose} title="Instrucción">
        <Controlled />
      </Modal>,
    );
    const combo = screen.getByRole('combobox', { name: 'Segmentos' });
    await user.click(combo);
    expect(combo).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    expect(combo).toHaveAttribute('aria-expanded', 'false');
    expect(onClose).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('supports required: a native form will not submit while nothing is selected', async () => {
    const user = userEvent.setup();
    render(
      <form>
        <Controlled required />
      </form>,
    );
    const combo = screen.getByRole('combobox', { name: 'Segmentos' });
    expect(combo).toHaveAttribute('aria-required', 'true');
    const form = combo.closest('form') as HTMLFormElement;
    expect(form.checkValidity()).toBe(false);
    expect((combo as HTMLInputElement).validationMessage).toBe('Selecciona al menos una opción.');
    await user.click(combo);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(form.checkValidity()).toBe(true);
  });

  it('works with react-hook-form through Controller (value, onChange, onBlur, ref)', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<SegmentsForm onSubmit={onSubmit} />);
    const combo = screen.getByRole('combobox', { name: 'Segmentos' });
    await user.click(combo);
    await user.keyboard('{Backspace}');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Debe seleccionar al menos un segmento')).toBeInTheDocument();
    expect(combo).toHaveFocus();
    expect(combo).toHaveAttribute('aria-invalid', 'true');
    await user.keyboard('{ArrowDown}{Enter}');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(onSubmit).toHaveBeenCalledWith({ segments: [1] });
  });

  it('posts hidden inputs when given a name', () => {
    const { container } = render(
      <MultiSelect
        aria-label="Clientes"
        name="client_ids"
        options={SEGMENTS}
        value={[1, 3]}
        onChange={() => {}}
      />,
    );
    const hidden = Array.from(container.querySelectorAll<HTMLInputElement>('input[type="hidden"]'));
    expect(hidden.map((input) => [input.name, input.value])).toEqual([
      ['client_ids', '1'],
      ['client_ids', '3'],
    ]);
  });

  it('has no serious accessibility violations, open and closed', async () => {
    const user = userEvent.setup();
    const { container } = render(<Controlled initial={[1]} />);
    await act(async () => {
      await expectNoSeriousA11yViolations(container);
    });
    await user.click(screen.getByRole('combobox', { name: 'Segmentos' }));
    await act(async () => {
      await expectNoSeriousA11yViolations(container);
    });
  });
});

describe('MultiSelect with thousands of options', { timeout: 20_000 }, () => {
  // A viewport the virtualiser can measure: jsdom alone measures 0 and would render no option at all.
  useTestLayout({ rowHeight: 38 });

  it('renders the options in view, and later ones once the list scrolls', async () => {
    const user = userEvent.setup();
    const many = Array.from({ length: 5000 }, (_, i) => ({ value: i, label: `Cliente ${i}` }));
    render(<MultiSelect aria-label="Clientes" options={many} value={[]} onChange={() => {}} />);
    await user.click(screen.getByRole('combobox', { name: 'Clientes' }));
    const listbox = screen.getByRole('listbox');
    const labels = () =>
      within(listbox)
        .queryAllByRole('option')
        .map((o) => o.textContent?.trim());
    // The first options are there: the list is not empty, and far from all 5000.
    expect(labels().slice(0, 3)).toEqual(['Cliente 0', 'Cliente 1', 'Cliente 2']);
    expect(labels().length).toBeGreaterThan(5);
    expect(labels().length).toBeLessThan(100);
    // Scrolling 2000 options down shows those, and drops the first ones.
    act(() => {
      listbox.scrollTop = 2000 * 38;
      fireEvent.scroll(listbox);
    });
    await waitFor(() => expect(labels()).toContain('Cliente 2000'));
    expect(labels()).not.toContain('Cliente 0');
    expect(labels().length).toBeLessThan(100);
  });
});
