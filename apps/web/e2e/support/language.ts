import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';

/**
 * What "a screen speaks one language" means to the language walk: no text on it is a text the product
 * has only in the other language. The texts come from every catalogue that reaches a screen: the web's
 * (core and per feature) and the server's messages (`*.i18n.ts`), plus the descriptions the server
 * seeds for the built-in roles. A text written the same in both languages (SPEC's fixed texts such as
 * the register form's Spanish labels or 'Enter email address', names such as 'Bots') belongs to both.
 */

type Language = 'es' | 'en';
type Texts = Record<string, string>;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

function flatten(value: unknown, prefix = '', into: Texts = {}): Texts {
  if (typeof value === 'string') into[prefix] = value;
  else if (value && typeof value === 'object')
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, into);
  return into;
}

function webCatalogues(): Record<Language, Texts>[] {
  const web = path.join(root, 'apps/web/src');
  const folders = [
    path.join(web, 'locales'),
    ...fs
      .readdirSync(path.join(web, 'features'))
      // The developers' widget gallery is not a product screen.
      .filter((area) => area !== 'gallery')
      .map((area) => path.join(web, 'features', area, 'locales'))
      .filter((folder) => fs.existsSync(folder)),
  ];
  return folders.map((folder) => {
    const read = (language: Language) =>
      flatten(JSON.parse(fs.readFileSync(path.join(folder, `${language}.json`), 'utf8')));
    return { es: read('es'), en: read('en') };
  });
}

async function serverCatalogues(): Promise<Record<Language, Texts>[]> {
  const files = fs
    .readdirSync(path.join(root, 'apps/server/src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.i18n.ts'));
  const catalogues: Record<Language, Texts>[] = [];
  for (const file of files) {
    const module = (await import(path.join(root, 'apps/server/src', file))) as Record<string, unknown>;
    for (const value of Object.values(module)) {
      const texts = value as Partial<Record<Language, Texts>>;
      if (texts?.es && texts.en) catalogues.push({ es: texts.es, en: texts.en });
    }
  }
  return catalogues;
}

/** The descriptions the server seeds for the built-in roles (Spanish); the web shows them translated. */
const SEEDED_ROLE_DESCRIPTIONS: Record<Language, Texts> = {
  es: { super_admin: 'Superadministrador', admin: 'Administrador de compañía', client: 'Cliente' },
  en: { super_admin: 'Super administrator', admin: 'Company administrator', client: 'Client' },
};

export interface ForeignText {
  text: string;
  pattern: RegExp;
}

const PLACEHOLDER = /\{\{\s*\w+\s*\}\}|\{\w+\}/g;

function matcher(text: string): ForeignText | null {
  const parts = text.split(PLACEHOLDER);
  // A text that is all placeholders and punctuation ('{{count}} / {{max}}') says nothing of its language.
  if (parts.join('').replace(/[^\p{L}]/gu, '').length < 3) return null;
  const source = parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+?');
  return { text, pattern: new RegExp(`^${source}$`) };
}

/** The texts the product has in the other language only, as whole-text patterns (placeholders match anything). */
export async function foreignTexts(language: Language): Promise<ForeignText[]> {
  const other: Language = language === 'es' ? 'en' : 'es';
  const catalogues = [...webCatalogues(), ...(await serverCatalogues()), SEEDED_ROLE_DESCRIPTIONS];
  const own = new Set(catalogues.flatMap((catalogue) => Object.values(catalogue[language])));
  const foreign = new Set(
    catalogues.flatMap((catalogue) => Object.values(catalogue[other])).filter((text) => !own.has(text)),
  );
  return [...foreign].map(matcher).filter((m): m is ForeignText => m !== null);
}

/** Every text a person reads or hears on the page: text nodes and the placeholder, label and title attributes. */
export function readTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (parent?.closest('script, style, noscript')) continue;
      const text = node.textContent?.trim();
      if (text) texts.push(text);
    }
    for (const element of document.body.querySelectorAll('[placeholder], [aria-label], [title], [alt]')) {
      for (const name of ['placeholder', 'aria-label', 'title', 'alt']) {
        const value = element.getAttribute(name)?.trim();
        if (value) texts.push(value);
      }
    }
    texts.push(document.title);
    return texts;
  });
}

/** The page's texts that belong to the other language only, each with the catalogue text it matched. */
export async function foreignOnPage(page: Page, foreign: ForeignText[]): Promise<string[]> {
  const found = new Set<string>();
  for (const text of await readTexts(page)) {
    const hit = foreign.find((candidate) => candidate.pattern.test(text));
    if (hit) found.add(text === hit.text ? text : `${text} (≈ ${hit.text})`);
  }
  return [...found];
}
