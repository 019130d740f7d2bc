import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LogoMark } from '../../components/lib/icons';
import { useDocumentTitle } from '../../lib/use-document-title';

export default function NotFoundPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('errors.notFoundTitle'));
  return (
    <main className="status-page">
      <LogoMark size={44} />
      <p className="status-page__code">404</p>
      <h1 className="status-page__title">{t('errors.notFoundTitle')}</h1>
      <p className="status-page__body">{t('errors.notFoundBody')}</p>
      <Link to="/" className="button button--primary">
        {t('errors.backHome')}
      </Link>
    </main>
  );
}
