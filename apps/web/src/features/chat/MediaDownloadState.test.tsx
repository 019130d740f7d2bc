import type { Message } from '@hablabot/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../../lib/i18n';
import { setSession } from '../../lib/session';
import { mockFetch, newQueryClient, setupTestI18n } from '../../test';
import { type MessagePages, chatKeys, updateCachedMessage } from './api';
import { history, makeMessage } from './inbox-test-data';
import { MessageBubble } from './MessageBubble';

// A customer's photo as the chat shows it while the server fetches it from WhatsApp: 'Descargando…'
// with a spinner, the picture once stored, or why it failed with 'Reintentar', which asks the server to
// try again and shows the answer.
const photo = (overrides: Partial<Message>) =>
  makeMessage({
    id: 5,
    message_type: 'image',
    content: '📷 Imagen',
    media_mime_type: 'image/jpeg',
    ...overrides,
  });

function show(message: Message, queryClient = newQueryClient()) {
  return render(
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18next}>
        <MessageBubble message={message} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe("a customer's media in the chat", () => {
  beforeEach(() => {
    setupTestI18n('es');
    setSession({ token: 'tok', user: { id: 1, email: 'a@x.mx' }, rol: 'admin' });
  });
  afterEach(() => vi.unstubAllGlobals());

  it("shows 'Descargando…' with a spinner while it is fetched, and no retry", () => {
    const { container } = show(photo({ media_status: 'pending' }));
    expect(screen.getByRole('status')).toHaveTextContent('Descargando…');
    expect(container.querySelector('.chat-media-state--pending .spinner')).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Reintentar' })).toBeNull();
    expect(container.querySelector('img')).toBeNull();
  });

  it('shows the file once it is ready', async () => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:test/5', revokeObjectURL: () => {} }),
    );
    mockFetch({ 'GET /api/v1/admin/files/5': () => new Response('jpeg', { status: 200 }) });
    const { container } = show(photo({ media_status: 'ready', media_url: '/api/v1/admin/files/5' }));
    await vi.waitFor(() => expect(container.querySelector('img')).toHaveAttribute('src', 'blob:test/5'));
    expect(screen.queryByText('Descargando…')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reintentar' })).toBeNull();
  });

  it("shows why it failed and 'Reintentar', which asks the server and shows the download again", async () => {
    const failed = photo({
      media_status: 'failed',
      error_message: 'No se pudo descargar el archivo: WhatsApp ya no lo tiene disponible.',
    });
    const restarted = { ...failed, media_status: 'pending' as const, error_message: null };
    const net = mockFetch({
      'POST /api/v1/admin/messages/5/media/retry': [
        200,
        { data: restarted, message: 'Descargando el archivo de nuevo.' },
      ],
    });
    const queryClient = newQueryClient();
    queryClient.setQueryData<MessagePages>(chatKeys.conversation(1), {
      pages: [history([failed])],
      pageParams: [1],
    });
    show(failed, queryClient);
    expect(
      screen.getByText('No se pudo descargar el archivo: WhatsApp ya no lo tiene disponible.'),
    ).toBeVisible();

    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(net.calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([
      '/api/v1/admin/messages/5/media/retry',
    ]);
    // The conversation's cache holds the message as the server answered it: pending again.
    await vi.waitFor(() =>
      expect(
        queryClient.getQueryData<MessagePages>(chatKeys.conversation(1))?.pages[0].messages[0],
      ).toMatchObject({
        media_status: 'pending',
      }),
    );
  });

  it("keeps the file the live stream brought before the retry's answer came", async () => {
    const failed = photo({ media_status: 'failed', error_message: 'No se pudo descargar el archivo.' });
    const stored = { ...failed, media_status: 'ready' as const, error_message: null };
    const restarted = { ...failed, media_status: 'pending' as const, error_message: null };
    const queryClient = newQueryClient();
    queryClient.setQueryData<MessagePages>(chatKeys.conversation(1), {
      pages: [history([failed])],
      pageParams: [1],
    });
    mockFetch({
      // The download is done and streamed while the retry's request is still under way.
      'POST /api/v1/admin/messages/5/media/retry': () => {
        updateCachedMessage(queryClient, 1, 5, () => stored);
        return Response.json({ data: restarted, message: 'Descargando el archivo de nuevo.' });
      },
    });
    show(failed, queryClient);
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Reintentar' })).toBeEnabled());
    expect(
      queryClient.getQueryData<MessagePages>(chatKeys.conversation(1))?.pages[0].messages[0],
    ).toMatchObject({
      media_status: 'ready',
    });
  });

  it('says so when the retry cannot be started, and reads in English', async () => {
    await i18next.changeLanguage('en');
    mockFetch({ 'POST /api/v1/admin/messages/5/media/retry': [409, { message: 'conflict' }] });
    show(photo({ media_status: 'failed', error_message: null }));
    expect(screen.getByText('The file could not be downloaded from WhatsApp.')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The retry could not be started.');
  });

  it("reads 'Downloading…' in English", async () => {
    await i18next.changeLanguage('en');
    show(photo({ media_status: 'pending' }));
    expect(screen.getByRole('status')).toHaveTextContent('Downloading…');
  });
});
