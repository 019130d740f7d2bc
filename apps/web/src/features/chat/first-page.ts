import type { ConversationView, ConversationsResponse } from '@hablabot/contract';
import { conversationsApi } from '@hablabot/contract/api';
import { call } from '../../lib/api-client';
import { getSession, getToken, isAgentSession } from '../../lib/session';

// The chat list's first page, asked for before the screen's code has downloaded instead of once the screen
// has rendered: on a full page load of the chat by main.tsx before anything else (so the request is not
// queued behind the route's chunks), and by the chat route (app/router.tsx) when the app moves there.
// Kept small and free of React: it is part of the app's first bundle, which the sign-in screen loads too.

/** Conversations asked for at a time as the list scrolls. */
export const CHAT_CLIENTS_PAGE = 50;

/** The view the list opens on: an admin on every open conversation, an agent on their own. */
export const firstView = (agent: boolean): ConversationView => (agent ? 'mine' : 'all');

/** The query of a page of the list (GET /admin/conversations). */
export const pageQuery = (view: ConversationView, search: string, page: number) => ({
  view,
  page,
  per_page: CHAT_CLIENTS_PAGE,
  ...(search ? { search } : {}),
});

let early: { view: ConversationView; token: string; answer: Promise<ConversationsResponse> } | undefined;

/** Starts asking for the first page of the view the list opens on (nothing when signed out). */
export function prefetchFirstPage(): void {
  const session = getSession();
  const token = getToken();
  // Only the company's team lists conversations (anyone else is sent away by the route's guards).
  if (!session || !token || (session.rol !== 'admin' && session.rol !== 'agent')) return;
  const view = firstView(isAgentSession(session));
  // Already asked for (main.tsx, then the route as it loads): the one request serves.
  if (early && early.view === view && early.token === token) return;
  const answer = call(conversationsApi.list, { query: pageQuery(view, '', 1) });
  // Unhandled until the list takes it (a failure then makes the list ask again itself).
  answer.catch(() => {});
  early = { view, token, answer };
}

/**
 * The answer `prefetchFirstPage` started, for the list's first page of `view` without a search: given
 * once, and only to the session that asked for it. Undefined otherwise: the list asks itself.
 */
export function takeFirstPage(view: ConversationView): Promise<ConversationsResponse> | undefined {
  const found = early;
  early = undefined;
  return found && found.view === view && found.token === getToken() ? found.answer : undefined;
}
