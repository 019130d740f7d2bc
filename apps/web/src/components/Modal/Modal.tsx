import { type ReactNode, type RefObject, useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { getFocusable } from '../lib/focus';
import { CloseIcon } from '../lib/icons';
import { isTopLayer, pushLayer } from '../lib/layerStack';
import { lockBodyScroll } from '../lib/scrollLock';
import { cx } from '../lib/text';
import { useStableId } from '../lib/useId';
import '../lib/tokens.css';
import './Modal.css';

export type ModalSize = 'sm' | 'md' | 'lg' | 'xl' | 'full';

export interface ModalProps {
  open: boolean;
  /** Called on Escape, the close button and a backdrop click. */
  onClose: () => void;
  /** Visible title; it also names the dialog for assistive technology. */
  title: ReactNode;
  /** Optional text under the title; it becomes the dialog's description. */
  description?: ReactNode;
  children?: ReactNode;
  /** Action bar at the bottom (buttons), right-aligned. */
  footer?: ReactNode;
  /** sm 400px, md 560px (default), lg 760px, xl 1040px, full: nearly the whole viewport. */
  size?: ModalSize;
  closeOnBackdrop?: boolean;
  closeOnEscape?: boolean;
  hideCloseButton?: boolean;
  /** Element to focus when opening; otherwise [data-autofocus], then the first field, then the dialog. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** 'alertdialog' for confirmations that interrupt the user. */
  role?: 'dialog' | 'alertdialog';
  className?: string;
  id?: string;
}

/**
 * Accessible modal dialog: rendered in a portal, focus trapped inside and returned to the opener on
 * close, page scroll locked, Escape and backdrop close, stackable.
 */
export function Modal(props: ModalProps) {
  if (!props.open || typeof document === 'undefined') return null;
  return createPortal(<ModalLayer {...props} />, document.body);
}

function ModalLayer({
  onClose,
  title,
  description,
  children,
  footer,
  size = 'md',
  closeOnBackdrop = true,
  closeOnEscape = true,
  hideCloseButton = false,
  initialFocusRef,
  role = 'dialog',
  className,
  id,
}: ModalProps) {
  const { t } = useTranslation();
  const dialogId = useStableId(id, 'hb-modal');
  const titleId = `${dialogId}-title`;
  const descriptionId = `${dialogId}-description`;
  const panelRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const pressStartedOnBackdrop = useRef(false);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const closeOnEscapeRef = useRef(closeOnEscape);
  closeOnEscapeRef.current = closeOnEscape;

  // Mount: register the layer, lock scroll, move focus in; unmount: undo all and give focus back.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per opening by design
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const popLayer = pushLayer(dialogId);
    const unlock = lockBodyScroll();
    const panel = panelRef.current;
    if (panel && !panel.contains(document.activeElement)) {
      const target =
        initialFocusRef?.current ??
        panel.querySelector<HTMLElement>('[data-autofocus]') ??
        (bodyRef.current ? getFocusable(bodyRef.current)[0] : undefined) ??
        panel;
      target.focus();
    }

    const onKeyDown = (event: KeyboardEvent) => {
      // Widgets inside (a multi-select's open list) claim Escape first by preventing its default.
      if (event.defaultPrevented || !isTopLayer(dialogId) || !panelRef.current) return;
      if (event.key === 'Escape' && closeOnEscapeRef.current) {
        event.stopPropagation();
        event.preventDefault();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const focusable = getFocusable(panelRef.current);
      if (focusable.length === 0) {
        event.preventDefault();
        panelRef.current.focus();
        return;
      }
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      const active = document.activeElement;
      if (event.shiftKey && (active === first || !panelRef.current.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !panelRef.current.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    };
    // Focus that escapes by other means (a click behind, a script) is pulled back in.
    const onFocusIn = (event: FocusEvent) => {
      const current = panelRef.current;
      if (!current || !isTopLayer(dialogId)) return;
      const target = event.target as Node | null;
      if (target && !current.contains(target)) {
        current.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('focusin', onFocusIn);
      popLayer();
      unlock();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop's click is a pointer shortcut; Escape and the close button cover the keyboard
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape is handled on the document
    <div
      className="hb-modal"
      onMouseDown={(event) => {
        pressStartedOnBackdrop.current = event.target === event.currentTarget;
      }}
      onClick={(event) => {
        if (closeOnBackdrop && pressStartedOnBackdrop.current && event.target === event.currentTarget) {
          onClose();
        }
        pressStartedOnBackdrop.current = false;
      }}
    >
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: role is dialog or alertdialog, both take aria-modal */}
      <div
        ref={panelRef}
        id={dialogId}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={cx('hb-modal__panel', `hb-modal__panel--${size}`, className)}
      >
        <header className="hb-modal__header">
          <div className="hb-modal__heading">
            <h2 id={titleId} className="hb-modal__title">
              {title}
            </h2>
            {description && (
              <p id={descriptionId} className="hb-modal__description">
                {description}
              </p>
            )}
          </div>
          {!hideCloseButton && (
            <button
              type="button"
              className="hb-icon-btn hb-modal__close"
              onClick={onClose}
              aria-label={t('widgets.modal.close')}
            >
              <CloseIcon size={18} />
            </button>
          )}
        </header>
        <div ref={bodyRef} className="hb-modal__body">
          {children}
        </div>
        {footer && <footer className="hb-modal__footer">{footer}</footer>}
      </div>
    </div>
  );
}
