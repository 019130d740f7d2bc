import type { QuickReply } from '@hablabot/contract';
import { quickRepliesApi } from '@hablabot/contract/api';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../lib/api-client';

/** The most quick replies the '/' list shows at once (the rest by typing more). */
export const QUICK_REPLIES_SHOWN = 8;

/**
 * The company's quick replies (GET /admin/quick-replies), asked for the first time '/' opens them and
 * then kept for the rest of the visit to the chat: typing filters what is already here.
 */
export function useQuickReplies(enabled: boolean) {
  return useQuery({
    // The team screen's key (features/team/api.ts): its edits make the list load again here.
    queryKey: ['quick-replies'] as const,
    queryFn: ({ signal }) => call(quickRepliesApi.list, {}, { signal }),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The text typed after the '/' that opens the quick replies, or null when the text does not start with one. */
export function quickReplyQuery(draft: string): string | null {
  const match = /^\/(\S*)$/.exec(draft);
  return match ? (match[1] ?? '').toLowerCase() : null;
}

/** The quick replies whose shortcut or text hold `query` (ignoring case), shortcuts that start with it first. */
export function filterQuickReplies(all: readonly QuickReply[], query: string): QuickReply[] {
  const q = query.toLowerCase();
  const starts = all.filter((r) => r.shortcut.startsWith(q));
  const rest = all.filter(
    (r) => !r.shortcut.startsWith(q) && (r.shortcut.includes(q) || r.text.toLowerCase().includes(q)),
  );
  return [...starts, ...rest].slice(0, QUICK_REPLIES_SHOWN);
}

export interface QuickReplyListProps {
  id: string;
  items: readonly QuickReply[];
  active: number;
  loading: boolean;
  onChoose: (reply: QuickReply) => void;
  onHover: (index: number) => void;
}

/** The listbox above the composer (the textarea keeps the focus while the arrows move through it). */
export function QuickReplyList({ id, items, active, loading, onChoose, onHover }: QuickReplyListProps) {
  const { t } = useTranslation();
  return (
    <div className="chat-quick">
      <div id={id} role="listbox" className="chat-quick__list" aria-label={t('chat.quickReplies.label')}>
        {items.map((reply, index) => (
          // biome-ignore lint/a11y/useFocusableInteractive: options are reached through aria-activedescendant, focus stays in the text box
          // biome-ignore lint/a11y/useKeyWithClickEvents: the text box handles the keyboard
          <div
            key={reply.id}
            id={`${id}-${reply.id}`}
            role="option"
            aria-selected={index === active}
            className={`chat-quick__option${index === active ? ' chat-quick__option--active' : ''}`}
            // The text box keeps the focus: a press chooses without blurring it.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onChoose(reply)}
            onMouseMove={() => {
              if (index !== active) onHover(index);
            }}
          >
            <span className="chat-quick__shortcut">/{reply.shortcut}</span>
            <span className="chat-quick__text">{reply.text}</span>
            {reply.media ? <span className="chat-quick__media">{reply.media.name}</span> : null}
          </div>
        ))}
      </div>
      {items.length === 0 ? (
        <p className="chat-quick__empty" role="status">
          {loading ? t('chat.quickReplies.loading') : t('chat.quickReplies.none')}
        </p>
      ) : null}
    </div>
  );
}
