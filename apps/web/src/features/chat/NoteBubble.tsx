import { useTranslation } from 'react-i18next';
import { bubbleTime } from './chat-utils';
import { MarkdownLite } from './markdown';
import type { ChatMessage } from './MessageBubble';
import { authorLabel } from './MessageQuote';

/**
 * An internal note in the thread: the team's own, never sent to WhatsApp, so it has no delivery ticks,
 * cannot be answered nor sent again. Its own colour and label keep it apart from what the customer reads.
 */
export function NoteBubble({ message, viewerId }: { message: ChatMessage; viewerId?: number | null }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return (
    <div className="chat-message chat-message--note" data-message-id={message.id}>
      <div className="chat-bubble chat-bubble--note">
        <span className="chat-bubble__note-head">
          <span className="chat-bubble__note-label">{t('chat.note.label')}</span>
          <span className="chat-bubble__author">{authorLabel(t, message.author, { viewerId })}</span>
        </span>
        <MarkdownLite text={message.content} />
        <span className="chat-bubble__meta">
          <time dateTime={message.created_at}>{bubbleTime(message.created_at, language)}</time>
        </span>
      </div>
    </div>
  );
}
