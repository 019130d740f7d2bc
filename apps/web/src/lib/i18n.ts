import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '@hablabot/contract';
import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';

export { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language };
/** The chosen language lives in local storage under this key. */
export const LANGUAGE_STORAGE_KEY = 'language';

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

/** Locale for Intl formatting. es-MX groups thousands with a comma (1,234), as the product shows figures. */
export function intlLocale(language: string): string {
  return language === 'en' ? 'en-US' : 'es-MX';
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The date formatter of a UI language and options, made once and kept: making an `Intl.DateTimeFormat`
 * costs milliseconds (Chromium loads the locale's data for each one), and the chat list and the thread
 * format a date for every row and bubble.
 */
export function dateFormat(language: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = intlLocale(language);
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    dateFormats.set(key, format);
  }
  return format;
}

/** First day of the week for calendars: Monday in Spanish, Sunday in English. */
export function weekStartsOn(language: string): 0 | 1 {
  return language === 'en' ? 0 : 1;
}

type Catalogue = Record<string, unknown>;
type CatalogueModule = { default: Catalogue };

/**
 * Texts come in two layers, each language its own chunk, so a page downloads only what it shows:
 * - the core catalogue (`locales/<lang>.json`): the shell, sign-in, errors and the shared widgets;
 * - one catalogue per feature (`features/<area>/locales/<lang>.json`), loaded with the feature's
 *   route (`loadFeatureTexts`). A feature catalogue owns whole top-level sections (`{ "clients": … }`),
 *   so every key keeps its full name and components do not know where their texts live.
 */
const featureCatalogues: Record<string, () => Promise<CatalogueModule>> = {
  ...import.meta.glob<CatalogueModule>(['../features/*/locales/*.json', '!../features/gallery/**']),
  // The developers' widget gallery exists in dev builds only (see app/router.tsx).
  ...(import.meta.env.DEV ? import.meta.glob<CatalogueModule>('../features/gallery/locales/*.json') : {}),
};

function featureCatalogue(area: string, language: Language): Promise<Catalogue> {
  const load = featureCatalogues[`../features/${area}/locales/${language}.json`];
  if (!load) return Promise.reject(new Error(`No ${language} texts for the feature '${area}'`));
  return load().then((module) => module.default);
}

/** Features whose texts a route asked for: a language loaded later brings theirs along. */
const loadedFeatures = new Set<string>();

// Reading a language (first start or a switch) loads the core catalogue and every loaded feature's,
// so changeLanguage resolves only once the whole screen can render in the new language.
const catalogueBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, _namespace: string, callback: ReadCallback) {
    const lang: Language = isLanguage(language) ? language : DEFAULT_LANGUAGE;
    const core = lang === 'en' ? import('../locales/en.json') : import('../locales/es.json');
    Promise.all([
      core.then((module) => module.default as Catalogue),
      ...[...loadedFeatures].map((area) => featureCatalogue(area, lang)),
    ]).then(
      ([base, ...features]) => callback(null, Object.assign({}, base, ...features)),
      (error: unknown) => callback(error as Error, null),
    );
  },
};

/**
 * Loads one feature's texts for every language i18next holds (the current one at least) and resolves
 * once they are in. Routes call it in their `lazy`, so a screen never renders before its texts.
 */
export async function loadFeatureTexts(area: string): Promise<void> {
  loadedFeatures.add(area);
  // The router may resolve a route before the app started i18next: start it (once) and wait, so the
  // language is known. (Tests set i18next up themselves.)
  if (ready || !i18next.isInitialized) await initI18n().catch(() => undefined);
  const held = Object.keys(i18next.store?.data ?? {}).filter(isLanguage);
  const languages = new Set<Language>([currentLanguage(), ...held]);
  await Promise.all(
    [...languages].map(async (language) => {
      const texts = await featureCatalogue(area, language);
      i18next.addResourceBundle(language, 'translation', texts, true, true);
    }),
  );
}

/**
 * The language to start in: the one stored on this device, else the browser's first language we
 * ship (en-GB counts as en), else Spanish. (A few lines instead of a detector library: this runs on
 * the sign-in screen, whose JavaScript has a budget.)
 */
export function detectLanguage(): Language {
  const stored = getStoredLanguage();
  if (stored) return stored;
  const nav = typeof navigator === 'undefined' ? undefined : navigator;
  for (const code of [...(nav?.languages ?? []), nav?.language]) {
    const base = code?.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

let ready: Promise<unknown> | null = null;

/** Starts i18next once; resolves when the detected language's catalogue is loaded. */
export function initI18n(): Promise<unknown> {
  if (ready) return ready;
  i18next.on('languageChanged', (language) => {
    if (typeof document !== 'undefined') document.documentElement.lang = language.split('-')[0];
  });
  ready = i18next
    .use(catalogueBackend)
    .use(initReactI18next)
    .init({
      lng: detectLanguage(),
      supportedLngs: [...LANGUAGES],
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      fallbackLng: DEFAULT_LANGUAGE,
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
