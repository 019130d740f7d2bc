import { clientsApi } from '@hablabot/contract/api';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../lib/api-client';
import { intlLocale } from '../../lib/i18n';

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
 * campaigns. The client is read again when a new message shows in the conversation, since an opt-out
 * or opt-in word arrives as one (and the opt-out reply follows it).
 */
export function ConsentBadge({ clientId, newestMessageId }: { clientId: number; newestMessageId?: number }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const client = useChatClient(clientId);
  const seen = useRef(newestMessageId);
  useEffect(() => {
    if (seen.current === newestMessageId) return;
    const first = seen.current === undefined;
    seen.current = newestMessageId;
    // The history's first load is not a new message: the client was just read with the chat.
    if (first) return;
    void queryClient.invalidateQueries({ queryKey: chatClientKey(clientId) });
  }, [newestMessageId, clientId, queryClient]);
  const at = client.data?.client.opted_out_at;
  if (!at) return null;
  const when = new Intl.DateTimeFormat(intlLocale(i18n.resolvedLanguage ?? i18n.language), {
    dateStyle: 'medium',
  }).format(new Date(at));
  return (
    <span className="chat-consent-badge" title={t('chat.consent.since', { date: when })}>
      {t('chat.consent.optedOut')}
    </span>
  );
}
