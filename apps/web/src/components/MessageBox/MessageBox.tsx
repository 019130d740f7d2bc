import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon, CheckCircleIcon, CloseIcon } from '../lib/icons';
import { cx } from '../lib/text';
import '../lib/tokens.css';
import './MessageBox.css';

export type MessageType = 'success' | 'error' | 'info';

export interface MessageBoxProps {
  type?: MessageType;
  /** Nothing renders when empty. Error texts get the 'Error: ' prefix (once). */
  message: ReactNode;
  /** Milliseconds before onDismiss fires (the screens use 2000–5000). Paused while hovered or focused. */
  autoDismissMs?: number;
  /** Called by the close button and when the time runs out. */
  onDismiss?: () => void;
  /** Shows the close button (needs onDismiss). Default true. */
  dismissible?: boolean;
  /** Changing it restarts the countdown even when the text repeats (useMessageBox sets it per show). */
  messageKey?: string | number;
  className?: string;
}

/** Success / error banner (errors are prefixed 'Error: '). Errors are announced assertively, success politely. */
export function MessageBox({
  type = 'success',
  message,
  autoDismissMs,
  onDismiss,
  dismissible = true,
  messageKey,
  className,
}: MessageBoxProps) {
  const { t } = useTranslation();
  const [paused, setPaused] = useState(false);
  const onDismissRef = useRef(onDismiss);
  onDismissRef.current = onDismiss;
  const empty = message === null || message === undefined || message === false || message === '';

  // The timer restarts for each new message; hovering or focusing the banner pauses it (WCAG 2.2.1).
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new message restarts the countdown
  useEffect(() => {
    if (empty || !autoDismissMs || paused) return;
    const timer = setTimeout(() => onDismissRef.current?.(), autoDismissMs);
    return () => clearTimeout(timer);
  }, [message, messageKey, autoDismissMs, paused, empty]);

  if (empty) return null;

  const prefix = t('widgets.messageBox.errorPrefix');
  const text =
    type === 'error' && typeof message === 'string' && !message.startsWith(prefix)
      ? `${prefix}${message}`
      : message;
  const Icon = type === 'error' ? AlertIcon : CheckCircleIcon;

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover/focus only pause the timer; role is alert or status
    <div
      className={cx('hb-message', `hb-message--${type}`, className)}
      role={type === 'error' ? 'alert' : 'status'}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <Icon size={18} className="hb-message__icon" />
      <div className="hb-message__text">{text}</div>
      {dismissible && onDismiss && (
        <button
          type="button"
          className="hb-icon-btn hb-message__close"
          onClick={onDismiss}
          aria-label={t('widgets.messageBox.dismiss')}
        >
          <CloseIcon size={16} />
        </button>
      )}
    </div>
  );
}

export interface MessageState {
  type: MessageType;
  message: string;
  autoDismissMs?: number;
  /** Increases on every show, so the same text shown twice gets a fresh countdown. */
  id: number;
}

let nextMessageId = 1;

/**
 * State for one banner: `const box = useMessageBox(); box.success(text, 4000); <MessageBox {...box.props} />`.
 */
export function useMessageBox(defaultMs?: number) {
  const [state, setState] = useState<MessageState | null>(null);
  const clear = useCallback(() => setState(null), []);
  const show = useCallback(
    (type: MessageType, message: string, autoDismissMs = defaultMs) =>
      setState({ type, message, autoDismissMs, id: nextMessageId++ }),
    [defaultMs],
  );
  const success = useCallback((message: string, ms?: number) => show('success', message, ms), [show]);
  const error = useCallback((message: string, ms?: number) => show('error', message, ms), [show]);
  return {
    state,
    show,
    success,
    error,
    clear,
    props: {
      type: state?.type ?? 'success',
      message: state?.message ?? '',
      autoDismissMs: state?.autoDismissMs,
      messageKey: state?.id,
      onDismiss: clear,
    } satisfies MessageBoxProps,
  };
}
