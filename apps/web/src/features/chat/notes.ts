import type { Message } from '@hablabot/contract';
import { conversationsApi } from '@hablabot/contract/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api-client';
import { appendCachedMessage } from './api';

/**
 * POST /admin/conversations/{id}/notes: an internal note, seen by the team in the thread and never sent
 * to WhatsApp. It shows at once from the answer (the live event that follows adds nothing twice).
 */
export function useAddNote(clientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ conversationId, text }: { conversationId: number; text: string }) =>
      call(conversationsApi.addNote, { params: { id: conversationId }, body: { text } }),
    onSuccess: (response) => appendCachedMessage(queryClient, clientId, response.data as Message),
  });
}
