import { type RefObject, useEffect, useRef, useState } from 'react';
import type { MessagePages } from './api';
import type { ChatMessage } from './MessageBubble';

/** Older pages read at most while looking for a quoted message before giving up. */
export const JUMP_MAX_PAGES = 10;
/** How long the message a quote led to stays marked. */
export const JUMP_HIGHLIGHT_MS = 2000;

/** What reading one more older page gives: the pages now held, and whether there are older ones still. */
type OlderPage = Promise<{ data?: { pages: MessagePages['pages'] }; hasNextPage: boolean }>;

/**
 * Following a quote: the quoted message is scrolled into view and marked for a moment. One not loaded yet
 * is looked for in older pages, up to JUMP_MAX_PAGES of them; past that (or at the first message) the
 * search stops quietly. Returns the function a quote calls and the message marked now.
 */
export function useJumpToMessage(
  scroller: RefObject<HTMLElement | null>,
  messages: readonly ChatMessage[],
  hasOlder: boolean,
  loadOlder: () => OlderPage,
) {
  const [found, setFound] = useState<number | null>(null);
  const [highlighted, setHighlighted] = useState<number | null>(null);
  const latest = useRef({ messages, hasOlder });
  latest.current = { messages, hasOlder };

  const jumpTo = async (id: number) => {
    let held = latest.current.messages.some((m) => m.id === id);
    let more = latest.current.hasOlder;
    for (let pages = 0; !held && more && pages < JUMP_MAX_PAGES; pages++) {
      const result = await loadOlder();
      held = (result.data?.pages ?? []).some((page) => page.messages.some((m) => m.id === id));
      more = result.hasNextPage;
    }
    if (held) setFound(id);
  };

  // Scrolled to once it is on screen (an older page shows a render after it is read).
  // biome-ignore lint/correctness/useExhaustiveDependencies: looks again each time the messages change
  useEffect(() => {
    if (found === null) return;
    const el = scroller.current?.querySelector<HTMLElement>(`[data-message-id="${found}"]`);
    if (!el) return;
    el.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
    setHighlighted(found);
    setFound(null);
  }, [found, messages, scroller]);

  useEffect(() => {
    if (highlighted === null) return;
    const timer = setTimeout(() => setHighlighted(null), JUMP_HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlighted]);

  return { jumpTo: (id: number) => void jumpTo(id), highlighted };
}
