import type { Conversation } from '@hablabot/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../lib/session';
import {
  eventStream,
  installTestLayout,
  jsonResponse,
  makeClient,
  mockFetch,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import { conversationOf, conversationsRoute, history, renderChat, showList } from './inbox-test-data';

const PEDRO = { id: 7, name: 'Pedro' };
const LUCIA = { id: 8, name: 'Lucía' };

const ana = (assignee: { id: number; name: string } | null) =>
  conversationOf(makeClient({ id: 1, name: 'Ana', last_message_date: new Date().toISOString() }), {
    assignee,
  });

let restoreLayout: () => void = () => {};
beforeEach(() => {
  setupTestI18n('es');
  restoreLayout = installTestLayout({ rowHeight: 72 });
  setSession({ token: 'tok', user: { id: PEDRO.id, email: 'p@x.mx', name: PEDRO.name }, rol: 'agent' });
});
afterEach(() => {
  restoreLayout();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** An agent with Ana's conversation open; `visible` says whether the server still shows it to them. */
async function agentWithAnaOpen() {
  let stored: Conversation = ana(PEDRO);
  let visible = true;
  const stream = eventStream();
  mockFetch({
    'GET /api/v1/admin/events': () => stream.response(),
    'GET /api/v1/admin/conversations': conversationsRoute(() => (visible ? [stored] : []), PEDRO.id),
    'GET /api/v1/admin/client/1/messages': () =>
      visible ? jsonResponse(200, history([])) : jsonResponse(404, { message: 'No encontrado' }),
  });
  renderChat();
  await showList();
  await userEvent.click(await screen.findByRole('button', { name: /^Ana/ }));
  await screen.findByRole('region', { name: 'Ana' });
  await stream.connected;
  return {
    stream,
    giveTo(user: { id: number; name: string }, stillVisible: boolean) {
      stored = { ...stored, assignee: user };
      visible = stillVisible;
      return stream.send('conversation.changed', { client_id: 1, conversation: stored });
    },
  };
}

describe("An agent's open conversation given to someone else", () => {
  it(
    'closes, saying who took it, when the server no longer shows it to the agent',
    async () => {
      const chat = await agentWithAnaOpen();
      await chat.giveTo(LUCIA, false);
      expect(await screen.findByRole('status')).toHaveTextContent('Esta conversación se asignó a Lucía.');
      await waitFor(() => expect(screen.queryByRole('region', { name: 'Ana' })).toBeNull());
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'stays open when the company lets agents see every conversation',
    async () => {
      const chat = await agentWithAnaOpen();
      await chat.giveTo(LUCIA, true);
      // The header shows the new assignee once the change is applied; the check answered 200 by then.
      expect(await screen.findByText('Asignada a Lucía')).toBeInTheDocument();
      await chat.giveTo(PEDRO, true);
      await waitFor(() => expect(screen.getByRole('button', { name: 'Soltar' })).toBeInTheDocument());
      expect(screen.getByRole('region', { name: 'Ana' })).toBeInTheDocument();
      expect(screen.queryByText(/Esta conversación se asignó/)).toBeNull();
    },
    SCREEN_TEST_TIMEOUT,
  );
});
