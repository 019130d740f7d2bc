import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../lib/session';
import { installTestLayout, makeClient, mockFetch, SCREEN_TEST_TIMEOUT, setupTestI18n } from '../../test';
import { conversationOf, conversationsPage, history, makeMessage, renderChat } from './inbox-test-data';

/** The test's clock: only Date is fixed (timers run as usual), so 'Hoy' and 'Ayer' never depend on when it runs. */
const NOW = new Date(2026, 10, 24, 15, 30);
const at = (day: number, hour: number) => new Date(2026, 10, day, hour, 0).toISOString();

const thread = [
  makeMessage({ id: 1, content: 'Mensaje de marzo', created_at: new Date(2026, 2, 7, 12).toISOString() }),
  makeMessage({
    id: 2,
    sender_type: 'admin',
    content: 'Oferta de temporada',
    author: { type: 'campaign', id: 3, name: 'Promo' },
    status: 1,
    created_at: new Date(2026, 2, 7, 13).toISOString(),
  }),
  makeMessage({ id: 3, content: '¿Tienen cita?', created_at: at(23, 18) }),
  makeMessage({
    id: 4,
    sender_type: 'bot',
    content: 'Sí, a las 10',
    author: { type: 'bot' },
    status: 1,
    created_at: at(23, 18),
  }),
  makeMessage({
    id: 5,
    sender_type: 'admin',
    content: 'La confirmo',
    author: { type: 'user', id: 7, name: 'Pedro' },
    status: 1,
    created_at: at(24, 9),
  }),
];

function open(language: 'es' | 'en') {
  setupTestI18n(language);
  setSession({ token: 'tok', user: { id: 1, email: 'a@x.mx' }, rol: 'admin' });
  mockFetch({
    'GET /api/v1/admin/conversations': [
      200,
      conversationsPage([conversationOf(makeClient({ id: 1, name: 'Ana' }))]),
    ],
    'GET /api/v1/admin/client/1/messages': [200, history(thread)],
  });
  renderChat({ client: { id: 1, name: 'Ana', phone: '5215512345678', avatar: null } });
  return screen.findByRole('region', { name: 'Ana' });
}

/** The thread as read top to bottom: day separators and each bubble's author line (or '-' for none). */
function reading(conversation: HTMLElement) {
  return [...conversation.querySelectorAll('.chat-day, .chat-message')].map((el) => {
    if (el.classList.contains('chat-day')) return `[${el.textContent}]`;
    const text = el.querySelector('.chat-bubble')?.cloneNode(true) as HTMLElement;
    for (const part of text.querySelectorAll('.chat-bubble__author, .chat-bubble__meta')) part.remove();
    return `${el.querySelector('.chat-bubble__author')?.textContent ?? '-'}: ${text.textContent}`;
  });
}

let restoreLayout: () => void = () => {};
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  restoreLayout = installTestLayout({ rowHeight: 72 });
});
afterEach(() => {
  restoreLayout();
  vi.useRealTimers();
});

describe('The thread', () => {
  it(
    'opens each day with its name and says who wrote each company message; the customer’s stay plain',
    async () => {
      const conversation = await open('es');
      await within(conversation).findByText('La confirmo');
      expect(reading(conversation)).toEqual([
        '[7 de marzo de 2026]',
        '-: Mensaje de marzo',
        'Campaña «Promo»: Oferta de temporada',
        '[Ayer]',
        '-: ¿Tienen cita?',
        'Bot: Sí, a las 10',
        '[Hoy]',
        'Pedro: La confirmo',
      ]);
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'names the days in English',
    async () => {
      const conversation = await open('en');
      await within(conversation).findByText('La confirmo');
      expect(reading(conversation).filter((line) => line.startsWith('['))).toEqual([
        '[March 7, 2026]',
        '[Yesterday]',
        '[Today]',
      ]);
      expect(within(conversation).getByText('Campaign “Promo”')).toBeInTheDocument();
    },
    SCREEN_TEST_TIMEOUT,
  );
});
