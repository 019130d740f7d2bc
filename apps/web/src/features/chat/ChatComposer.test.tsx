import type { Message, QuickReply } from '@hablabot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  jsonResponse,
  makeMedia,
  type RecordedCall,
  SCREEN_TEST_TIMEOUT,
} from '../../test';
import { ago, customerMessage, openAna, serveAna, setUpAnaChat, VIEWER } from './ana-chat-setup';
import { callsTo, makeMessage } from './inbox-test-data';

// The composer's tools: internal notes, quick replies after '/', and files of the media library.

function quickReply(overrides: Partial<QuickReply>): QuickReply {
  return {
    id: 1,
    shortcut: 'horario',
    text: 'Abrimos de 9 a 14',
    media_id: null,
    media: null,
    created_at: ago(60),
    updated_at: ago(60),
    ...overrides,
  };
}

const QUICK_REPLIES = [
  quickReply({ id: 1 }),
  quickReply({
    id: 2,
    shortcut: 'catalogo',
    text: 'Te paso el catálogo',
    media_id: 9,
    media: { id: 9, name: 'catalogo.pdf', mime_type: 'application/pdf', url: '/storage/catalogo.pdf' },
  }),
  quickReply({ id: 3, shortcut: 'gracias', text: 'Gracias por escribirnos' }),
];

/** A message the company stored, as POST /admin/message answers it. */
function sentMessage(id: number, body: { content: string; media_id?: number }): Message {
  return makeMessage({
    id,
    content: body.content,
    sender_type: 'admin',
    status: 1,
    status_name: 'sent',
    author: { type: 'user', id: VIEWER.id, name: VIEWER.name },
    created_at: new Date().toISOString(),
    ...(body.media_id
      ? {
          message_type: 'image',
          media_url: `/api/v1/admin/files/${body.media_id}`,
          media_caption: body.content,
          media_mime_type: 'image/png',
        }
      : {}),
  });
}

/** The chat over Ana's conversation; a message sent is stored as the company's (`sentMessage`). */
const serve = (stored: Message[], extra: Record<string, (call: RecordedCall) => Response> = {}) =>
  serveAna(
    stored,
    (body, id) => sentMessage(id, body as { content: string; media_id?: number }),
    'ok',
    extra,
  );

setUpAnaChat();

