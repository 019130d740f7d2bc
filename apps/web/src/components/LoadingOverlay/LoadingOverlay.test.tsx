import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, initTestI18n } from '../../test';
import { LoadingOverlay } from './LoadingOverlay';

beforeEach(() => {
  initTestI18n('es');
});

describe('LoadingOverlay', { timeout: 20_000 }, () => {
  it('announces "Cargando..." and draws three dots', () => {
    render(<LoadingOverlay />);
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('Cargando...');
    expect(status.querySelectorAll('.hb-loading__dots > span')).toHaveLength(3);
  });

  it('takes a custom label, can hide it visually, covers the viewport when asked, and hides when not visible', () => {
    const { rerender } = render(<LoadingOverlay label="Enviando mensaje..." hideLabel fullscreen />);
    expect(screen.getByRole('status')).toHaveTextContent('Enviando mensaje...');
    expect(screen.getByText('Enviando mensaje...')).toHaveClass('hb-visually-hidden');
    expect(screen.getByRole('status')).toHaveClass('hb-loading--fullscreen');
    rerender(<LoadingOverlay visible={false} />);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('speaks English with the en catalogue', () => {
    initTestI18n('en');
    render(<LoadingOverlay />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
  });

  it('has no serious accessibility violations', async () => {
    const { container } = render(<LoadingOverlay />);
    await act(async () => {
      await expectNoSeriousA11yViolations(container);
    });
  });
});
