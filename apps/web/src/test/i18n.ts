import { initReactI18next } from 'react-i18next';
import { i18next } from '../lib/i18n';
import en from '../locales/en.json';
import es from '../locales/es.json';

export type TestLanguage = 'es' | 'en';

type Catalogue = Record<string, unknown>;

/** Every feature catalogue (`features/<area>/locales/<lang>.json`), read at once for the tests. */
const features = import.meta.glob<Catalogue>('../features/*/locales/*.json', {
  eager: true,
  import: 'default',
});

function catalogue(language: TestLanguage): Catalogue {
  const own = Object.entries(features)
    .filter(([file]) => file.endsWith(`/${language}.json`))
    .map(([, texts]) => texts);
  return Object.assign({}, language === 'en' ? en : es, ...own);
}

/**
 * The one i18n set-up of the web tests: the app's own i18next instance (the one `lib/i18n` exports and
 * screens call), with the core and every feature catalogue in memory, in `language`. Synchronous —
 * the texts are inline, so `t` works on the first render — and it returns the instance, so both
 * `setupTestI18n('en')` and `await setupTestI18n('en')` read well.
 */
export function setupTestI18n(language: TestLanguage = 'es') {
  if (!i18next.isInitialized) {
    i18next.use(initReactI18next).init({
      lng: language,
      fallbackLng: 'es',
      supportedLngs: ['es', 'en'],
      resources: { es: { translation: catalogue('es') }, en: { translation: catalogue('en') } },
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
      showSupportNotice: false,
      react: { useSuspense: false },
    });
  }
  if (i18next.language !== language) void i18next.changeLanguage(language);
  return i18next;
}

/** The former name of `setupTestI18n` in the widgets' tests. */
export const initTestI18n = setupTestI18n;
