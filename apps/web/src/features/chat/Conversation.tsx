import type { Message } from '@hablabot/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Fragment, type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar, MessageBox, useMessageBox } from '../../components';
import { ChevronLeftIcon } from '../../components/lib/icons';
import { isApiError } from '../../lib/api-client';
import {
  appendCachedMessage,
  bumpChatClient,
  chatKeys,
  sendMessage,
  updateCachedMessage,
  useConversation,
  useMarkAsRead,
} from './api';
import { useSession } from '../../lib/session';
import { CHAT_WINDOW_MS, MARK_READ_DELAY_MS, mergeMessages, unreadDividerIndex } from './chat-utils';
import { type ChatMessage, MessageBubble } from './MessageBubble';
import { ReplyPreview } from './MessageQuote';
import { Composer } from './Composer';
import { type ComposerAttachment, messageTypeOf } from './composer-parts';
import { useJumpToMessage } from './jump-to-message';
import { ConsentBadge } from './consent';
import { SCHEDULED_STATUS } from './scheduled';
import { TemplatesModal } from './TemplatesModal';
import { DaySeparator, dayStarts } from './thread-days';

/** The conversation partner as the chat knows it (from the list or from the clients page). */
export interface ChatContact {
  id: number;
  name: string;
  phone: string;
  avatar: string | null;
  unread?: number;
}

export interface ConversationProps {
  contact: ChatContact;
  draft: string;
  onDraftChange: (text: string) => void;
  onBack: () => void;
  /** The assignee and status controls, at the end of the header. */
  actions?: ReactNode;
  /** A notice above the history (the bot paused for this client). */
  notice?: ReactNode;
}

let nextTemporaryId = -1;

/** A message being sent: shown at once, until the stored message it became is known. */
export interface SendingMessage extends ChatMessage {
  /** The newest stored id when it was sent: its stored copy has a greater one. */
  after: number;
}

/**
 * The messages being sent that no stored message accounts for yet. Each stored company message newer than
 * a sending one, with the same text, accounts for one of them.
 */
export function unsettled(
  sending: readonly SendingMessage[],
  stored: readonly ChatMessage[],
): SendingMessage[] {
  const used = new Set<number>();
  return sending.filter((temp) => {
    const match = stored.find(
      (m) => !used.has(m.id) && m.id > temp.after && m.sender_type === 'admin' && m.content === temp.content,
    );
    if (!match) return true;
    used.add(match.id);
    return false;
  });
}

