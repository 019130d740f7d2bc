import type { Message } from '@hablabot/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon, CheckIcon, DownloadIcon } from '../../components/lib/icons';
import { api } from '../../lib/api-client';
import { bubbleTime, safeMediaBlob } from './chat-utils';
import { useLongPress } from './long-press';
import { MediaDownloadState } from './MediaDownloadState';
import { MarkdownLite } from './markdown';
import { QuoteBlock, authorLabel } from './MessageQuote';
import { NoteBubble } from './NoteBubble';
import { SCHEDULED_STATUS, ScheduledInfo } from './scheduled';

/** A message on screen: a stored one, or one being sent (negative id) or a bot failure heard live. */
export type ChatMessage = Message;

/**
 * A protected file (the server's /admin/files/{id}) read with the session's token and handed to the
 * player as a temporary object address, released when the bubble goes away.
 */
export function useProtectedMedia(url: string | null): { src: string | null; failed: boolean } {
  const [state, setState] = useState<{ src: string | null; failed: boolean }>({ src: null, failed: false });
  useEffect(() => {
    setState({ src: null, failed: false });
    if (!url) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    api<Blob>(url, { signal: controller.signal, responseType: 'blob' }).then(
      (blob) => {
        if (controller.signal.aborted) return;
        objectUrl = URL.createObjectURL(safeMediaBlob(blob));
        setState({ src: objectUrl, failed: false });
      },
      () => {
        if (!controller.signal.aborted) setState({ src: null, failed: true });
      },
    );
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return state;
}

function MediaSkeleton() {
  const { t } = useTranslation();
  return (
    <span className="chat-media-skeleton" role="status" aria-label={t('chat.mediaLoading')}>
      <span />
      <span />
      <span />
    </span>
  );
}

function MediaView({ message }: { message: ChatMessage }) {
  const { t } = useTranslation();
  const { src, failed } = useProtectedMedia(message.media_url);
  // A customer's file still being fetched from WhatsApp, or given up on.
  if (!message.media_url) return <MediaDownloadState message={message} />;
  if (failed) return <p className="chat-bubble__media-error">{t('chat.mediaError')}</p>;
  if (!src) return <MediaSkeleton />;
  const caption = message.media_caption ?? message.media_file_name ?? '';
  switch (message.message_type) {
    case 'image':
      return <img className="chat-bubble__image" src={src} alt={caption} />;
    case 'audio':
      return (
        // biome-ignore lint/a11y/useMediaCaption: customers' voice notes come without captions
        <audio className="chat-bubble__audio" controls src={src}>
          {t('chat.audioUnsupported')}
        </audio>
      );
    case 'video':
      return (
        // biome-ignore lint/a11y/useMediaCaption: customers' videos come without captions
        <video className="chat-bubble__video" controls src={src}>
          {t('chat.videoUnsupported')}
        </video>
      );
    case 'document':
      return (
        <span className="chat-bubble__document">
          {message.media_mime_type === 'application/pdf' ? (
            <iframe
              className="chat-bubble__preview"
              src={src}
              title={caption || t('chat.downloadDocument')}
            />
          ) : null}
          <span className="chat-bubble__file-name">{caption}</span>
          <a className="chat-bubble__download" href={src} download={caption || true}>
            <DownloadIcon aria-hidden="true" /> {t('chat.downloadDocument')}
          </a>
        </span>
      );
    default:
      return null;
  }
}

/** The delivery ticks of a message the company sent. */
export function StatusTicks({ status }: { status: number }) {
  const { t } = useTranslation();
  const label = t(`chat.status.${status}`, { defaultValue: '' });
  if (status === 4) {
    return (
      <span className="chat-ticks chat-ticks--failed" role="img" aria-label={label}>
        <AlertIcon size={14} aria-hidden="true" />
      </span>
    );
  }
  const double = status === 2 || status === 3;
  return (
    <span
      className={`chat-ticks${status === 2 ? ' chat-ticks--read' : ''}${status === 0 ? ' chat-ticks--pending' : ''}`}
      role="img"
      aria-label={label}
    >
      <CheckIcon size={14} aria-hidden="true" />
      {double ? <CheckIcon size={14} aria-hidden="true" className="chat-ticks__second" /> : null}
    </span>
  );
}

export interface MessageBubbleProps {
  message: ChatMessage;
  onResend?: (message: ChatMessage) => void;
  resending?: boolean;
  /** The signed-in user: their own messages are named 'Tú'. */
  viewerId?: number | null;
  /** The customer's name, for quotes of their messages. */
  contactName?: string;
  /** Makes this message the one the next message answers (hover's 'Responder', a long press on a phone). */
  onReply?: (message: ChatMessage) => void;
  /** Shows the message a quote points at (the quote is clicked). */
  onQuoteClick?: (messageId: number) => void;
  /** Briefly marked: the message a quote was followed to. */
  highlighted?: boolean;
}

/** A message of the thread: an internal note in its own style, any other as a chat bubble. */
export function MessageBubble(props: MessageBubbleProps) {
  if (props.message.kind === 'note') return <NoteBubble message={props.message} viewerId={props.viewerId} />;
  return <ChatBubble {...props} />;
}

function ChatBubble({
  message,
  onResend,
  resending,
  viewerId,
  contactName,
  onReply,
  onQuoteClick,
  highlighted,
}: MessageBubbleProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const outgoing = message.sender_type !== 'client';
  const failed = message.status === 4;
  // WhatsApp's error says whether sending the same message again can help (a message without one may).
  const resendable = message.error?.resendable ?? true;
  // The bot could not answer: the server stores why, as a whole sentence, on a note of its own.
  const botFailure = message.kind === 'bot_failure';
  // A customer's tap on a template's quick reply (or a reply button): its text, marked as a button.
  const isButton = message.message_type === 'button';
  const isMedia = message.message_type !== 'text' && !isButton;
  const caption = message.message_type === 'document' ? '' : message.content;
  // Every message of the company's side says who wrote it ('Bot', the agent, 'Campaña «name»'); the
  // customer's side stays plain. (A message from a server older than authors has none.)
  const author = message.author as ChatMessage['author'] | undefined;
  const named = author?.type === 'user' || author?.type === 'campaign' || author?.type === 'bot';
  // Only a message WhatsApp has (stored, not pending nor failed) can be quoted.
  const scheduled = message.status === SCHEDULED_STATUS;
  const quotable = onReply && message.id > 0 && !botFailure && message.status !== 0 && !failed && !scheduled;
  const longPress = useLongPress(quotable ? () => onReply(message) : undefined);
  return (
    <div
      className={`chat-message chat-message--${outgoing ? 'out' : 'in'}${highlighted ? ' chat-message--highlighted' : ''}`}
      data-message-id={message.id}
      {...longPress}
    >
      <div
        className={`chat-bubble chat-bubble--${message.sender_type}${failed ? ' chat-bubble--failed' : ''}`}
      >
        {author && named ? (
          <span className={`chat-bubble__author chat-bubble__author--${author.type}`}>
            {authorLabel(t, author, { viewerId })}
          </span>
        ) : null}
        {message.reply_to ? (
          <QuoteBlock
            quote={message.reply_to}
            viewerId={viewerId}
            contactName={contactName}
            onClick={onQuoteClick}
          />
        ) : null}
        {botFailure ? (
          <p className="chat-bubble__bot-failure">
            {message.error_message ?? t('chat.botFailed', { reason: '' })}
          </p>
        ) : (
          <>
            {isMedia ? <MediaView message={message} /> : null}
            {isButton ? (
              <p className="chat-bubble__button-answer">
                <span className="chat-bubble__button-tag">{t('chat.buttonAnswer')}</span>
                <span className="chat-bubble__button-text">{message.content}</span>
              </p>
            ) : caption ? (
              <MarkdownLite text={caption} />
            ) : null}
          </>
        )}
        <span className="chat-bubble__meta">
          {quotable ? (
            <button type="button" className="chat-bubble__reply" onClick={() => onReply(message)}>
              {t('chat.reply')}
            </button>
          ) : null}
          <time dateTime={message.created_at}>{bubbleTime(message.created_at, language)}</time>
          {outgoing && !botFailure && !scheduled ? <StatusTicks status={message.status} /> : null}
        </span>
        {scheduled ? <ScheduledInfo message={message} /> : null}
        {failed && !botFailure ? (
          <div className="chat-bubble__failure">
            <p className="chat-bubble__failure-title">{t('chat.notSent')}</p>
            {message.error ? (
              <>
                <p className="chat-bubble__failure-reason">{message.error.explanation}</p>
                {message.error.title || message.error.code !== null ? (
                  <p className="chat-bubble__failure-code">
                    {message.error.code === null
                      ? message.error.title
                      : t('chat.failureCode', { code: message.error.code, title: message.error.title })}
                  </p>
                ) : null}
              </>
            ) : message.error_message ? (
              <p className="chat-bubble__failure-reason">{message.error_message}</p>
            ) : null}
            {/* Resending is offered only where it can help (not for a template that does not exist…). */}
            {onResend && message.id > 0 && message.content.trim() !== '' && resendable ? (
              <button
                type="button"
                className="chat-bubble__resend"
                disabled={resending}
                onClick={() => onResend(message)}
              >
                {t('chat.resend')}
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}
