import type {
  ClientMessagesResponse,
  Message,
  SendTemplateMessageRequest,
  TemplatesResponse,
} from '@hablabot/contract';
import { messagesApi, templatesApi } from '@hablabot/contract/api';
import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { call, callResponse } from '../../lib/api-client';
import { chatKeys } from './chat-keys';

// The conversation lists and their live cache live in list-api.ts; the open conversation's assignee and
// status in inbox-api.ts.
export { chatKeys } from './chat-keys';
export * from './list-api';

/** Messages of one history page. */
export const CHAT_MESSAGES_PAGE = 10;

export type MessagePages = InfiniteData<ClientMessagesResponse, number>;

/**
 * GET /admin/client/{id}/messages: page 1 holds the newest ten and the messages still scheduled (listed
 * apart); older pages follow.
 */
export function useConversation(clientId: number) {
  return useInfiniteQuery({
    queryKey: chatKeys.conversation(clientId),
    queryFn: ({ pageParam, signal }) =>
      call(
        messagesApi.history,
        { params: { id: clientId }, query: { page: pageParam, per_page: CHAT_MESSAGES_PAGE } },
        { signal },
      ),
    initialPageParam: 1,
    getNextPageParam: (last) =>
      last.pagination.has_more_messages ? last.pagination.current_page + 1 : undefined,
    staleTime: 0,
  });
}

/** Changes one cached message of a conversation (a status, say), in the pages or the scheduled list. */
export function updateCachedMessage(
  queryClient: QueryClient,
  clientId: number,
  messageId: number,
  update: (message: Message) => Message,
) {
  const change = (messages: Message[]) =>
    messages.map((message) => (message.id === messageId ? update(message) : message));
  queryClient.setQueryData<MessagePages>(chatKeys.conversation(clientId), (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            messages: change(page.messages),
            ...(page.scheduled ? { scheduled: change(page.scheduled) } : {}),
          })),
        }
      : data,
  );
}

/** Adds a message to the newest page of a cached conversation, unless it is there already. */
export function appendCachedMessage(queryClient: QueryClient, clientId: number, message: Message) {
  queryClient.setQueryData<MessagePages>(chatKeys.conversation(clientId), (data) => {
    if (!data || data.pages.length === 0) return data;
    const has = (messages: Message[] | undefined) => messages?.some((m) => m.id === message.id);
    if (data.pages.some((page) => has(page.messages) || has(page.scheduled))) {
      const merge = (messages: Message[]) =>
        messages.map((m) => (m.id === message.id ? { ...m, ...message } : m));
      return {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          messages: merge(page.messages),
          ...(page.scheduled ? { scheduled: merge(page.scheduled) } : {}),
        })),
      };
    }
    const [first, ...rest] = data.pages;
    if (!first) return data;
    return { ...data, pages: [{ ...first, messages: [...first.messages, message] }, ...rest] };
  });
}

export interface SendMessageVariables {
  /** A failed message's id when it is sent again. */
  id?: number;
  content: string;
  client_id: number;
  phone: string;
}

/** POST /admin/message: 201 for a new message, 200 for a resend; the answer is the stored message. */
export async function sendMessage(body: SendMessageVariables) {
  const response = await callResponse(messagesApi.send, { body });
  return { status: response.status, message: response.data.data };
}

export function useTemplates(enabled: boolean) {
  return useQuery({
    queryKey: chatKeys.templates,
    queryFn: ({ signal }) => call(templatesApi.list, {}, { signal }),
    enabled,
  });
}

export function useSyncTemplates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const response = await callResponse(templatesApi.sync);
      if (response.status !== 200) throw new Error(`Sync answered ${response.status}`);
      return response.data;
    },
    onSuccess: (data) => {
      if (Array.isArray(data?.data))
        queryClient.setQueryData<TemplatesResponse>(chatKeys.templates, { data: data.data });
      else void queryClient.invalidateQueries({ queryKey: chatKeys.templates });
    },
  });
}

export function useSendTemplate() {
  return useMutation({
    mutationFn: async (body: SendTemplateMessageRequest) => {
      const response = await callResponse(templatesApi.send, { body });
      if (response.status !== 201) throw new Error(`Template send answered ${response.status}`);
      return response.data;
    },
  });
}
