import type { Message, MessageTemplate } from '@hablabot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../lib/session';
import {
  jsonResponse,
  makeMedia,
  mockFetch,
  renderWithQuery,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import { makeMessage } from './inbox-test-data';
import { TemplatesModal } from './TemplatesModal';

// The chat's template modal with templates WhatsApp only takes with more than body values: a media
// header (its file picked from the media library) and a URL button whose link ends in {{1}}.

const PROMO: MessageTemplate = {
  id: 3,
  name: 'oferta_pedido',
  language: 'es',
  category: 'MARKETING',
  status: 'APPROVED',
  components: [
    { type: 'HEADER', format: 'IMAGE', text: null, buttons: [] },
    { type: 'BODY', format: null, text: 'Hola {{1}}, tu pedido está listo.', buttons: [] },
    {
      type: 'BUTTONS',
      format: null,
      text: null,
      buttons: [
        { type: 'QUICK_REPLY', text: 'Gracias', url: null, phone_number: null },
        { type: 'URL', text: 'Ver pedido', url: 'https://tienda.example/pedido/{{1}}', phone_number: null },
        { type: 'URL', text: 'Tienda', url: 'https://tienda.example/', phone_number: null },
      ],
    },
  ],
};

const ANA = { id: 1, name: 'Ana', phone: '5215512345678', avatar: null };

beforeEach(() => {
  setSession({ token: 'tok', user: { id: 1, email: 'marta@x.mx', name: 'Marta' }, rol: 'admin' });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function serve() {
  return mockFetch({
    'GET /api/v1/templates': [200, { data: [PROMO] }],
    'GET /api/v1/admin/media/user': [
      200,
      {
        media: [
          makeMedia({ id: 12, file_name: 'pedido.png' }),
          makeMedia({ id: 13, file_name: 'catalogo.pdf', kind: 'document', mime_type: 'application/pdf' }),
        ],
        pagination: { current_page: 1, per_page: 60, total: 2, last_page: 1 },
      },
    ],
    'POST /api/v1/admin/messages/send-template-message': () =>
      jsonResponse(201, {
        success: true,
        message: 'Enviado',
        data: makeMessage({
          id: 80,
          sender_type: 'admin',
          content: 'Hola Ana, tu pedido está listo.',
        }) as Message,
      }),
  });
}

describe.each([
  {
    language: 'es' as const,
    header: 'Archivo del encabezado (imagen)',
    choose: 'Elegir de la biblioteca',
    change: 'Cambiar archivo',
    value: 'Valor de {{1}}',
    button: 'Final del enlace del botón «Ver pedido»',
    send: 'Enviar mensaje',
    title: 'Mensaje plantilla',
  },
  {
    language: 'en' as const,
    header: 'Header file (image)',
    choose: 'Choose from the library',
    change: 'Change file',
    value: 'Value of {{1}}',
    button: 'End of the link of button “Ver pedido”',
    send: 'Send message',
    title: 'Template message',
  },
])('TemplatesModal in $language', (x) => {
  it(
    'asks for the header file and the URL suffix before sending, and sends both',
    async () => {
      setupTestI18n(x.language);
      const net = serve();
      const onSent = vi.fn();
      renderWithQuery(<TemplatesModal open contact={ANA} onClose={() => {}} onSent={onSent} />);
      const dialog = await screen.findByRole('dialog', { name: x.title });
      await userEvent.click(await within(dialog).findByRole('radio', { name: /oferta_pedido/ }));
      const send = within(dialog).getByRole('button', { name: x.send });
      await userEvent.type(within(dialog).getByRole('textbox', { name: x.value }), 'Ana');
      // Still missing: the header file and the link's end.
      expect(send).toBeDisabled();
      expect(within(dialog).getByText(x.header)).toBeInTheDocument();
      // Only the URL button with a placeholder asks for a value.
      expect(within(dialog).getAllByRole('textbox')).toHaveLength(2);
      await userEvent.type(within(dialog).getByRole('textbox', { name: x.button }), 'A-1234');
      expect(send).toBeDisabled();
      await userEvent.click(within(dialog).getByRole('button', { name: x.choose }));
      const picker = await screen.findByRole('dialog', { name: /biblioteca|library/i });
      // The picker offers images only: the template's header is an image.
      expect(await within(picker).findByRole('button', { name: /pedido\.png/ })).toBeInTheDocument();
      expect(within(picker).queryByRole('button', { name: /catalogo\.pdf/ })).toBeNull();
      await userEvent.click(within(picker).getByRole('button', { name: /pedido\.png/ }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: /biblioteca|library/i })).toBeNull());
      expect(within(dialog).getByRole('button', { name: x.change })).toBeInTheDocument();
      expect(within(dialog).getAllByText('pedido.png').length).toBeGreaterThan(0);
      expect(send).toBeEnabled();
      await userEvent.click(send);
      await waitFor(() => expect(onSent).toHaveBeenCalled());
      const posted = net.calls.find((c) => c.url === '/api/v1/admin/messages/send-template-message');
      expect(posted?.body).toEqual({
        client_id: 1,
        phone: '5215512345678',
        templateName: 'oferta_pedido',
        language: 'es',
        message: 'Hola Ana, tu pedido está listo.',
        bodyParameters: { '1': 'Ana' },
        media_id: 12,
        buttonParameters: { '1': 'A-1234' },
      });
    },
    SCREEN_TEST_TIMEOUT,
  );
});
