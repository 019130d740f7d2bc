import type { Message } from '@hablabot/contract';
import { messagesApi } from '@hablabot/contract/api';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button/Button';
import { call } from '../../lib/api-client';
import { updateCachedMessage } from './api';
import './media-state.css';

/**
 * A customer's file the chat cannot show yet: 'Descargando…' while the server fetches it from WhatsApp
 * (it keeps trying for the 7 days WhatsApp keeps it), or why it gave up and 'Reintentar', which asks the
 * server to try again. The live stream replaces the message when its state changes, so the file appears
 * by itself once stored. Nothing for any other message.
 */
export function MediaDownloadState({ message }: { message: Message }) {
  const { t } = useTranslation();
  if (message.media_status === 'pending')
    return (
      <span className="chat-media-state chat-media-state--pending" role="status">
        <span className="spinner" aria-hidden="true" />
        {t('chat.mediaDownloading')}
      </span>
    );
  return message.media_status === 'failed' ? <MediaFailed message={message} /> : null;
}

/** Why the download was given up on, and 'Reintentar'. */
function MediaFailed({ message }: { message: Message }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [retryFailed, setRetryFailed] = useState(false);

  async function retry() {
    setBusy(true);
    setRetryFailed(false);
    try {
      const { data } = await call(messagesApi.retryMedia, { params: { id: message.id } });
      // The answer shows the download started, unless the live stream already brought something newer
      // (the file stored, or failed again) while the request was under way: a quick download often
      // beats the answer, and the stream is then the truth.
      updateCachedMessage(queryClient, message.client_id, message.id, (current) =>
        current === message ? data : current,
      );
    } catch {
      setRetryFailed(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="chat-media-state chat-media-state--failed">
      <p className="chat-media-state__reason">{message.error_message ?? t('chat.mediaFailed')}</p>
      <Button size="sm" busy={busy} onClick={retry}>
        {t('chat.mediaRetry')}
      </Button>
      {retryFailed ? (
        <p className="chat-media-state__retry-error" role="alert">
          {t('chat.mediaRetryError')}
        </p>
      ) : null}
    </div>
  );
}
