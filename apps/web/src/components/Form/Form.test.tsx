import { type SegmentRequest, ZSegmentRequest } from '@hablabot/contract';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { expectNoSeriousA11yViolations, setupTestI18n } from '../../test';
import { ValidationErrorList } from '../ValidationErrorList/ValidationErrorList';
import { FormField } from './FormField';
import { useZodForm } from './useZodForm';

const FIELDS = ['name', 'color', 'rules'] as const;

/** A small form on the contract's segment schema, saving through `save`. */
function SegmentLikeForm({
  save,
  schema = ZSegmentRequest,
}: {
  save: (values: SegmentRequest) => Promise<void>;
  schema?: Parameters<typeof useZodForm>[0]['schema'];
}) {
  const { register, handleSubmit, fieldError, serverErrors, applyServerErrors, clearServerErrors } =
    useZodForm<SegmentRequest>({
      schema,
      fieldLabels: 'clients.fields',
      defaultValues: { name: '', color: '#12', rules: '' },
    });
  const onSubmit = handleSubmit(async (values) => {
    clearServerErrors();
    try {
      await save(values);
    } catch (error) {
      if (!applyServerErrors(error, { fields: FIELDS, conflictField: 'name' })) {
        throw error;
      }
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <ValidationErrorList errors={serverErrors} />
      <FormField id="f-name" label="Nombre" required hint="Un nombre corto." error={fieldError('name')}>
        {(control) => <input {...control} className="hb-input" {...register('name')} />}
      </FormField>
      <FormField id="f-color" label="Color" required error={fieldError('color')}>
        {(control) => <input {...control} className="hb-input" {...register('color')} />}
      </FormField>
      <FormField id="f-rules" label="Reglas" optional error={fieldError('rules')}>
        {(control) => <textarea {...control} {...register('rules')} />}
      </FormField>
      <button type="submit">Guardar</button>
    </form>
  );
}

beforeEach(() => {
  setupTestI18n('es');
});

describe('FormField', () => {
  it('labels its control, marks it required, and describes it with the hint, then the error', () => {
    const { rerender } = render(
      <FormField id="x" label="Nombre" required hint="Un nombre corto.">
        {(control) => <input {...control} />}
      </FormField>,
    );
    const input = screen.getByRole('textbox', { name: 'Nombre' });
    expect(input).toHaveAttribute('aria-required', 'true');
    expect(input).toHaveAccessibleDescription('Un nombre corto.');
    expect(input).not.toHaveAttribute('aria-invalid');
    // The '*' is for the eye only: the accessible name stays 'Nombre'.
    expect(screen.getByText('*')).toHaveAttribute('aria-hidden', 'true');

    rerender(
      <FormField
        id="x"
        label="Nombre"
        required
        hint="Un nombre corto."
        error="El campo nombre es obligatorio."
      >
        {(control) => <input {...control} />}
      </FormField>,
    );
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('El campo nombre es obligatorio.');
    expect(screen.queryByText('Un nombre corto.')).not.toBeInTheDocument();
  });

  it("says '(opcional)' in Spanish and '(optional)' in English", () => {
    const { unmount } = render(
      <FormField id="y" label="Proyectos" optional>
        <input id="y" />
      </FormField>,
    );
    expect(screen.getByText('(opcional)')).toBeInTheDocument();
    unmount();
    setupTestI18n('en');
    render(
      <FormField id="y" label="Projects" optional>
        <input id="y" />
      </FormField>,
    );
    expect(screen.getByText('(optional)')).toBeInTheDocument();
  });
});

describe('useZodForm', { timeout: 20_000 }, () => {
  it("checks with the contract's schema and words its issues in the UI language, naming the field, also after a switch", async () => {
    const save = vi.fn(async () => {});
    render(<SegmentLikeForm save={save} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('El campo nombre es obligatorio.')).toBeInTheDocument();
    // The contract words the colour issue itself ('validation.hex_color'); the kit translates the key.
    expect(screen.getByText('El color debe tener el formato #RRGGBB.')).toBeInTheDocument();
    expect(screen.getByText('El campo reglas es obligatorio.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Nombre/ })).toHaveFocus();
    expect(save).not.toHaveBeenCalled();

    await act(async () => {
      await setupTestI18n('en').changeLanguage('en');
    });
    // Messages already showing follow a language switch.
    expect(screen.getByText('The colour must have the format #RRGGBB.')).toBeInTheDocument();
    expect(screen.getByText('The name field is required.')).toBeInTheDocument();
    expect(screen.getByText('The rules field is required.')).toBeInTheDocument();
  });

  it('puts a 422 on its fields and in the list, a 409 on its field only', async () => {
    const user = userEvent.setup();
    const save = vi.fn<(values: SegmentRequest) => Promise<void>>();
    render(<SegmentLikeForm save={save} />);
    await user.type(screen.getByRole('textbox', { name: /^Nombre/ }), 'VIP');
    await user.clear(screen.getByRole('textbox', { name: /^Color/ }));
    await user.type(screen.getByRole('textbox', { name: /^Color/ }), '#1a73e8');
    await user.type(screen.getByRole('textbox', { name: /^Reglas/ }), 'Compran mucho');

    save.mockRejectedValueOnce(
      new ApiError({
        status: 422,
        body: { message: 'x', errors: { rules: ['Las reglas son muy cortas.'] } },
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    const rules = screen.getByRole('textbox', { name: /^Reglas/ });
    await waitFor(() => expect(rules).toHaveAccessibleDescription('Las reglas son muy cortas.'));
    expect(rules).toHaveFocus();
    expect(screen.getByText('Por favor corrige los siguientes errores:')).toBeInTheDocument();
    expect(screen.getAllByText('Las reglas son muy cortas.')).toHaveLength(2);

    // A 409 that names its field shows there, like a 422, without the validation list.
    save.mockRejectedValueOnce(
      new ApiError({
        status: 409,
        body: { message: 'Duplicado', errors: { color: ['Ese color ya se usa.'] } },
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    const color = screen.getByRole('textbox', { name: /^Color/ });
    await waitFor(() => expect(color).toHaveAccessibleDescription('Ese color ya se usa.'));
    expect(color).toHaveFocus();
    expect(screen.queryByText('Por favor corrige los siguientes errores:')).not.toBeInTheDocument();

    // A 409 without a field map is about the form's conflict field (here the name).
    save.mockRejectedValueOnce(
      new ApiError({ status: 409, body: { message: 'Ya existe un segmento con este nombre.' } }),
    );
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    const name = screen.getByRole('textbox', { name: /^Nombre/ });
    await waitFor(() => expect(name).toHaveAccessibleDescription('Ya existe un segmento con este nombre.'));
    expect(name).toHaveAttribute('aria-invalid', 'true');
  });

  it('imports a lazily given schema on the first check only', async () => {
    const load = vi.fn(async () => ZSegmentRequest);
    render(<SegmentLikeForm save={vi.fn(async () => {})} schema={load} />);
    expect(load).not.toHaveBeenCalled();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('El campo nombre es obligatorio.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('has no serious accessibility violations with errors showing', async () => {
    const { container } = render(<SegmentLikeForm save={vi.fn(async () => {})} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Guardar' }));
    await screen.findByText('El campo nombre es obligatorio.');
    await act(async () => {
      await expectNoSeriousA11yViolations(container);
    });
  });
});
