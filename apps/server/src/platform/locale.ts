import { DEFAULT_LANGUAGE, type Language } from '@hablabot/contract';
import type { TextKey } from '../i18n';

type Params = Record<string, string | number>;
type Catalogue = Record<string, string>;

/**
 * The texts of this process, filled at start-up by `registerServerTexts()` (src/i18n.ts) from every
 * module's `*.i18n.ts`. Spanish is the default and the fallback.
 */
const catalogues: Record<Language, Catalogue> = { es: {}, en: {} };

/** Adds a catalogue's texts in both languages (keys are namespaced by module). */
export function registerTexts(texts: Record<Language, Catalogue>): void {
  Object.assign(catalogues.es, texts.es);
  Object.assign(catalogues.en, texts.en);
}

export function hasText(key: string): boolean {
  return key in catalogues.es;
}

/** Picks es or en from an Accept-Language header (quality values honoured); es when nothing fits. */
export function resolveLanguage(header: string | undefined): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag, ...rest] = part.trim().split(';');
      const q = rest.find((p) => p.trim().startsWith('q='));
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((x) => x.tag && !Number.isNaN(x.q))
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    const base = tag.split('-')[0];
    if (base === 'es' || base === 'en') return base;
  }
  return DEFAULT_LANGUAGE;
}

const pluralRules: Record<Language, Intl.PluralRules> = {
  es: new Intl.PluralRules('es'),
  en: new Intl.PluralRules('en'),
};

/**
 * The key a text is read from. A number beside a noun agrees with it: with a numeric `count`, a text
 * that has a singular form (`<key>_one`, as i18next names it on the web) uses it when the language's
 * plural rule says 'one'; the key itself holds the plural.
 */
function pluralKey(lang: Language, key: string, params?: Params): string {
  const count = params?.count;
  if (typeof count !== 'number' || pluralRules[lang].select(count) !== 'one') return key;
  const singular = `${key}_one`;
  return singular in catalogues[lang] ? singular : key;
}

/** The key's text in the language (else in Spanish, else the key itself), with `{name}` filled in. */
export function translate(lang: Language, key: TextKey | (string & {}), params?: Params): string {
  const chosen = pluralKey(lang, key, params);
  const template = catalogues[lang][chosen] ?? catalogues.es[chosen] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

export type Translator = (key: TextKey | (string & {}), params?: Params) => string;
