import type { ConversationView } from '@hablabot/contract';

/** The chat screen's cached queries. Every list of conversations sits under `clients`. */
export const chatKeys = {
  all: ['chat'] as const,
  clients: ['chat', 'clients'] as const,
  clientList: (view: ConversationView, search: string) => ['chat', 'clients', view, search] as const,
  messages: ['chat', 'messages'] as const,
  conversation: (clientId: number) => ['chat', 'messages', clientId] as const,
  /** One client's conversation (assignee, status, bot) for the open conversation's header. */
  state: (clientId: number) => ['chat', 'state', clientId] as const,
  templates: ['chat', 'templates'] as const,
};
