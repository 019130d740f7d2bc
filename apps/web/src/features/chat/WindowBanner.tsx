import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ChatWindow, chatWindow } from './chat-utils';
import type { ChatMessage } from './MessageBubble';

/** The 24-hour window of the conversation, counted down every second. */
export function useChatWindow(messages: readonly ChatMessage[]): ChatWindow {
  const [now, setNow] = useState(() => Date.now());
  const window = chatWindow(messages, now);
  const open = window.state === 'open';
  useEffect(() => {
    if (!open) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [open]);
  // A new customer message reopens the window at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the clock restarts when the messages change
  useEffect(() => setNow(Date.now()), [messages]);
  return window;
}

export function WindowBanner({ window }: { window: ChatWindow }) {
  const { t } = useTranslation();
  const text =
    window.state === 'open'
      ? t('chat.window.remaining', { h: window.hours, m: window.minutes, s: window.seconds })
      : window.state === 'closed'
        ? t('chat.window.closed')
        : t('chat.window.noClientMessages');
  return (
    <p className={`chat-window chat-window--${window.state}`} data-testid="chat-window">
      {text}
    </p>
  );
}
