import type { Client, MessageTemplate } from '@hablabot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  eventStream,
  installTestLayout,
  jsonResponse,
  makeClient,
  mockFetch,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import { clearSession, setSession } from '../../lib/session';
import {
  callsTo,
  conversationOf,
  conversationsPage,
  history,
  makeMessage,
  renderChat,
} from './inbox-test-data';

// Consent in the chat: 'Dado de baja' under the name of a customer who opted out, the 'Campañas' line of
// the details, and a template to them sent only after the agent confirms it.

const ana = makeClient({ id: 1, name: 'Ana', whatsapp_cellphone: '5215512345678' });
const OPTED_OUT_AT = '2026-11-20T10:00:00.000Z';
const template: MessageTemplate = {
  id: 1,
  name: 'novedades',
  language: 'es',
  category: 'MARKETING',
  status: 'APPROVED',
  components: [{ type: 'BODY', format: null, text: 'Tenemos novedades.', buttons: [] }],
};

let restoreLayout: () => void = () => {};
beforeEach(() => {
  setupTestI18n('es');
  restoreLayout = installTestLayout({ rowHeight: 72 });
});
afterEach(() => {
  clearSession();
  restoreLayout();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function routes(client: Client, stream?: ReturnType<typeof eventStream>) {
  return mockFetch({
    ...(stream ? { 'GET /api/v1/admin/events': () => stream.response() } : {}),
    'GET /api/v1/admin/conversations': [200, conversationsPage([conversationOf(ana)])],
    'GET /api/v1/admin/client/1/messages': [200, history([makeMessage({ content: 'STOP' })])],
    'GET /api/v1/admin/client/1': [200, { client }],
    'GET /api/v1/templates': [200, { data: [template] }],
    'POST /api/v1/admin/messages/send-template-message': (call) =>
      (call.body as { confirm_opted_out?: boolean }).confirm_opted_out
        ? jsonResponse(201, {
            success: true,
            message: 'Enviado',
            data: makeMessage({ id: 9, sender_type: 'admin', content: 'Tenemos novedades.', status: 1 }),
          })
        : jsonResponse(409, {
            message: 'Este cliente se dio de baja de las campañas.',
            errors: { confirm_opted_out: ['Este cliente se dio de baja de las campañas.'] },
          }),
  });
}

describe('ChatPage consent', () => {
  it(
    'shows "Dado de baja" and sends a template to an opted-out customer only after the confirmation',
    async () => {
      const net = routes({ ...ana, opted_out_at: OPTED_OUT_AT });
      renderChat({ client: { id: 1, name: 'Ana', phone: '5215512345678', avatar: null } });
      const conversation = await screen.findByRole('region', { name: 'Ana' });
      expect(await within(conversation).findByText('Dado de baja')).toBeInTheDocument();

      await userEvent.click(within(conversation).getByRole('button', { name: 'Más opciones' }));
      await userEvent.click(screen.getByRole('menuitem', { name: 'Mensaje plantilla' }));
      const modal = await screen.findByRole('dialog', { name: 'Mensaje plantilla' });
      await userEvent.click(await within(modal).findByRole('radio', { name: /novedades/ }));
      await userEvent.click(within(modal).getByRole('button', { name: 'Enviar mensaje' }));
      const confirm = await screen.findByRole('alertdialog', { name: 'Cliente dado de baja' });
      expect(
        within(confirm).getByText(
          'Este cliente se dio de baja de las campañas. ¿Enviar la plantilla de todos modos?',
        ),
      ).toBeInTheDocument();
      await userEvent.click(within(confirm).getByRole('button', { name: 'Enviar de todos modos' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      const sends = callsTo(net.calls, 'POST', '/api/v1/admin/messages/send-template-message');
      expect(sends.map((c) => (c.body as { confirm_opted_out?: boolean }).confirm_opted_out)).toEqual([
        undefined,
        true,
      ]);
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'a cancelled confirmation sends nothing more; a subscribed customer has no badge',
    async () => {
      const net = routes({ ...ana, opted_out_at: null });
      renderChat({ client: { id: 1, name: 'Ana', phone: '5215512345678', avatar: null } });
      const conversation = await screen.findByRole('region', { name: 'Ana' });
      await within(conversation).findByText('STOP');
      await waitFor(() => expect(callsTo(net.calls, 'GET', '/api/v1/admin/client/1')).not.toHaveLength(0));
      expect(within(conversation).queryByText('Dado de baja')).toBeNull();

      await userEvent.click(within(conversation).getByRole('button', { name: 'Más opciones' }));
      await userEvent.click(screen.getByRole('menuitem', { name: 'Mensaje plantilla' }));
      const modal = await screen.findByRole('dialog', { name: 'Mensaje plantilla' });
      await userEvent.click(await within(modal).findByRole('radio', { name: /novedades/ }));
      await userEvent.click(within(modal).getByRole('button', { name: 'Enviar mensaje' }));
      const confirm = await screen.findByRole('alertdialog', { name: 'Cliente dado de baja' });
      await userEvent.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
      await waitFor(() =>
        expect(screen.queryByRole('alertdialog', { name: 'Cliente dado de baja' })).toBeNull(),
      );
      expect(screen.getByRole('dialog', { name: 'Mensaje plantilla' })).toBeInTheDocument();
      expect(callsTo(net.calls, 'POST', '/api/v1/admin/messages/send-template-message')).toHaveLength(1);
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'the badge follows the live client.updated, and a new message does not read the client again',
    async () => {
      setSession({ token: 'tok-consent', user: { id: 1, email: 'a@b.c' }, rol: 'admin' });
      const stream = eventStream();
      const net = routes({ ...ana, opted_out_at: null }, stream);
      renderChat({ client: { id: 1, name: 'Ana', phone: '5215512345678', avatar: null } });
      const conversation = await screen.findByRole('region', { name: 'Ana' });
      await within(conversation).findByText('STOP');
      await waitFor(() => expect(callsTo(net.calls, 'GET', '/api/v1/admin/client/1')).toHaveLength(1));
      expect(within(conversation).queryByText('Dado de baja')).toBeNull();
      await stream.connected;
      // The customer's next words arrive: the chat shows them, the client is not read again.
      await stream.send('message.created', {
        client_id: 1,
        message: makeMessage({ id: 50, content: 'BAJA' }),
      });
      expect(await within(conversation).findByText('BAJA')).toBeInTheDocument();
      // The server marked them opted out: the badge shows at once.
      await stream.send('client.updated', { client_id: 1, opted_out_at: OPTED_OUT_AT });
      expect(await within(conversation).findByText('Dado de baja')).toBeInTheDocument();
      // Another client's change leaves this one alone; their opt-in takes the badge away.
      await stream.send('client.updated', { client_id: 2, opted_out_at: null });
      expect(within(conversation).getByText('Dado de baja')).toBeInTheDocument();
      await stream.send('client.updated', { client_id: 1, opted_out_at: null });
      await waitFor(() => expect(within(conversation).queryByText('Dado de baja')).toBeNull());
      expect(callsTo(net.calls, 'GET', '/api/v1/admin/client/1')).toHaveLength(1);
    },
    SCREEN_TEST_TIMEOUT,
  );
});
