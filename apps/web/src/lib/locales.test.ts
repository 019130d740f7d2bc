import { describe, expect, it } from 'vitest';
import coreEn from '../locales/en.json';
import coreEs from '../locales/es.json';
import { setupTestI18n } from '../test';

type Catalogue = Record<string, unknown>;

const features = import.meta.glob<Catalogue>('../features/*/locales/*.json', {
  eager: true,
  import: 'default',
});

/** Every catalogue by its folder: the core one and one per feature, each with an es and an en file. */
const catalogues = new Map<string, Partial<Record<'es' | 'en', Catalogue>>>([
  ['locales', { es: coreEs, en: coreEn }],
]);
for (const [file, texts] of Object.entries(features)) {
  const match = /^\.\.\/features\/([^/]+)\/locales\/([^/]+)\.json$/.exec(file);
  if (!match) throw new Error(`Unexpected catalogue path ${file}`);
  const [, area, language] = match;
  if (language !== 'es' && language !== 'en') throw new Error(`${file}: only es and en are shipped`);
  const entry = catalogues.get(`features/${area}`) ?? {};
  entry[language] = texts;
  catalogues.set(`features/${area}`, entry);
}

function keys(value: unknown, prefix = ''): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) =>
    keys(child, prefix ? `${prefix}.${key}` : key),
  );
}

/** Texts whose {{count}} stands beside no noun of its own ('3 / 100', '3 de 100 caracteres'). */
const COUNT_WITHOUT_NOUN = new Set(['widgets.textarea.counter', 'widgets.textarea.counterLabel']);

function leaves(value: unknown, prefix = ''): [string, string][] {
  if (typeof value === 'string') return [[prefix, value]];
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) =>
    leaves(child, prefix ? `${prefix}.${key}` : key),
  );
}

describe('catalogues', () => {
  it('finds the core catalogue and the feature ones', () => {
    expect([...catalogues.keys()]).toEqual(
      expect.arrayContaining(['locales', 'features/clients', 'features/home', 'features/super-admin']),
    );
  });

  it.each([...catalogues.keys()])('%s: es and en hold exactly the same keys', (folder) => {
    const { es, en } = catalogues.get(folder) ?? {};
    expect(es, `${folder}/es.json`).toBeDefined();
    expect(en, `${folder}/en.json`).toBeDefined();
    expect(keys(en).sort()).toEqual(keys(es).sort());
  });

  it('gives each top-level section to one catalogue only (a feature owns whole sections)', () => {
    const owner = new Map<string, string>();
    for (const [folder, { es }] of catalogues) {
      for (const section of Object.keys(es ?? {})) {
        expect(owner.get(section), `'${section}' is in ${owner.get(section)} and ${folder}`).toBeUndefined();
        owner.set(section, folder);
      }
    }
  });

  it.each([...catalogues.keys()])(
    '%s: a text that puts {{count}} beside a noun comes in plural forms (_one, _other)',
    (folder) => {
      const { es = {}, en = {} } = catalogues.get(folder) ?? {};
      for (const texts of [es, en]) {
        const singular = leaves(texts).filter(
          ([key, text]) =>
            text.includes('{{count}}') && !/_(one|other)$/.test(key) && !COUNT_WITHOUT_NOUN.has(key),
        );
        expect(singular.map(([key]) => key)).toEqual([]);
      }
    },
  );

  it('a number beside a noun agrees with it in both languages', async () => {
    const i18n = setupTestI18n('es');
    await i18n.changeLanguage('es');
    expect(i18n.t('massMessages.pace.summary', { count: 1 })).toBe('Ritmo de envío: 1 mensaje por segundo');
    expect(i18n.t('form.issues.tooLong', { field: 'x', count: 1, max: 1 })).toBe(
      'El campo x no puede exceder 1 carácter.',
    );
    expect(i18n.t('massMessages.history.sentOf', { count: 1, sent: '0', total: '1' })).toBe('0 de 1 enviado');
    await i18n.changeLanguage('en');
    expect(i18n.t('massMessages.pace.summary', { count: 1 })).toBe('Sending pace: 1 message per second');
    expect(i18n.t('massMessages.pace.summary', { count: 2 })).toBe('Sending pace: 2 messages per second');
    await i18n.changeLanguage('es');
  });

  it.each(['es', 'en'] as const)(
    '%s: the sidebar, the home tiles and each screen call a screen by one name',
    async (lng) => {
      const i18n = setupTestI18n(lng);
      await i18n.changeLanguage(lng);
      const t = (key: string) => i18n.t(key);
      for (const [nav, tile, title] of [
        ['nav.bulkMessages', 'adminHome.tiles.bulk.title', 'massMessages.title'],
        ['nav.settings', 'adminHome.tiles.settings.title', 'settings.title'],
        ['nav.media', 'adminHome.tiles.media.title', 'media.title'],
      ]) {
        expect([t(nav), t(tile)], `${nav} and ${tile}`).toEqual([t(title), t(title)]);
      }
      await i18n.changeLanguage('es');
    },
  );

  it('keep the fixed texts the shell relies on', () => {
    expect(coreEs.auth.login.emailPlaceholder).toBe('Enter email address');
    expect(coreEs.auth.login.passwordPlaceholder).toBe('Enter password');
    expect(coreEs.errors.validationTitle).toBe('Por favor corrige los siguientes errores:');
    expect(coreEs.superAdminNav).toEqual({
      dashboard: 'Dashboard',
      companies: 'Compañías',
      roles: 'Roles',
      plans: 'Planes',
      analytics: 'Analítica',
      webhooks: 'Webhooks fallidos',
      settings: 'Configuración',
    });
    expect(coreEn.language.updated).toBe('Language updated successfully.');
    expect(coreEn.language.temporary).toBe('Language set temporarily.');
    expect(coreEn.auth.errors.connection).toBe('Connection error. Please try again.');
  });
});