/** The conversation pane: header, history, 24-hour window banner and the input bar. */
export function Conversation({ contact, draft, onDraftChange, onBack, actions, notice }: ConversationProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const history = useConversation(contact.id);
  const markAsRead = useMarkAsRead();
  const [sending, setSending] = useState<SendingMessage[]>([]);
  const [resendingId, setResendingId] = useState<number | null>(null);
  const [templatesOpen, setTemplatesOpen] = useState(false);
  // The message the next one answers (quoted above it), chosen with a bubble's 'Responder'.
  const [replyTo, setReplyTo] = useState<ChatMessage | null>(null);
  const viewerId = useSession()?.user?.id ?? null;
  const banner = useMessageBox();

  const stored = useMemo(
    // The pages, then the messages still scheduled (page 1 lists them apart; they show last).
    () =>
      history.data
        ? [...history.data.pages]
            .reverse()
            .flatMap((page) => page.messages)
            .concat(history.data.pages.flatMap((page) => page.scheduled ?? []))
        : [],
    [history.data],
  );
  // A message being sent disappears as soon as its stored copy is here (from the answer, a refetch or the
  // live stream, whichever comes first), so it never shows twice.
  const pending = useMemo(() => unsettled(sending, stored), [sending, stored]);
  const messages = useMemo(() => mergeMessages(stored, pending), [stored, pending]);
  const divider = useMemo(() => unreadDividerIndex(messages), [messages]);
  // Scheduled messages close the thread, below the days (they are not of any day yet).
  const days = useMemo(() => dayStarts(messages.filter((m) => m.status !== SCHEDULED_STATUS)), [messages]);
  // One "now" per render: the separators' 'Hoy' and 'Ayer' change with the day, not every second.
  const now = new Date();

  // The 24-hour window needs the customer's last message: when the loaded pages hold none and their
  // oldest message is younger than the window, older pages are read until one shows up (or the window
  // is passed), so a run of company messages never hides an open window.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = history;
  const needsOlder = useMemo(() => {
    if (stored.length === 0 || stored.some((m) => m.sender_type === 'client')) return false;
    const oldest = Date.parse(stored[0]?.created_at ?? '');
    return !Number.isNaN(oldest) && oldest > Date.now() - CHAT_WINDOW_MS;
  }, [stored]);
  useEffect(() => {
    if (needsOlder && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [needsOlder, hasNextPage, isFetchingNextPage, fetchNextPage]);

  // Unread messages are marked read once the conversation has been open for a few seconds.
  const { mutate: markRead } = markAsRead;
  const unread = contact.unread ?? 0;
  useEffect(() => {
    if (unread <= 0) return;
    const timer = setTimeout(() => markRead(contact.id), MARK_READ_DELAY_MS);
    return () => clearTimeout(timer);
  }, [contact.id, unread, markRead]);

  // Scrolling: a new message shows at the bottom; older pages go on top without moving what is read.
  const scroller = useRef<HTMLDivElement>(null);
  const keepFromBottom = useRef<number | null>(null);
  const lastId = messages.at(-1)?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a message is added, not read from it
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (keepFromBottom.current !== null) {
      el.scrollTop = el.scrollHeight - keepFromBottom.current;
      keepFromBottom.current = null;
    } else {
      el.scrollTop = el.scrollHeight;
    }
  }, [lastId, messages.length]);
  const loadOlder = () => {
    const el = scroller.current;
    if (el) keepFromBottom.current = el.scrollHeight - el.scrollTop;
    return history.fetchNextPage();
  };
  // A click on a quote shows the quoted message (reading older pages for it when needed).
  const jump = useJumpToMessage(scroller, stored, hasNextPage, loadOlder);

  /** Sends (or sends again) a message; whether the server took it. */
  const send = async (
    content: string,
    resendOf?: ChatMessage,
    media?: ComposerAttachment | null,
    sendAt?: string,
  ): Promise<boolean> => {
    const quoted = resendOf ? null : replyTo;
    if (quoted) setReplyTo(null);
    const temporary: SendingMessage | null = resendOf
      ? null
      : {
          after: stored.reduce((max, m) => Math.max(max, m.id), 0),
          id: nextTemporaryId--,
          content,
          client_id: contact.id,
          phone: contact.phone,
          sender_type: 'admin',
          message_type: media ? messageTypeOf(media.mime_type) : 'text',
          media_url: null,
          media_caption: media ? content : null,
          media_mime_type: media?.mime_type ?? null,
          media_file_name: media?.name ?? null,
          status: 0,
          error_code: null,
          error_message: null,
          error: null,
          created_at: new Date().toISOString(),
          kind: 'message',
          status_name: 'pending',
          author: { type: 'user', ...(viewerId === null ? {} : { id: viewerId }) },
          reply_to: quoted ? { id: quoted.id, content: quoted.content, author: quoted.author } : null,
        };
    if (temporary) setSending((list) => [...list, temporary]);
    if (resendOf) setResendingId(resendOf.id);
    try {
      const { message } = await sendMessage({
        ...(resendOf ? { id: resendOf.id } : {}),
        ...(quoted ? { reply_to_id: quoted.id } : {}),
        ...(media ? { media_id: media.id } : {}),
        ...(sendAt ? { send_at: sendAt } : {}),
        content,
        client_id: contact.id,
        phone: contact.phone,
      });
      if (resendOf) updateCachedMessage(queryClient, contact.id, resendOf.id, () => message);
      else appendCachedMessage(queryClient, contact.id, message as Message);
      // The server pauses the bot when an admin writes: shown from the answer, without waiting for the
      // live event (which a stream still connecting would miss). A scheduled message does so when it goes.
      if (!sendAt)
        bumpChatClient(queryClient, contact.id, {
          last_message_content: message.content,
          last_message_date: message.created_at,
          mode_bot: 0,
        });
      // The history reloads from its newest page after a send.
      void queryClient.invalidateQueries({ queryKey: chatKeys.conversation(contact.id) });
      return true;
    } catch (error) {
      if (resendOf) {
        // A resend that fails leaves the message as it was.
        console.error('Resend failed', error);
      } else {
        onDraftChange(content);
        if (quoted) setReplyTo(quoted);
        banner.error(
          isApiError(error) && error.serverMessage ? error.serverMessage : t('chat.input.sendError'),
        );
      }
      return false;
    } finally {
      if (temporary) setSending((list) => list.filter((m) => m.id !== temporary.id));
      if (resendOf) setResendingId(null);
    }
  };

  return (
    <section className="chat-conversation" aria-label={contact.name}>
      <header className="chat-conversation__header">
        <button
          type="button"
          className="chat-conversation__back"
          aria-label={t('chat.back')}
          onClick={onBack}
        >
          <ChevronLeftIcon size={20} aria-hidden="true" />
        </button>
        <Avatar name={contact.name} src={contact.avatar} size={40} decorative />
        <div className="chat-conversation__who">
          <h2 className="chat-conversation__name">{contact.name}</h2>
          <p className="chat-conversation__phone">+{contact.phone}</p>
          <ConsentBadge clientId={contact.id} />
        </div>
        {actions}
      </header>
      {notice}
      <div ref={scroller} className="chat-conversation__history" data-testid="chat-history">
        {history.hasNextPage ? (
          <button
            type="button"
            className="chat-conversation__more"
            disabled={history.isFetchingNextPage}
            onClick={() => void loadOlder()}
          >
            {t('chat.loadMore')}
          </button>
        ) : null}
        {history.isPending ? null : messages.length === 0 ? (
          <p className="chat-conversation__empty">{t('chat.noMessages')}</p>
        ) : (
          messages.map((message, index) => (
            <Fragment key={message.id}>
              {days.has(index) ? <DaySeparator iso={message.created_at} now={now} /> : null}
              {index === divider ? (
                <div className="chat-divider">
                  <span>{t('chat.unreadDivider')}</span>
                </div>
              ) : null}
              <MessageBubble
                message={message}
                resending={resendingId === message.id}
                onResend={(failed) => void send(failed.content, failed)}
                viewerId={viewerId}
                contactName={contact.name}
                onReply={setReplyTo}
                onQuoteClick={jump.jumpTo}
                highlighted={jump.highlighted === message.id}
              />
            </Fragment>
          ))
        )}
      </div>
      {banner.state ? <MessageBox {...banner.props} /> : null}
      <Composer
        contact={contact}
        messages={stored}
        loading={history.isPending || (needsOlder && hasNextPage)}
        draft={draft}
        onDraftChange={onDraftChange}
        onSend={(text, media, sendAt) => send(text, undefined, media, sendAt)}
        onTemplates={() => setTemplatesOpen(true)}
        reply={
          replyTo ? (
            <ReplyPreview
              quote={replyTo}
              viewerId={viewerId}
              contactName={contact.name}
              onCancel={() => setReplyTo(null)}
            />
          ) : null
        }
      />
      <TemplatesModal
        open={templatesOpen}
        contact={contact}
        onClose={() => setTemplatesOpen(false)}
        onSent={(message) => {
          appendCachedMessage(queryClient, contact.id, message);
          if (message.status !== SCHEDULED_STATUS)
            bumpChatClient(queryClient, contact.id, {
              last_message_content: message.content,
              last_message_date: message.created_at,
              mode_bot: 0,
            });
          void queryClient.invalidateQueries({ queryKey: chatKeys.conversation(contact.id) });
        }}
      />
    </section>
  );
}
