import type { Client, MessageTemplate } from '@hablabot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  installTestLayout,
  jsonResponse,
  makeClient,
  mockFetch,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
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
  restoreLayout();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function routes(client: Client) {
  return mockFetch({
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
});
