import type { MessageAuthor, MessageQuote } from '@hablabot/contract';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../../components/lib/icons';

/**
 * Who wrote a message, as the chat names them: the viewer's own messages read 'Tú', another agent's
 * their name as it is now (or 'Agente' once the account is gone), a mass message's its name, the customer
 * the contact's name.
 */
export function authorLabel(
  t: TFunction,
  author: MessageAuthor,
  options: { viewerId?: number | null; contactName?: string } = {},
): string {
  switch (author.type) {
    case 'user':
      if (author.id !== undefined && author.id === options.viewerId) return t('chat.author.you');
      return author.name ?? t('chat.author.agent');
    case 'campaign':
      return author.name ? t('chat.author.campaign', { name: author.name }) : t('chat.author.campaignGone');
    case 'bot':
      return t('chat.author.bot');
    case 'customer':
      return options.contactName ?? t('chat.author.customer');
    default:
      return t('chat.author.system');
  }
}

/** The quoted message shown above a reply, inside its bubble. */
export function QuoteBlock({
  quote,
  viewerId,
  contactName,
  onClick,
}: {
  quote: MessageQuote;
  viewerId?: number | null;
  contactName?: string;
  /** Shows the quoted message in the thread: the quote is then a button. */
  onClick?: (messageId: number) => void;
}) {
  const { t } = useTranslation();
  const content = (
    <>
      <span className="chat-quote__author">{authorLabel(t, quote.author, { viewerId, contactName })}</span>
      <span className="chat-quote__text">{quote.content || t('chat.quoteEmpty')}</span>
    </>
  );
  return (
    <blockquote className="chat-quote" data-quote-id={quote.id}>
      {onClick ? (
        <button
          type="button"
          className="chat-quote__jump"
          title={t('chat.quoteJump')}
          onClick={() => onClick(quote.id)}
        >
          {content}
        </button>
      ) : (
        content
      )}
    </blockquote>
  );
}

/** Above the composer: the message the next one answers, with a way to drop it. */
export function ReplyPreview({
  quote,
  viewerId,
  contactName,
  onCancel,
}: {
  quote: MessageQuote;
  viewerId?: number | null;
  contactName?: string;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const who = authorLabel(t, quote.author, { viewerId, contactName });
  return (
    <div className="chat-input__reply" data-testid="chat-reply-preview">
      <div className="chat-quote chat-quote--composer">
        <span className="chat-quote__author">{t('chat.replyingTo', { name: who })}</span>
        <span className="chat-quote__text">{quote.content || t('chat.quoteEmpty')}</span>
      </div>
      <button
        type="button"
        className="chat-input__reply-cancel"
        aria-label={t('chat.cancelReply')}
        onClick={onCancel}
      >
        <CloseIcon size={16} aria-hidden="true" />
      </button>
    </div>
  );
}
