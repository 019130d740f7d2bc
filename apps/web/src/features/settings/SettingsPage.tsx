import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components';
import { useSettings } from './api';
import { LanguageSection } from './LanguageSection';
import { SettingsForm } from './SettingsForm';
import { SettingsPageLayout } from './SettingsLayout';

export { formValuesOf, SETTINGS_FEEDBACK_MS, type SettingsFormValues } from './settings-form';

/** Settings (/admin/setting): 'Configuraciones'. */
export default function SettingsPage() {
  const { t } = useTranslation();
  const query = useSettings();

  return (
    <SettingsPageLayout
      title={t('settings.title')}
      subtitle={t('settings.subtitle')}
      after={
        <p className="settings-hours-link">
          <Link to="/admin/setting/business-hours">{t('businessHours.link')}</Link>
        </p>
      }
    >
      <LanguageSection />
      {query.data ? (
        <SettingsForm settings={query.data} />
      ) : query.isError ? (
        <div className="settings-card settings-load-error" role="alert">
          <p>{t('settings.loadError')}</p>
          <Button onClick={() => void query.refetch()} busy={query.isFetching}>
            {t('settings.retry')}
          </Button>
        </div>
      ) : (
        <p className="settings-loading" role="status">
          {t('settings.loading')}
        </p>
      )}
    </SettingsPageLayout>
  );
}
