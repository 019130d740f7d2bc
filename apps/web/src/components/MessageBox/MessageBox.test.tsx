import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectNoSeriousA11yViolations, initTestI18n } from '../../test';
import { MessageBox, useMessageBox } from './MessageBox';

beforeEach(() => {
  initTestI18n('es');
});
afterEach(() => {
  vi.useRealTimers();
});

describe('MessageBox', { timeout: 20_000 }, () => {
  it('shows success politely and errors assertively with the "Error: " prefix (once)', () => {
    const { rerender } = render(<MessageBox type="success" message="Cliente guardado" />);
    expect(screen.getByRole('status')).toHaveTextContent('Cliente guardado');
    rerender(<MessageBox type="error" message="Error al guardar el cliente" />);
    expect(screen.getByRole('alert')).toHaveTextContent(/^Error: Error al guardar el cliente$/);
    rerender(<MessageBox type="error" message="Error: ya prefijado" />);
    expect(screen.getByRole('alert')).toHaveTextContent(/^Error: ya prefijado$/);
  });

  it('renders nothing without a message', () => {
    const { container } = render(<MessageBox message="" />);
    expect(container).toBeEmptyDOMElement();
  });

  it('dismisses itself after the time the caller gives (4 s)', () => {
    vi.useFakeTimers();
    const onDismiss = vi.fn();
    render(<MessageBox message="Cliente eliminado" autoDismissMs={4000} onDismiss={onDismiss} />);
    act(() => {
      vi.advanceTimersByTime(3999);
    });
    expect(onDismiss).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });

  it('restarts the countdown for a new message and pauses it while hovered', () => {
    vi.useFakeTimers();
    const onDismiss = vi.fn();
    const { rerender } = render(<MessageBox message="uno" autoDismissMs={2000} onDismiss={onDismiss} />);
    act(() => {
      vi.advanceTimersByTime(1500);
    });
    rerender(<MessageBox message="dos" autoDismissMs={2000} onDismiss={onDismiss} />);
    act(() => {
      vi.advanceTimersByTime(1500);
    });
    expect(onDismiss).not.toHaveBeenCalled();
    fireEvent.mouseEnter(screen.getByRole('status'));
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(onDismiss).not.toHaveBeenCalled();
    fireEvent.mouseLeave(screen.getByRole('status'));
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });

  it('closes from its button', async () => {
    const user = userEvent.setup();
    const onDismiss = vi.fn();
    render(<MessageBox type="error" message="x" onDismiss={onDismiss} />);
    await user.click(screen.getByRole('button', { name: 'Cerrar mensaje' }));
    expect(onDismiss).toHaveBeenCalled();
  });

  it('useMessageBox drives one banner with per-message timing', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useMessageBox(5000));
    act(() => result.current.error('Ha ocurrido un error al actualizar'));
    expect(result.current.props).toMatchObject({ type: 'error', autoDismissMs: 5000 });
    act(() => result.current.success('Operación exitosa', 4000));
    const { rerender } = render(<MessageBox {...result.current.props} />);
    expect(screen.getByRole('status')).toHaveTextContent('Operación exitosa');
    act(() => {
      vi.advanceTimersByTime(4000);
    });
    expect(result.current.state).toBeNull();
    rerender(<MessageBox {...result.current.props} />);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('gives the same text shown again a fresh countdown', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useMessageBox());
    act(() => result.current.success('Cliente guardado', 4000));
    const { rerender } = render(<MessageBox {...result.current.props} />);
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    act(() => result.current.success('Cliente guardado', 4000));
    rerender(<MessageBox {...result.current.props} />);
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    expect(result.current.state?.message).toBe('Cliente guardado');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(result.current.state).toBeNull();
  });

  it('has no serious accessibility violations', async () => {
    const { container } = render(
      <>
        <MessageBox type="success" message="Operación exitosa" onDismiss={() => {}} />
        <MessageBox type="error" message="Ocurrió un error interno" onDismiss={() => {}} />
      </>,
    );
    await act(async () => {
      await expectNoSeriousA11yViolations(container);
    });
  });
});
