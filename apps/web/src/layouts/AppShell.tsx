import { type ComponentType, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { QueryProvider } from '../app/query-provider';
import { usePersistedFlag } from '../lib/persisted-state';
import { MOBILE_QUERY, useMediaQuery } from '../lib/use-media-query';
import { ChevronsLeftIcon, ChevronsRightIcon, CloseIcon, LogoMark, MenuIcon } from '../components/lib/icons';
import { LanguageSwitcher } from './LanguageSwitcher';
import { UserMenu } from './UserMenu';
import '../styles/shell.css';

export interface ShellNavItem {
  to: string;
  label: string;
  icon: ComponentType<{ size?: number }>;
  /** Match the path exactly (for an area's home). */
  end?: boolean;
}

interface AppShellProps {
  area: 'admin' | 'super-admin';
  homePath: string;
  /** The user menu's name for homePath (default 'Inicio de administración'). */
  homeLabel?: string;
  items: ShellNavItem[];
  /** 'drawer' slides in from the side; 'popup' drops down under the menu button. */
  mobileMenu: 'drawer' | 'popup';
  /** Shown above every screen of the area (a banner about the company's account). */
  notice?: ReactNode;
}

function NavList({
  items,
  collapsed = false,
  onNavigate,
}: {
  items: ShellNavItem[];
  collapsed?: boolean;
  onNavigate?: () => void;
}) {
  return (
    <ul className="nav-list">
      {items.map(({ to, label, icon: ItemIcon, end }) => (
        <li key={to}>
          <NavLink
            to={to}
            end={end}
            className="nav-link"
            title={collapsed ? label : undefined}
            onClick={onNavigate}
          >
            <ItemIcon size={20} />
            <span className="nav-link__label">{label}</span>
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

function Brand({ to, hideName = false }: { to: string; hideName?: boolean }) {
  const { t } = useTranslation();
  return (
    <Link to={to} className="brand" aria-label={hideName ? t('app.name') : undefined}>
      <LogoMark size={30} />
      <span className="brand__name">{t('app.name')}</span>
    </Link>
  );
}

/**
 * The signed-in frame of the admin and super-admin areas: a sidebar that collapses 250px ↔ 60px and,
 * at 768px or less, a menu behind a button.
 */
export function AppShell({ area, homePath, homeLabel, items, mobileMenu, notice }: AppShellProps) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const [collapsed, setCollapsed] = usePersistedFlag(`hablabot.${area}.sidebarCollapsed`);
  const [menuOpen, setMenuOpen] = useState(false);
  const sidebarId = useId();
  const menuId = useId();
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const mainRef = useRef<HTMLElement>(null);
  const location = useLocation();
  const firstRender = useRef(true);

  // A route change closes the mobile menu and moves focus to the new content for screen readers.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change only
  useEffect(() => {
    setMenuOpen(false);
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    mainRef.current?.focus({ preventScroll: true });
  }, [location.pathname]);

  useEffect(() => {
    if (!isMobile) setMenuOpen(false);
  }, [isMobile]);

  useEffect(() => {
    if (!menuOpen) return;
    menuRef.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setMenuOpen(false);
        menuButtonRef.current?.focus();
        return;
      }
      // The drawer is a modal dialog: Tab cycles inside it.
      if (event.key === 'Tab' && mobileMenu === 'drawer' && menuRef.current) {
        const focusable = [
          ...menuRef.current.querySelectorAll<HTMLElement>('a[href], button:not([disabled])'),
        ];
        const first = focusable[0];
        const last = focusable[focusable.length - 1];
        if (!first || !last) return;
        const active = document.activeElement;
        if (event.shiftKey && (active === first || !menuRef.current.contains(active))) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && (active === last || !menuRef.current.contains(active))) {
          event.preventDefault();
          first.focus();
        }
      }
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !menuButtonRef.current?.contains(target)) setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [menuOpen, mobileMenu]);

  const closeMenu = () => setMenuOpen(false);

  return (
    <QueryProvider>
      <div
        className={`shell shell--${area}`}
        data-collapsed={!isMobile && collapsed ? 'true' : 'false'}
        data-mobile={isMobile ? 'true' : 'false'}
      >
        <a className="skip-link" href="#main-content">
          {t('app.skipToContent')}
        </a>
        {!isMobile && (
          <aside id={sidebarId} className="sidebar" data-testid="sidebar" aria-label={t('shell.mainNav')}>
            <div className="sidebar__brand">
              <Brand to={homePath} hideName={collapsed} />
            </div>
            <nav className="sidebar__nav" aria-label={t('shell.mainNav')}>
              <NavList items={items} collapsed={collapsed} />
            </nav>
            <button
              type="button"
              className="sidebar__toggle"
              aria-controls={sidebarId}
              aria-expanded={!collapsed}
              title={collapsed ? t('shell.expand') : t('shell.collapse')}
              onClick={() => setCollapsed(!collapsed)}
            >
              {collapsed ? <ChevronsRightIcon size={18} /> : <ChevronsLeftIcon size={18} />}
              <span className="sidebar__toggle-label">
                {collapsed ? t('shell.expand') : t('shell.collapse')}
              </span>
            </button>
          </aside>
        )}
        <div className="shell__body">
          <header className="topbar">
            {isMobile && (
              <>
                <button
                  ref={menuButtonRef}
                  type="button"
                  className="icon-button"
                  aria-expanded={menuOpen}
                  aria-controls={menuId}
                  aria-label={menuOpen ? t('shell.closeMenu') : t('shell.openMenu')}
                  onClick={() => setMenuOpen((open) => !open)}
                >
                  {menuOpen && mobileMenu === 'popup' ? <CloseIcon size={20} /> : <MenuIcon />}
                </button>
                <Brand to={homePath} />
              </>
            )}
            <div className="topbar__spacer" />
            <div className="topbar__actions">
              <LanguageSwitcher />
              <UserMenu homePath={homePath} homeLabel={homeLabel} />
            </div>
          </header>
          {isMobile && menuOpen && mobileMenu === 'drawer' && (
            <div className="drawer-layer">
              <button
                type="button"
                className="drawer-backdrop"
                tabIndex={-1}
                aria-hidden="true"
                onClick={closeMenu}
              />
              <div
                ref={menuRef}
                id={menuId}
                className="drawer"
                role="dialog"
                aria-modal="true"
                aria-label={t('shell.mainNav')}
                data-testid="mobile-menu"
              >
                <div className="drawer__head">
                  <Brand to={homePath} />
                  <button
                    type="button"
                    className="icon-button icon-button--on-dark"
                    aria-label={t('shell.closeMenu')}
                    onClick={() => {
                      closeMenu();
                      menuButtonRef.current?.focus();
                    }}
                  >
                    <CloseIcon size={20} />
                  </button>
                </div>
                <nav aria-label={t('shell.mainNav')}>
                  <NavList items={items} onNavigate={closeMenu} />
                </nav>
              </div>
            </div>
          )}
          {isMobile && menuOpen && mobileMenu === 'popup' && (
            <div ref={menuRef} id={menuId} className="popup-menu" data-testid="mobile-menu">
              <nav aria-label={t('shell.mainNav')}>
                <NavList items={items} onNavigate={closeMenu} />
              </nav>
            </div>
          )}
          {notice}
          <main id="main-content" ref={mainRef} tabIndex={-1} className="content">
            <Outlet />
          </main>
        </div>
      </div>
    </QueryProvider>
  );
}
