import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { QueryProvider } from '../app/query-provider';
import { LogoMark } from '../components/lib/icons';
import { LanguageSwitcher } from './LanguageSwitcher';
import { UserMenu } from './UserMenu';
import '../styles/shell.css';

/** The client area is a header, a placeholder and a footer. */
export default function ClientAreaLayout() {
  const { t } = useTranslation();
  return (
    <QueryProvider>
      <div className="client-shell">
        <a className="skip-link" href="#main-content">
          {t('app.skipToContent')}
        </a>
        <header className="topbar topbar--client">
          <Link to="/client" className="brand">
            <LogoMark size={30} />
            <span className="brand__name">{t('app.name')}</span>
          </Link>
          <div className="topbar__spacer" />
          <div className="topbar__actions">
            <LanguageSwitcher />
            <UserMenu homePath="/client" homeLabel={t('client.title')} />
          </div>
        </header>
        <main id="main-content" tabIndex={-1} className="client-shell__main">
          <Outlet />
        </main>
        <footer className="client-shell__footer">
          {t('client.footer', { year: new Date().getFullYear() })}
        </footer>
      </div>
    </QueryProvider>
  );
}
