import { describe, expect, it } from 'vitest';
import coreEn from '../locales/en.json';
import coreEs from '../locales/es.json';

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
      settings: 'Configuración',
    });
    expect(coreEn.language.updated).toBe('Language updated successfully.');
    expect(coreEn.language.temporary).toBe('Language set temporarily.');
    expect(coreEn.auth.errors.connection).toBe('Connection error. Please try again.');
  });
});
