import { useTranslation } from 'react-i18next';
import { SparkIcon } from '../../components/lib/icons';
import { useDocumentTitle } from '../../lib/use-document-title';

/** Stand-in for a screen not built yet: its title and an "in development" note. */
export function PlaceholderScreen({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const title = t(`placeholders.titles.${titleKey}`);
  useDocumentTitle(title);
  return (
    <div className="page">
      <header className="page-header">
        <h1 className="page-header__title">{title}</h1>
      </header>
      <div className="empty-state" data-testid="placeholder">
        <span className="empty-state__icon">
          <SparkIcon size={28} />
        </span>
        <p className="empty-state__title">{t('placeholders.inDevelopment')}</p>
        <p className="empty-state__body">{t('placeholders.body')}</p>
      </div>
    </div>
  );
}
