import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField } from '../../components';
import { isLanguage, LANGUAGES } from '../../lib/i18n';
import { useLanguageSwitch } from '../../lib/language';
import { SettingsCard } from './SettingsLayout';

/** The system language: the same switch as the top bar's (the account remembers it). */
export function LanguageSection() {
  const { t } = useTranslation();
  const { language, change, pending, feedback } = useLanguageSwitch();
  const id = useId();
  const value = isLanguage(language) ? language : 'es';
  return (
    <SettingsCard headingId={`${id}-heading`} title={t('settings.language.heading')}>
      <div className="settings-language">
        <FormField id={id} label={t('settings.language.label')} hint={t('settings.language.hint')}>
          {(control) => (
            <select
              {...control}
              className="hb-input settings-language__select"
              value={value}
              aria-busy={pending}
              onChange={(event) => {
                const next = event.target.value;
                if (!pending && isLanguage(next)) void change(next);
              }}
            >
              {LANGUAGES.map((code) => (
                <option key={code} value={code} lang={code}>
                  {t(`language.${code}`)}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <div role="status" aria-live="polite" className="settings-language__feedback">
          {feedback && (
            <span className={`toast toast--${feedback.type}`} data-testid="settings-language-feedback">
              {feedback.text}
            </span>
          )}
        </div>
      </div>
    </SettingsCard>
  );
}
