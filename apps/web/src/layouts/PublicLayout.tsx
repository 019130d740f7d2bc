import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { BotIcon, ChatIcon, LogoMark, MegaphoneIcon } from '../components/lib/public-icons';
import { LanguageSwitcher } from './LanguageSwitcher';
import '../styles/public.css';

// The particles are decoration behind the page, not part of its first paint: their canvas code comes in a
// chunk of its own, fetched once the layout renders, so the sign-in route's initial JavaScript stays in budget.
const ParticleBackground = lazy(() =>
  import('../features/public/ParticleBackground').then((module) => ({ default: module.ParticleBackground })),
);

/**
 * The public landing — a welcome title over floating particles, a header with the
 * access link — framing the sign-in and registration forms.
 */
export default function PublicLayout() {
  const { t } = useTranslation();
  return (
    <div className="public">
      <Suspense fallback={null}>
        <ParticleBackground className="public__particles" />
      </Suspense>
      <a className="skip-link" href="#main-content">
        {t('app.skipToContent')}
      </a>
      <header className="public__header">
        <Link to="/" className="brand brand--on-dark" aria-label={t('public.home')}>
          <LogoMark size={32} />
          <span className="brand__name">{t('app.name')}</span>
        </Link>
        <div className="public__header-actions">
          <LanguageSwitcher tone="dark" />
          <Link to="/login" className="button button--ghost-dark">
            {t('public.access')}
          </Link>
        </div>
      </header>
      <div className="public__body">
        <section className="public__hero" aria-labelledby="welcome-title">
          <h1 id="welcome-title" className="public__title">
            {t('public.welcomeTitle')}
          </h1>
          <p className="public__subtitle">{t('public.welcomeSubtitle')}</p>
          <ul className="public__highlights">
            <li>
              <BotIcon size={18} />
              {t('public.highlights.bots')}
            </li>
            <li>
              <ChatIcon size={18} />
              {t('public.highlights.chat')}
            </li>
            <li>
              <MegaphoneIcon size={18} />
              {t('public.highlights.massive')}
            </li>
          </ul>
        </section>
        <main id="main-content" tabIndex={-1} className="public__main">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
