import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../lib/i18n';
import { LANGUAGE_FEEDBACK_MS } from '../lib/language';
import { setSession } from '../lib/session';
import { jsonResponse, renderWithI18n, setupTestI18n } from '../test';
import { LanguageSwitcher } from './LanguageSwitcher';

const fetchMock = vi.fn<typeof fetch>();

function select() {
  return screen.getByRole('combobox') as HTMLSelectElement;
}

beforeEach(async () => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  await setupTestI18n('es');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('LanguageSwitcher', () => {
  it('offers Spanish and English, Spanish by default', () => {
    renderWithI18n(<LanguageSwitcher />);
    expect(screen.getByLabelText('Idioma')).toBe(select());
    expect(select().value).toBe('es');
    expect(screen.getByRole('option', { name: 'Español' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'English' })).toBeInTheDocument();
  });

  it('tells the server, stores the choice and shows the message for 5 seconds', async () => {
    setSession({ token: 'tok', user: { id: 1, name: 'Ana', email: 'a@x.io' }, rol: 'admin' });
    fetchMock.mockResolvedValue(
      jsonResponse(200, { success: true, message: 'Language updated successfully.' }),
    );
    renderWithI18n(<LanguageSwitcher />);

    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.change(select(), { target: { value: 'en' } });

    expect(await screen.findByText('Language updated successfully.')).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/v1/language/set');
    expect(JSON.parse(String(init?.body))).toEqual({ language: 'en' });
    const headers = new Headers(init?.headers);
    expect(headers.get('Authorization')).toBe('Bearer tok');
    expect(headers.get('Accept-Language')).toBe('en');
    expect(localStorage.getItem('language')).toBe('en');
    expect(i18next.language).toBe('en');
    expect(select().value).toBe('en');
    expect(screen.getByLabelText('Language')).toBeInTheDocument();

    await act(async () => {
      vi.advanceTimersByTime(LANGUAGE_FEEDBACK_MS - 100);
    });
    expect(screen.getByText('Language updated successfully.')).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByText('Language updated successfully.')).not.toBeInTheDocument();
  });

  it('falls back to its own text when the server sends no message', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true }));
    renderWithI18n(<LanguageSwitcher />);
    fireEvent.change(select(), { target: { value: 'en' } });
    expect(await screen.findByText('Language set temporarily.')).toBeInTheDocument();
  });

  it('blocks a second change while one is running', async () => {
    let answer: (value: Response) => void = () => {};
    fetchMock.mockReturnValue(new Promise<Response>((resolve) => (answer = resolve)));
    renderWithI18n(<LanguageSwitcher />);

    fireEvent.change(select(), { target: { value: 'en' } });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(select()).toHaveAttribute('aria-busy', 'true');
    fireEvent.change(select(), { target: { value: 'es' } });
    fireEvent.change(select(), { target: { value: 'en' } });
    expect(fetchMock).toHaveBeenCalledTimes(1);

    await act(async () => answer(jsonResponse(200, { success: true, message: 'Language set temporarily.' })));
    expect(await screen.findByText('Language set temporarily.')).toBeInTheDocument();
    expect(select()).toHaveAttribute('aria-busy', 'false');
  });

  it('reverts to the stored language and shows the server message on failure', async () => {
    localStorage.setItem('language', 'es');
    fetchMock.mockResolvedValue(jsonResponse(500, { message: 'Ocurrió un error en el servidor.' }));
    renderWithI18n(<LanguageSwitcher />);

    fireEvent.change(select(), { target: { value: 'en' } });

    expect(await screen.findByText('Ocurrió un error en el servidor.')).toBeInTheDocument();
    expect(i18next.language).toBe('es');
    expect(select().value).toBe('es');
    expect(localStorage.getItem('language')).toBe('es');
  });

  it('shows a generic error when the server does not answer', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    renderWithI18n(<LanguageSwitcher />);
    fireEvent.change(select(), { target: { value: 'en' } });
    expect(await screen.findByText('Ocurrió un error interno')).toBeInTheDocument();
    expect(i18next.language).toBe('es');
  });
});
