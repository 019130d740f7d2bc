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

/** The key's text in the language (else in Spanish, else the key itself), with `{name}` filled in. */
export function translate(lang: Language, key: TextKey | (string & {}), params?: Params): string {
  const template = catalogues[lang][key] ?? catalogues.es[key] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

export type Translator = (key: TextKey | (string & {}), params?: Params) => string;
