import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useNavigation, useRouteError } from 'react-router';
import { LogoMark } from '../components/lib/public-icons';

/** App root: the routed screen, a thin progress bar while a lazy screen loads, scroll restoration. */
export function RootBoundary() {
  const navigation = useNavigation();
  return (
    <>
      {navigation.state !== 'idle' && <div className="route-progress" aria-hidden="true" />}
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

/** First paint while the matched lazy screens download. */
export function AppLoading() {
  const { t } = useTranslation();
  return (
    <div className="app-loading" role="status">
      <span className="dots" aria-hidden="true">
        <span />
        <span />
        <span />
      </span>
      <span className="sr-only">{t('app.loading')}</span>
    </div>
  );
}

/** A screen that failed to load (e.g. a chunk gone after a deploy) or threw while rendering. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error(error);
  return (
    <main className="status-page">
      <LogoMark size={44} />
      <h1 className="status-page__title">{t('errors.routeTitle')}</h1>
      <p className="status-page__body">{t('errors.routeBody')}</p>
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        {t('common.reload')}
      </button>
    </main>
  );
}
