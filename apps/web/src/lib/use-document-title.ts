import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets the tab title to "<page> · HablaBot" in the current language. */
export function useDocumentTitle(page: string | null | undefined): void {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = page ? t('app.pageTitle', { page }) : t('app.name');
  }, [page, t]);
}
