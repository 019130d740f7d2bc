import type { Conversation } from '@hablabot/contract';
import { conversationsApi, messagesApi, teamApi } from '@hablabot/contract/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, isApiError } from '../../lib/api-client';
import { isAgentSession, useSession } from '../../lib/session';
import { chatKeys } from './chat-keys';
import { applyConversationChange, cachedConversation } from './list-api';

/** The signed-in person as the chat needs them: their id, and whether they are an agent (not an admin). */
export function useViewer(): { id: number | null; agent: boolean } {
  const session = useSession();
  return { id: session?.user?.id ?? null, agent: isAgentSession(session) };
}

/**
 * The open conversation (assignee, status, bot) for its header: the row a list holds, kept live by the
 * same events; a conversation opened from elsewhere (the clients page) and in no loaded list is looked
 * up by the client's phone among the open, then the resolved ones.
 */
export function useConversationState(clientId: number, phone: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: chatKeys.state(clientId),
    queryFn: async ({ signal }): Promise<Conversation | null> => {
      for (const view of ['all', 'resolved'] as const) {
        const found = await call(
          conversationsApi.list,
          { query: { view, search: phone, per_page: 20 } },
          { signal },
        );
        const row = found.data.find((c) => c.client.id === clientId);
        if (row) return row;
      }
      return null;
    },
    initialData: () => cachedConversation(queryClient, clientId) ?? undefined,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The company's admins and agents, for an admin's assignee select (agents may not read it). */
export function useTeam(enabled: boolean) {
  return useQuery({
    queryKey: ['chat', 'team'],
    queryFn: ({ signal }) => call(teamApi.list, {}, { signal }),
    enabled,
    staleTime: 60_000,
  });
}

export type ConversationAction =
  | { type: 'assign'; userId: number | null }
  | { type: 'resolve' }
  | { type: 'reopen' };

/**
 * Assign (to someone or nobody), resolve or reopen a conversation; its answer updates the lists and the
 * header at once (the live event that follows changes nothing more).
 */
export function useConversationAction(conversationId: number | null) {
  const queryClient = useQueryClient();
  const viewer = useViewer();
  return useMutation({
    mutationFn: async (action: ConversationAction) => {
      if (conversationId === null) throw new Error('No conversation');
      const params = { id: conversationId };
      switch (action.type) {
        case 'assign':
          return call(conversationsApi.assign, { params, body: { user_id: action.userId } });
        case 'resolve':
          return call(conversationsApi.resolve, { params });
        case 'reopen':
          return call(conversationsApi.reopen, { params });
      }
    },
    onSuccess: (response) => applyConversationChange(queryClient, response.data, viewer.id),
  });
}

/**
 * Whether the caller may still read a client's conversation (its newest message answers); false once the
 * server answers 404 — for an agent, the conversation went to someone else. Other failures count as
 * visible: a network error closes nothing.
 */
export async function stillVisible(clientId: number): Promise<boolean> {
  try {
    await call(messagesApi.history, { params: { id: clientId }, query: { page: 1, per_page: 1 } });
    return true;
  } catch (error) {
    return !(isApiError(error) && error.status === 404);
  }
}
