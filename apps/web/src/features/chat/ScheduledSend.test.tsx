import type { Message, MessageTemplate } from '@hablabot/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { eventStream, jsonResponse, mockFetch, SCREEN_TEST_TIMEOUT, type RecordedCall } from '../../test';
import { ago, anaRow, customerMessage, openAna, serveAna, setUpAnaChat, VIEWER } from './ana-chat-setup';
import { callsTo, conversationsRoute, history, makeMessage } from './inbox-test-data';
import { localParts, ScheduleDialog, scheduledMoment } from './ScheduleDialog';

// 'Programar envío': the dialog's date and time (the browser's time zone) and the scheduled bubble's
// 'Programado para …' with 'Editar' and 'Cancelar'.

const HOUR = 60 * 60 * 1000;

function scheduledMessage(id: number, content: string, sendAt: string): Message {
  return makeMessage({
    id,
    content,
    sender_type: 'admin',
    status: 5,
    status_name: 'scheduled',
    scheduled_at: sendAt,
    author: { type: 'user', id: VIEWER.id, name: VIEWER.name },
    created_at: new Date().toISOString(),
  });
}

/** The chat over Ana's conversation; a message sent with `send_at` is stored scheduled. */
const serve = (stored: Message[], extra: Record<string, (call: RecordedCall) => Response> = {}) =>
  serveAna(
    stored,
    (body, id) => scheduledMessage(id, body.content as string, body.send_at as string),
    'Mensaje programado.',
    extra,
  );

setUpAnaChat();

describe('schedule dialog', () => {
  it('reads the date and time in the browser’s time zone and refuses a missing, past or too far time', () => {
    const now = new Date(2026, 10, 26, 10, 0).getTime();
    expect(scheduledMoment('2026-11-26', '12:30', now)).toEqual({
      iso: new Date(2026, 10, 26, 12, 30).toISOString(),
    });
    expect(scheduledMoment('', '12:30', now)).toEqual({ problem: 'required' });
    expect(scheduledMoment('2026-11-26', '', now)).toEqual({ problem: 'required' });
    expect(scheduledMoment('2026-11-26', '09:59', now)).toEqual({ problem: 'past' });
    expect(scheduledMoment('2026-12-27', '10:00', now)).toEqual({ problem: 'tooFar' });
    expect(scheduledMoment('2026-12-26', '10:00', now)).toHaveProperty('iso');
  });

  it('says what is wrong under the fields and confirms a valid time', async () => {
    const onConfirm = vi.fn();
    render(<ScheduleDialog open onClose={() => {}} onConfirm={onConfirm} />);
    const dialog = await screen.findByRole('dialog', { name: 'Programar envío' });
    const past = localParts(new Date(Date.now() - HOUR));
    const date = within(dialog).getByLabelText('Fecha');
    const time = within(dialog).getByLabelText('Hora');
    await userEvent.clear(date);
    await userEvent.type(date, past.date);
    await userEvent.clear(time);
    await userEvent.type(time, past.time);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Programar' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('La fecha y hora deben ser futuras.');
    expect(time).toHaveAttribute('aria-invalid', 'true');
    expect(onConfirm).not.toHaveBeenCalled();

    const soon = new Date(Date.now() + 2 * HOUR);
    soon.setSeconds(0, 0);
    const parts = localParts(soon);
    await userEvent.clear(date);
    await userEvent.type(date, parts.date);
    await userEvent.clear(time);
    await userEvent.type(time, parts.time);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Programar' }));
    expect(onConfirm).toHaveBeenCalledWith(soon.toISOString(), undefined);
  });
});

