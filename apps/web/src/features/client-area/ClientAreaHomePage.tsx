import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../lib/use-document-title';

/** The client area's index shows only a placeholder. */
export default function ClientAreaHomePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('client.title'));
  return (
    <section className="client-placeholder" aria-labelledby="client-title">
      <h1 id="client-title" className="client-placeholder__title">
        {t('client.title')}
      </h1>
      <p className="client-placeholder__body">{t('client.placeholder')}</p>
    </section>
  );
}
