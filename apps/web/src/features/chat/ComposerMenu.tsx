import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PlusIcon } from '../../components/lib/icons';

export interface ComposerMenuProps {
  onTemplates: () => void;
  onMedia: () => void;
  onDetails: () => void;
  /** 'Programar envío': the message being written, sent later; absent for a note, disabled without text. */
  onSchedule?: () => void;
  scheduleDisabled?: boolean;
}

/** The composer's '+' menu: a template message, a file of the media library, the client's details. */
export function ComposerMenu({
  onTemplates,
  onMedia,
  onDetails,
  onSchedule,
  scheduleDisabled,
}: ComposerMenuProps) {
  const { t } = useTranslation();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
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
  const item = (label: string, action: () => void, disabled = false) => (
    <button
      type="button"
      role="menuitem"
      disabled={disabled}
      onClick={() => {
        setMenuOpen(false);
        // The '+' button has the focus back before a dialog opens, so the dialog returns it there.
        buttonRef.current?.focus();
        action();
      }}
    >
      {label}
    </button>
  );
  return (
    <div className="chat-input__menu-wrap" ref={menuRef}>
      <button
        ref={buttonRef}
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
          {item(t('chat.input.template'), onTemplates)}
          {item(t('chat.input.media'), onMedia)}
          {item(t('chat.input.details'), onDetails)}
          {onSchedule ? item(t('chat.input.schedule'), onSchedule, scheduleDisabled) : null}
        </div>
      ) : null}
    </div>
  );
}
