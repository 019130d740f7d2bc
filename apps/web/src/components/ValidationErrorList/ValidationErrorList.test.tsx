import { act, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, initTestI18n } from '../../test';
import { errorLines, ValidationErrorList } from './ValidationErrorList';

const ERRORS = {
  email: ['El campo correo es obligatorio.', 'El correo no es válido.'],
  whatsapp_cellphone: ['El celular debe tener al menos 10 dígitos.'],
};

beforeEach(() => {
  initTestI18n('es');
});

describe('ValidationErrorList', { timeout: 20_000 }, () => {
  it('lists every 422 message, one per line, under the heading', () => {
    render(<ValidationErrorList errors={ERRORS} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Por favor corrige los siguientes errores:');
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'El campo correo es obligatorio.',
      'El correo no es válido.',
      'El celular debe tener al menos 10 dígitos.',
    ]);
  });

  it('renders nothing without errors and tolerates single strings and repeats', () => {
    const { container } = render(<ValidationErrorList errors={{}} />);
    expect(container).toBeEmptyDOMElement();
    render(<ValidationErrorList errors={null} />);
    expect(errorLines({ a: 'uno', b: ['uno', 'dos'] })).toEqual(['uno', 'dos']);
  });

  it('has no serious accessibility violations', async () => {
    const { container } = render(<ValidationErrorList errors={ERRORS} />);
    await act(async () => {
      await expectNoSeriousA11yViolations(container);
    });
  });
});