describe('chat composer', () => {
  it(
    "'Nota interna' posts to the conversation's notes and shows the note in its own style, never as a reply",
    async () => {
      const stored = [
        customerMessage(),
        makeMessage({
          id: 2,
          kind: 'note',
          content: 'Es clienta desde 2020',
          sender_type: 'admin',
          status: 1,
          status_name: 'sent',
          author: { type: 'user', id: 12, name: 'Pedro' },
          created_at: ago(20),
        }),
      ];
      const net = serve(stored, {
        'POST /api/v1/admin/conversations/501/notes': (call) => {
          const note = makeMessage({
            id: 3,
            kind: 'note',
            content: (call.body as { text: string }).text,
            sender_type: 'admin',
            status: 1,
            status_name: 'sent',
            author: { type: 'user', id: VIEWER.id, name: VIEWER.name },
            created_at: new Date().toISOString(),
          });
          stored.push(note);
          return jsonResponse(201, { data: note });
        },
      });
      const conversation = await openAna();

      // A note already in the history: labelled, named, without ticks nor 'Responder'.
      const pedro = conversation.querySelector('[data-message-id="2"]') as HTMLElement;
      expect(pedro.classList).toContain('chat-message--note');
      expect(within(pedro).getByText('Nota interna')).toBeInTheDocument();
      expect(within(pedro).getByText('Pedro')).toBeInTheDocument();
      expect(within(pedro).queryByRole('img')).toBeNull();
      expect(within(pedro).queryByRole('button', { name: 'Responder' })).toBeNull();
      // Only the customer's message offers 'Responder'.
      expect(within(conversation).getAllByRole('button', { name: 'Responder' })).toHaveLength(1);

      await userEvent.click(within(conversation).getByRole('radio', { name: 'Nota interna' }));
      await expectNoSeriousA11yViolations(conversation);
      const box = within(conversation).getByRole('textbox', { name: 'Escribe una nota para el equipo...' });
      await userEvent.type(box, 'Llamarla mañana{Enter}');
      await waitFor(() =>
        expect(callsTo(net.calls, 'POST', '/api/v1/admin/conversations/501/notes')).toHaveLength(1),
      );
      expect(callsTo(net.calls, 'POST', '/api/v1/admin/conversations/501/notes')[0]?.body).toEqual({
        text: 'Llamarla mañana',
      });
      // Never a message to WhatsApp.
      expect(callsTo(net.calls, 'POST', '/api/v1/admin/message')).toHaveLength(0);
      const mine = await waitFor(() => {
        const el = conversation.querySelector('[data-message-id="3"]') as HTMLElement;
        expect(el).not.toBeNull();
        return el;
      });
      expect(mine.classList).toContain('chat-message--note');
      expect(within(mine).getByText('Nota interna')).toBeInTheDocument();
      expect(within(mine).getByText('Tú')).toBeInTheDocument();
      expect(within(mine).getByText('Llamarla mañana')).toBeInTheDocument();
      expect(within(mine).queryByRole('img')).toBeNull();
      expect(box).toHaveValue('');
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    "'/' opens the quick replies, filtered as typed; arrows and Enter choose one, filling the text and attaching its file",
    async () => {
      const stored = [customerMessage()];
      const net = serve(stored, {
        'GET /api/v1/admin/quick-replies': () => jsonResponse(200, { data: QUICK_REPLIES }),
      });
      const conversation = await openAna();
      const box = within(conversation).getByRole('textbox', { name: 'Escribe un mensaje...' });
      const options = () =>
        within(screen.getByRole('listbox', { name: 'Respuestas rápidas' })).queryAllByRole('option');
      const shortcuts = () => options().map((o) => o.querySelector('.chat-quick__shortcut')?.textContent);

      await userEvent.type(box, '/');
      await waitFor(() => expect(shortcuts()).toEqual(['/horario', '/catalogo', '/gracias']));
      expect(box).toHaveAttribute('aria-controls', screen.getByRole('listbox').id);
      // By shortcut, then by text.
      await userEvent.type(box, 'cat');
      expect(shortcuts()).toEqual(['/catalogo']);
      await userEvent.clear(box);
      await userEvent.type(box, '/escrib');
      expect(shortcuts()).toEqual(['/gracias']);
      // Escape closes the list and keeps the text.
      await userEvent.keyboard('{Escape}');
      expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
      expect(box).toHaveValue('/escrib');

      await userEvent.clear(box);
      await userEvent.type(box, '/a');
      expect(shortcuts()).toEqual(['/horario', '/catalogo', '/gracias']);
      expect(options()[0]).toHaveAttribute('aria-selected', 'true');
      await userEvent.keyboard('{ArrowDown}');
      expect(options()[1]).toHaveAttribute('aria-selected', 'true');
      expect(box).toHaveAttribute('aria-activedescendant', options()[1]?.id);
      await expectNoSeriousA11yViolations(conversation);
      await userEvent.keyboard('{ArrowUp}{ArrowUp}{ArrowDown}{ArrowDown}');
      await userEvent.keyboard('{Enter}');
      expect(box).toHaveValue('Te paso el catálogo');
      expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
      expect(within(conversation).getByTestId('chat-attachment').textContent).toBe('catalogo.pdf');
      // Nothing was sent by choosing; the list was read once.
      expect(callsTo(net.calls, 'POST', '/api/v1/admin/message')).toHaveLength(0);
      expect(callsTo(net.calls, 'GET', '/api/v1/admin/quick-replies')).toHaveLength(1);

      await userEvent.keyboard('{Enter}');
      await waitFor(() => expect(callsTo(net.calls, 'POST', '/api/v1/admin/message')).toHaveLength(1));
      expect(callsTo(net.calls, 'POST', '/api/v1/admin/message')[0]?.body).toEqual({
        content: 'Te paso el catálogo',
        client_id: 1,
        phone: '5215512345678',
        media_id: 9,
      });
      expect(within(conversation).queryByTestId('chat-attachment')).not.toBeInTheDocument();
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    "'Biblioteca de medios' attaches the chosen file (removable) and sends it with the text as caption",
    async () => {
      vi.stubGlobal(
        'URL',
        Object.assign(URL, { createObjectURL: () => 'blob:test/1', revokeObjectURL: () => {} }),
      );
      const logo = makeMedia({ id: 3, file_name: 'logo.png', kind: 'image' });
      const menu = makeMedia({
        id: 4,
        file_name: 'menu.pdf',
        kind: 'document',
        mime_type: 'application/pdf',
      });
      const stored = [customerMessage()];
      const library = {
        media: [logo, menu],
        pagination: { current_page: 1, per_page: 60, total: 2, last_page: 1 },
      };
      const net = serve(stored, {
        'GET /api/v1/admin/media/user': () => jsonResponse(200, library),
        'GET /api/v1/admin/files/3': () => new Response('png', { status: 200 }),
      });
      const conversation = await openAna();
      const pick = async (name: string) => {
        await userEvent.click(within(conversation).getByRole('button', { name: 'Más opciones' }));
        await userEvent.click(screen.getByRole('menuitem', { name: 'Biblioteca de medios' }));
        const dialog = await screen.findByRole('dialog', { name: 'Biblioteca de medios' });
        await userEvent.click(await within(dialog).findByRole('button', { name: `Elegir ${name}` }));
        await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      };

      await pick('menu.pdf');
      expect(within(conversation).getByTestId('chat-attachment').textContent).toBe('menu.pdf');
      await userEvent.click(within(conversation).getByRole('button', { name: 'Quitar menu.pdf' }));
      expect(within(conversation).queryByTestId('chat-attachment')).not.toBeInTheDocument();

      await pick('logo.png');
      expect(within(conversation).getByTestId('chat-attachment').textContent).toBe('logo.png');
      await userEvent.type(within(conversation).getByRole('textbox'), 'Nuestro logo');
      await userEvent.click(within(conversation).getByRole('button', { name: 'Enviar' }));
      await waitFor(() => expect(callsTo(net.calls, 'POST', '/api/v1/admin/message')).toHaveLength(1));
      expect(callsTo(net.calls, 'POST', '/api/v1/admin/message')[0]?.body).toEqual({
        content: 'Nuestro logo',
        client_id: 1,
        phone: '5215512345678',
        media_id: 3,
      });
      // The stored message shows as the picture it is.
      const image = await within(conversation).findByRole('img', { name: 'Nuestro logo' });
      expect(image.closest('[data-message-id]')?.getAttribute('data-message-id')).toBe('91');
      expect(within(conversation).queryByTestId('chat-attachment')).not.toBeInTheDocument();
    },
    SCREEN_TEST_TIMEOUT,
  );
  it(
    'a note may be written when the 24-hour window is closed, and a reply may not',
    async () => {
      const stored = [makeMessage({ id: 1, content: '¿Seguís abiertos?', created_at: ago(30 * 60) })];
      serve(stored);
      const conversation = await openAna();
      expect(within(conversation).getByRole('textbox')).toBeDisabled();
      await userEvent.click(within(conversation).getByRole('radio', { name: 'Nota interna' }));
      expect(within(conversation).getByRole('textbox')).toBeEnabled();
      await userEvent.click(within(conversation).getByRole('radio', { name: 'Responder' }));
      expect(within(conversation).getByRole('textbox')).toBeDisabled();
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'a library file that could not be sent comes back to the composer with its caption',
    async () => {
      const stored = [customerMessage()];
      const net = serve(stored, {
        'GET /api/v1/admin/quick-replies': () => jsonResponse(200, { data: QUICK_REPLIES }),
        'POST /api/v1/admin/message': () =>
          jsonResponse(422, { message: 'El archivo ya no existe', errors: {} }),
      });
      const conversation = await openAna();
      const box = within(conversation).getByRole('textbox');
      await userEvent.type(box, '/catalogo{Enter}');
      expect(within(conversation).getByTestId('chat-attachment').textContent).toBe('catalogo.pdf');
      await userEvent.keyboard('{Enter}');
      await waitFor(() => expect(callsTo(net.calls, 'POST', '/api/v1/admin/message')).toHaveLength(1));
      await within(conversation).findByRole('alert');
      expect(box).toHaveValue('Te paso el catálogo');
      expect(within(conversation).getByTestId('chat-attachment').textContent).toBe('catalogo.pdf');
    },
    SCREEN_TEST_TIMEOUT,
  );
});
