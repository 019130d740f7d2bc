import type { QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { chatKeys } from './chat-keys';
import type { ConversationPages } from './list-api';

/**
 * The live notice that a customer asked for a person (or the bot handed them over): shown over the chat
 * until dismissed or replaced by the next one. Only those who may see the conversation receive the event.
 */
export function HandoffNotice({ name, onDismiss }: { name: string | null; onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="chat-page__notice chat-handoff-notice" role="status">
      <span>{name ? t('chat.inbox.handoffNamed', { name }) : t('chat.inbox.handoff')}</span>
      <button type="button" className="chat-handoff-notice__close" onClick={onDismiss}>
        {t('chat.inbox.handoffDismiss')}
      </button>
    </div>
  );
}

/** The client's name as a list on screen (or loaded earlier) shows it; null when no list has them. */
export function shownClientName(queryClient: QueryClient, clientId: number): string | null {
  for (const [, data] of queryClient.getQueriesData<ConversationPages>({ queryKey: chatKeys.clients })) {
    for (const page of data?.pages ?? [])
      for (const row of page.data)
        if (row.client.id === clientId)
          return [row.client.name, row.client.last_names].filter(Boolean).join(' ') || null;
  }
  return null;
}