describe('scheduled messages in the chat', () => {
  it(
    "'Programar envío' sends the text with send_at and the thread shows 'Programado para …'",
    async () => {
      const stored = [customerMessage()];
      const net = serve(stored);
      const conversation = await openAna();
      await userEvent.type(within(conversation).getByRole('textbox'), 'Te escribo mañana');
      await userEvent.click(within(conversation).getByRole('button', { name: 'Más opciones' }));
      await userEvent.click(screen.getByRole('menuitem', { name: 'Programar envío' }));
      const dialog = await screen.findByRole('dialog', { name: 'Programar envío' });
      await userEvent.click(within(dialog).getByRole('button', { name: 'Programar' }));
      await waitFor(() => expect(callsTo(net.calls, 'POST', '/api/v1/admin/message')).toHaveLength(1));
      const body = callsTo(net.calls, 'POST', '/api/v1/admin/message')[0]?.body as Record<string, unknown>;
      expect(body).toMatchObject({ content: 'Te escribo mañana', client_id: 1 });
      expect(Date.parse(String(body.send_at))).toBeGreaterThan(Date.now());
      const info = await within(conversation).findByTestId('scheduled-info');
      expect(info.textContent).toMatch(/^Programado para /);
      expect(within(info).getByRole('button', { name: 'Editar' })).toBeInTheDocument();
      expect(within(info).getByRole('button', { name: 'Cancelar' })).toBeInTheDocument();
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    "the template modal's 'Programar envío' sends the template with send_at",
    async () => {
      const template: MessageTemplate = {
        id: 1,
        name: 'recordatorio',
        language: 'es',
        category: 'UTILITY',
        status: 'APPROVED',
        components: [{ type: 'BODY', format: null, text: 'Te recordamos tu cita.', buttons: [] }],
      };
      const stored = [customerMessage()];
      const net = serve(stored, {
        'GET /api/v1/templates': () => jsonResponse(200, { data: [template] }),
        'POST /api/v1/admin/messages/send-template-message': (call) => {
          const body = call.body as { send_at: string };
          const message = scheduledMessage(50, 'Te recordamos tu cita.', body.send_at);
          stored.push(message);
          return jsonResponse(201, { success: true, message: 'Mensaje programado.', data: message });
        },
      });
      const conversation = await openAna();
      await userEvent.click(within(conversation).getByRole('button', { name: 'Más opciones' }));
      await userEvent.click(screen.getByRole('menuitem', { name: 'Mensaje plantilla' }));
      const modal = await screen.findByRole('dialog', { name: 'Mensaje plantilla' });
      await userEvent.click(await within(modal).findByRole('radio', { name: /recordatorio/ }));
      await userEvent.click(within(modal).getByRole('button', { name: 'Programar envío' }));
      const dialog = await screen.findByRole('dialog', { name: 'Programar envío' });
      await userEvent.click(within(dialog).getByRole('button', { name: 'Programar' }));
      const sends = () => callsTo(net.calls, 'POST', '/api/v1/admin/messages/send-template-message');
      await waitFor(() => expect(sends()).toHaveLength(1));
      const body = sends()[0]?.body as Record<string, unknown>;
      expect(body).toMatchObject({ client_id: 1, templateName: 'recordatorio' });
      expect(Date.parse(String(body.send_at))).toBeGreaterThan(Date.now());
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      const info = await within(conversation).findByTestId('scheduled-info');
      expect(info.textContent).toMatch(/^Programado para /);
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    "'Editar' changes the time and the text; 'Cancelar' takes the message out after confirming",
    async () => {
      const sendAt = new Date(Date.now() + 3 * HOUR);
      sendAt.setSeconds(0, 0);
      const stored = [customerMessage(), scheduledMessage(7, 'Recordatorio', sendAt.toISOString())];
      const net = serve(stored, {
        'PUT /api/v1/admin/messages/7': (call) => {
          const body = call.body as { send_at: string; content?: string };
          stored[1] = scheduledMessage(7, body.content ?? 'Recordatorio', body.send_at);
          return jsonResponse(200, { message: 'ok', data: stored[1] });
        },
        'DELETE /api/v1/admin/messages/7': () => {
          stored.pop();
          return jsonResponse(200, { message: 'Mensaje programado cancelado.' });
        },
      });
      const conversation = await openAna();
      const info = await within(conversation).findByTestId('scheduled-info');
      await userEvent.click(within(info).getByRole('button', { name: 'Editar' }));
      const dialog = await screen.findByRole('dialog', { name: 'Editar mensaje programado' });
      const text = within(dialog).getByLabelText('Mensaje');
      expect(text).toHaveValue('Recordatorio');
      await userEvent.clear(text);
      await userEvent.type(text, 'Recordatorio de cita');
      // Ten minutes later on the same day.
      const late = sendAt.getHours() === 23 && sendAt.getMinutes() >= 50;
      const later = localParts(new Date(sendAt.getTime() + (late ? -10 : 10) * 60_000));
      const time = within(dialog).getByLabelText('Hora');
      await userEvent.clear(time);
      await userEvent.type(time, later.time);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Programar' }));
      await waitFor(() => expect(callsTo(net.calls, 'PUT', '/api/v1/admin/messages/7')).toHaveLength(1));
      expect(callsTo(net.calls, 'PUT', '/api/v1/admin/messages/7')[0]?.body).toEqual({
        send_at: new Date(`${localParts(sendAt).date}T${later.time}:00`).toISOString(),
        content: 'Recordatorio de cita',
      });
      await within(conversation).findByText('Recordatorio de cita');

      await userEvent.click(within(conversation).getByRole('button', { name: 'Cancelar' }));
      const confirm = await screen.findByRole('alertdialog');
      await userEvent.click(within(confirm).getByRole('button', { name: 'Cancelar envío' }));
      await waitFor(() => expect(callsTo(net.calls, 'DELETE', '/api/v1/admin/messages/7')).toHaveLength(1));
      await waitFor(() =>
        expect(within(conversation).queryByTestId('scheduled-info')).not.toBeInTheDocument(),
      );
      expect(within(conversation).queryByText('Recordatorio de cita')).not.toBeInTheDocument();
    },
    SCREEN_TEST_TIMEOUT,
  );
  it(
    'shows scheduled messages below later ones, by their time; once sent, one takes its place by date',
    async () => {
      const first = { ...scheduledMessage(9, 'Primero', new Date(Date.now() + HOUR).toISOString()) };
      first.created_at = ago(20);
      const second = scheduledMessage(8, 'Segundo', new Date(Date.now() + 3 * HOUR).toISOString());
      second.created_at = ago(25);
      const later = makeMessage({ id: 10, content: 'Llegó después', created_at: ago(5) });
      const stream = eventStream();
      mockFetch({
        'GET /api/v1/admin/events': () => stream.response(),
        'GET /api/v1/admin/conversations': conversationsRoute(() => [anaRow], VIEWER.id),
        'GET /api/v1/admin/client/1/messages': () =>
          jsonResponse(200, history([customerMessage(), later], false, 1, [first, second])),
      });
      const conversation = await openAna();
      await stream.connected;
      const order = () =>
        ['¿Seguís abiertos?', 'Llegó después', 'Primero', 'Segundo'].sort((a, b) => {
          const [x, y] = [within(conversation).getByText(a), within(conversation).getByText(b)];
          return x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
        });
      await within(conversation).findByText('Segundo');
      expect(order()).toEqual(['¿Seguís abiertos?', 'Llegó después', 'Primero', 'Segundo']);
      expect(within(conversation).getAllByTestId('scheduled-info')).toHaveLength(2);

      // Its time came: the scheduled row leaves and the sent one (a new id, dated now) arrives.
      await stream.send('message.deleted', { client_id: 1, message_id: 9 });
      const sent = { ...first, id: 11, status: 1, status_name: 'sent', created_at: new Date().toISOString() };
      await stream.send('message.created', { client_id: 1, message: sent });
      await waitFor(() => expect(within(conversation).getAllByTestId('scheduled-info')).toHaveLength(1));
      expect(order()).toEqual(['¿Seguís abiertos?', 'Llegó después', 'Primero', 'Segundo']);
      const bubble = within(conversation).getByText('Primero').closest<HTMLElement>('[data-message-id]');
      expect(bubble).toHaveAttribute('data-message-id', '11');
      expect(within(bubble as HTMLElement).queryByTestId('scheduled-info')).toBeNull();
    },
    SCREEN_TEST_TIMEOUT,
  );
});
