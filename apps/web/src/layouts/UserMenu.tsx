import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLogout } from '../features/auth/account-api';
import { initials, useSession } from '../lib/session';
import { ChevronDownIcon, HomeIcon, LogoutIcon, SettingsIcon } from '../components/lib/icons';

// The account form (and the form kit it uses) loads only when opened.
const AccountDialog = lazy(() => import('./AccountDialog'));

/** Avatar button with a disclosure panel: name, email, the area's home and logout. */
export function UserMenu({ homePath, homeLabel }: { homePath: string; homeLabel?: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const { logout, pending } = useLogout();
  const [open, setOpen] = useState(false);
  const [accountOpen, setAccountOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const name = session?.user?.name?.trim() || '';
  const email = session?.user?.email ?? '';

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="user-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="user-menu__button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="avatar" data-testid="user-initials" aria-hidden="true">
          {initials(name)}
        </span>
        {/* The visible name starts the accessible name (WCAG 2.5.3); the purpose follows for screen readers. */}
        <span className="user-menu__name">{name || email}</span>
        <span className="sr-only">{t('userMenu.open')}</span>
        <ChevronDownIcon size={16} className="user-menu__chevron" />
      </button>
      {open && (
        <div id={panelId} className="user-menu__panel">
          <div className="user-menu__identity">
            <span className="avatar avatar--lg">{initials(name)}</span>
            <div className="user-menu__who">
              <strong className="user-menu__full-name">{name || t('userMenu.noName')}</strong>
              <span className="user-menu__email">{email}</span>
            </div>
          </div>
          <div className="user-menu__actions">
            <Link to={homePath} className="user-menu__item" onClick={() => setOpen(false)}>
              <HomeIcon size={18} />
              {homeLabel ?? t('userMenu.adminHome')}
            </Link>
            <button
              type="button"
              className="user-menu__item"
              onClick={() => {
                setOpen(false);
                setAccountOpen(true);
              }}
            >
              <SettingsIcon size={18} />
              {t('userMenu.account')}
            </button>
            <button
              type="button"
              className="user-menu__item user-menu__item--danger"
              onClick={() => void logout()}
              disabled={pending}
              aria-busy={pending}
            >
              <LogoutIcon size={18} />
              {pending ? t('userMenu.loggingOut') : t('userMenu.logout')}
            </button>
          </div>
        </div>
      )}
      {accountOpen && (
        <Suspense fallback={null}>
          <AccountDialog
            onClose={() => {
              setAccountOpen(false);
              buttonRef.current?.focus();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
