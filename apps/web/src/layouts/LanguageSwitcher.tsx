import { useId } from 'react';
import { isLanguage, LANGUAGES } from '../lib/i18n';
import { useLanguageSwitch } from '../lib/language';
import { GlobeIcon } from '../components/lib/public-icons';

/**
 * Spanish / English switch. Blocked while a change runs; the result shows for 5 seconds in a live
 * region next to it.
 */
export function LanguageSwitcher({ tone = 'light' }: { tone?: 'light' | 'dark' }) {
  const { language, change, pending, feedback, t } = useLanguageSwitch();
  const id = useId();
  const value = isLanguage(language) ? language : 'es';

  return (
    <div className={`lang-switch lang-switch--${tone}`} data-pending={pending || undefined}>
      <label htmlFor={id} className="sr-only">
        {t('language.label')}
      </label>
      <GlobeIcon size={16} className="lang-switch__icon" />
      <select
        id={id}
        className="lang-switch__select"
        value={value}
        aria-busy={pending}
        aria-disabled={pending}
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
      <div className="lang-switch__feedback" role="status" aria-live="polite">
        {feedback ? (
          <span className={`toast toast--${feedback.type}`} data-testid="language-feedback">
            {feedback.text}
          </span>
        ) : pending ? (
          <span className="sr-only">{t('language.changing')}</span>
        ) : null}
      </div>
    </div>
  );
}
