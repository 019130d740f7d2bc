import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PlusIcon } from '../../components/lib/icons';
import type { ChatContact } from './Conversation';
import type { ChatMessage } from './MessageBubble';
import { WindowBanner, useChatWindow } from './WindowBanner';

/**
 * The composer under a conversation: the 24-hour window banner, the message being answered, the '+' menu
 * (template, media library, client details), the message input and the send button.
 */
export interface ComposerProps {
  contact: ChatContact;
  messages: readonly ChatMessage[];
  loading: boolean;
  draft: string;
  onDraftChange: (text: string) => void;
  onSend: (text: string) => void;
  onTemplates: () => void;
  /** The message being answered, shown above the bar. */
  reply: ReactNode;
}

export function Composer(props: ComposerProps) {
  const { contact, messages, loading, draft, onDraftChange, onSend, onTemplates, reply } = props;
  const { t } = useTranslation();
  const window = useChatWindow(messages);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);
  // The menu closes on Escape and on a click anywhere else.
  useEffect(() => {
    if (!menuOpen) return;
    const onPointer = (event: PointerEvent) => {
      if (!menuRef.current?.contains(event.target as Node)) setMenuOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [menuOpen]);
  const open = !loading && window.state === 'open';
  const canSend = open && draft.trim() !== '';
  const submit = () => {
    if (!canSend) return;
    onSend(draft.trim());
    onDraftChange('');
  };
  const option = (key: 'media' | 'details') => {
    setMenuOpen(false);
    globalThis.alert(t('chat.input.optionAlert', { name: contact.name, option: t(`chat.input.${key}`) }));
  };
  return (
    <div className="chat-input">
      {loading ? null : <WindowBanner window={window} />}
      {reply}
      <div className="chat-input__bar">
        <div className="chat-input__menu-wrap" ref={menuRef}>
          <button
            type="button"
            className="chat-input__plus"
            aria-label={t('chat.input.more')}
            aria-haspopup="menu"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen((v) => !v)}
          >
            <PlusIcon size={20} aria-hidden="true" />
          </button>
          {menuOpen ? (
            <div className="chat-input__menu" role="menu">
              <button
                type="button"
                role="menuitem"
                onClick={() => {
                  setMenuOpen(false);
                  onTemplates();
                }}
              >
                {t('chat.input.template')}
              </button>
              <button type="button" role="menuitem" onClick={() => option('media')}>
                {t('chat.input.media')}
              </button>
              <button type="button" role="menuitem" onClick={() => option('details')}>
                {t('chat.input.details')}
              </button>
            </div>
          ) : null}
        </div>
        <textarea
          className="chat-input__text"
          rows={1}
          value={draft}
          disabled={!open}
          aria-label={t('chat.input.placeholder')}
          placeholder={open || loading ? t('chat.input.placeholder') : t('chat.input.closedPlaceholder')}
          onChange={(event) => onDraftChange(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              submit();
            }
          }}
        />
        <button type="button" className="chat-input__send" disabled={!canSend} onClick={submit}>
          {t('chat.input.send')}
        </button>
      </div>
    </div>
  );
}
