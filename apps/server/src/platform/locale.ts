import { DEFAULT_LANGUAGE, type Language } from '@hablabot/contract';
import { type MessageKey, messages } from './messages';

type Params = Record<string, string | number>;
type Catalogue = Record<string, string>;

/** Modules add their own messages at start-up; keys are namespaced by module. */
const catalogues: Record<Language, Catalogue> = { es: { ...messages.es }, en: { ...messages.en } };

export function registerMessages(extra: Record<Language, Catalogue>): void {
  Object.assign(catalogues.es, extra.es);
  Object.assign(catalogues.en, extra.en);
}

export function hasMessage(key: string): boolean {
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

export function translate(lang: Language, key: MessageKey | (string & {}), params?: Params): string {
  const template = catalogues[lang][key] ?? catalogues.es[key] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

export type Translator = (key: MessageKey | (string & {}), params?: Params) => string;
