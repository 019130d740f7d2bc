import type { ClientResponse } from '@hablabot/contract';
import { clientsApi } from '@hablabot/contract/api';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../lib/api-client';
import { dateFormat } from '../../lib/i18n';
import { useServerEvents } from '../../lib/use-server-events';

/** The open client as GET /admin/client/{id} has them (shared with 'Detalles del cliente'). */
export const chatClientKey = (clientId: number) => ['chat', 'client', clientId] as const;

export function useChatClient(clientId: number) {
  return useQuery({
    queryKey: chatClientKey(clientId),
    queryFn: ({ signal }) => call(clientsApi.get, { params: { id: clientId } }, { signal }),
    // The header reads it when the chat opens; 'Detalles del cliente' opened soon after shares that read.
    staleTime: 30_000,
  });
}

/**
 * 'Dado de baja' beside the client's name in the chat's header, while the customer has opted out of
 * campaigns. Read with the chat, then kept live: the server publishes 'client.updated' when the client
 * opts out (an opt-out word, Meta's 131050) or back in, and the cached client takes its `opted_out_at`
 * (the client is not read again per message). Events missed (`stream.reset`) read it again.
 */
export function ConsentBadge({ clientId }: { clientId: number }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const client = useChatClient(clientId);
  useServerEvents((event) => {
    if (event.type === 'stream.reset') {
      void queryClient.invalidateQueries({ queryKey: chatClientKey(clientId) });
      return;
    }
    if (event.type !== 'client.updated') return;
    const { client_id, opted_out_at } = event.data;
    queryClient.setQueryData<ClientResponse>(chatClientKey(client_id), (current) =>
      current ? { ...current, client: { ...current.client, opted_out_at } } : current,
    );
  });
  const at = client.data?.client.opted_out_at;
  if (!at) return null;
  const when = dateFormat(i18n.resolvedLanguage ?? i18n.language, { dateStyle: 'medium' }).format(
    new Date(at),
  );
  return (
    <span className="chat-consent-badge" title={t('chat.consent.since', { date: when })}>
      {t('chat.consent.optedOut')}
    </span>
  );
}
