import type { Message } from '@hablabot/contract';
import { messagesApi } from '@hablabot/contract/api';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmDialog } from '../../components/ConfirmDialog/useConfirm';
import { call, isApiError } from '../../lib/api-client';
import { dateFormat } from '../../lib/i18n';
import { type MessagePages, chatKeys, updateCachedMessage } from './api';
import { ScheduleDialog } from './ScheduleDialog';
import './scheduled.css';

/** A scheduled message's status: waiting for its time, nothing sent yet. */
export const SCHEDULED_STATUS = 5;

/**
 * Takes a message out of a cached conversation: a cancelled scheduled message, or one whose time came
 * (it comes back with a new id, in its place).
 */
export function removeCachedMessage(queryClient: QueryClient, clientId: number, messageId: number) {
  queryClient.setQueryData<MessagePages>(chatKeys.conversation(clientId), (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            messages: page.messages.filter((message) => message.id !== messageId),
            ...(page.scheduled
              ? { scheduled: page.scheduled.filter((message) => message.id !== messageId) }
              : {}),
          })),
        }
      : data,
  );
}

/** When a scheduled message goes out, as the bubble says it: date and time in the reader's language. */
export function scheduledWhen(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return dateFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/**
 * Under a scheduled message's bubble: 'Programado para {fecha}', with 'Editar' (its time, and its text
 * for a text message) and 'Cancelar' (it leaves the conversation, never sent).
 */
export function ScheduledInfo({ message }: { message: Message }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirm, confirmDialog] = useConfirmDialog();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const when = message.scheduled_at ? scheduledWhen(message.scheduled_at, language) : '';
  const failText = (cause: unknown, fallback: string) =>
    isApiError(cause) && cause.serverMessage ? cause.serverMessage : fallback;

  const save = async (sendAt: string, text?: string) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await call(messagesApi.updateScheduled, {
        params: { id: message.id },
        body: { send_at: sendAt, ...(text === undefined ? {} : { content: text }) },
      });
      updateCachedMessage(queryClient, message.client_id, message.id, () => answer.data);
      setEditing(false);
    } catch (cause) {
      setError(failText(cause, t('chat.schedule.saveError')));
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    const sure = await confirm({
      title: t('chat.schedule.cancelTitle'),
      message: t('chat.schedule.cancelQuestion', { date: when }),
      confirmLabel: t('chat.schedule.cancelConfirm'),
      cancelLabel: t('chat.schedule.keep'),
    });
    if (!sure) return;
    try {
      await call(messagesApi.cancelScheduled, { params: { id: message.id } });
      removeCachedMessage(queryClient, message.client_id, message.id);
    } catch (cause) {
      setError(failText(cause, t('chat.schedule.cancelError')));
      // Sent or cancelled meanwhile: the conversation is read again as it now is.
      void queryClient.invalidateQueries({ queryKey: chatKeys.conversation(message.client_id) });
    }
  };

  return (
    <div className="chat-bubble__scheduled" data-testid="scheduled-info">
      <p className="chat-bubble__scheduled-when">{t('chat.schedule.scheduledFor', { date: when })}</p>
      <div className="chat-bubble__scheduled-actions">
        <button type="button" className="chat-bubble__scheduled-action" onClick={() => setEditing(true)}>
          {t('chat.schedule.edit')}
        </button>
        <button type="button" className="chat-bubble__scheduled-action" onClick={() => void cancel()}>
          {t('chat.schedule.cancel')}
        </button>
      </div>
      {error && !editing ? (
        <p className="chat-bubble__scheduled-error" role="alert">
          {error}
        </p>
      ) : null}
      <ScheduleDialog
        open={editing}
        onClose={() => {
          setEditing(false);
          setError(null);
        }}
        onConfirm={save}
        initial={message.scheduled_at}
        text={message.message_type === 'text' ? message.content : undefined}
        busy={busy}
        error={error}
        title={t('chat.schedule.editTitle')}
      />
      {confirmDialog}
    </div>
  );
}
