import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'es';
/** SPEC.md section 9: the language lives in local storage under this key. */
export const LANGUAGE_STORAGE_KEY = 'language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The language the user chose on this device, or null when none was stored. */
export function getStoredLanguage(): Language | null {
  try {
    const value = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

export function storeLanguage(language: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private mode or a full quota: the choice still applies for this page.
  }
}

/** Stored language, defaulting to Spanish: what the API client sends as Accept-Language. */
export function requestLanguage(): Language {
  return getStoredLanguage() ?? DEFAULT_LANGUAGE;
}

/** Locale for Intl formatting. es-MX groups thousands with a comma (1,234) like SPEC.md's figures. */
export function intlLocale(language: string): string {
  return language === 'en' ? 'en-US' : 'es-MX';
}

/** First day of the week for calendars: Monday in Spanish (SPEC.md section 9), Sunday in English. */
export function weekStartsOn(language: string): 0 | 1 {
  return language === 'en' ? 0 : 1;
}

// Each catalogue is its own chunk, so a page only downloads the language it shows.
const catalogueBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, _namespace: string, callback: ReadCallback) {
    const load = language === 'en' ? import('../locales/en.json') : import('../locales/es.json');
    load.then(
      (module) => callback(null, module.default as Record<string, unknown>),
      (error: unknown) => callback(error as Error, null),
    );
  },
};

let ready: Promise<unknown> | null = null;

/** Starts i18next once; resolves when the detected language's catalogue is loaded. */
export function initI18n(): Promise<unknown> {
  if (ready) return ready;
  i18next.on('languageChanged', (language) => {
    if (typeof document !== 'undefined') document.documentElement.lang = language.split('-')[0];
  });
  ready = i18next
    .use(catalogueBackend)
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      supportedLngs: [...LANGUAGES],
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      fallbackLng: DEFAULT_LANGUAGE,
      detection: {
        order: ['localStorage', 'navigator'],
        lookupLocalStorage: LANGUAGE_STORAGE_KEY,
        // The switcher writes the key itself, only once the change succeeded.
        caches: [],
      },
      interpolation: { escapeValue: false },
      showSupportNotice: false,
      returnNull: false,
      react: { useSuspense: false },
    })
    .then(() => {
      // The first visit's detected language becomes the stored one, so the API's Accept-Language
      // (the stored language) always matches what the screen shows.
      if (!getStoredLanguage()) storeLanguage(currentLanguage());
    });
  return ready;
}

/** The active UI language, narrowed to the two we ship. */
export function currentLanguage(): Language {
  const language = i18next.resolvedLanguage ?? i18next.language;
  return isLanguage(language) ? language : DEFAULT_LANGUAGE;
}

export { i18next };
