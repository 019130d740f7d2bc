import type { Message } from '@hablabot/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, vi } from 'vitest';
import { setSession } from '../../lib/session';
import {
  installTestLayout,
  jsonResponse,
  makeClient,
  mockFetch,
  type RecordedCall,
  setupTestI18n,
} from '../../test';
import {
  conversationOf,
  conversationsRoute,
  history,
  makeMessage,
  renderChat,
  showList,
} from './inbox-test-data';

// The chat's component tests over one conversation, Ana's, assigned to the agent signed in (Marta): the
// composer's tools and 'Programar envío' start from the same screen.

export const VIEWER = { id: 1, name: 'Marta' };
export const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
export const ana = makeClient({
  id: 1,
  name: 'Ana',
  whatsapp_cellphone: '5215512345678',
  last_message_date: ago(5),
});
export const anaRow = conversationOf(ana, { id: 501, assignee: VIEWER });
/** The customer's message 30 minutes old: the 24-hour window is open. */
export const customerMessage = () =>
  makeMessage({ id: 1, content: '¿Seguís abiertos?', created_at: ago(30) });

/**
 * The chat over Ana's conversation: its history is `stored`, and POST /admin/message stores the message
 * `answer` makes of the request (answered 201 with `text`).
 */
export function serveAna(
  stored: Message[],
  answer: (body: Record<string, unknown>, id: number) => Message,
  text: string,
  extra: Record<string, (call: RecordedCall) => Response> = {},
) {
  return mockFetch({
    'GET /api/v1/admin/conversations': conversationsRoute(() => [anaRow], VIEWER.id),
    'GET /api/v1/admin/client/1/messages': () => jsonResponse(200, history(stored)),
    'POST /api/v1/admin/message': (call) => {
      const message = answer(call.body as Record<string, unknown>, 90 + stored.length);
      stored.push(message);
      return jsonResponse(201, { message: text, data: message });
    },
    ...extra,
  });
}

/** Opens Ana's conversation from the list; resolves with its region once her message shows. */
export async function openAna() {
  renderChat();
  await showList();
  await userEvent.click(await screen.findByRole('button', { name: /^Ana/ }));
  const conversation = await screen.findByRole('region', { name: 'Ana' });
  await within(conversation).findByText('¿Seguís abiertos?');
  return conversation;
}

/** Each test in Spanish, with a laid-out list and Marta (an agent) signed in; the mocks undone after. */
export function setUpAnaChat() {
  let restoreLayout: () => void = () => {};
  beforeEach(() => {
    setupTestI18n('es');
    restoreLayout = installTestLayout({ rowHeight: 72 });
    setSession({
      token: 'tok',
      user: { id: VIEWER.id, email: 'marta@x.mx', name: VIEWER.name },
      rol: 'agent',
    });
  });
  afterEach(() => {
    restoreLayout();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}
