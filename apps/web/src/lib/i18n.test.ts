import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../app/router';
import { setupTestI18n } from '../test';
import { detectLanguage, i18next, loadFeatureTexts } from './i18n';

function forget(section: string) {
  for (const language of ['es', 'en']) {
    delete (i18next.store.data[language]?.translation as Record<string, unknown> | undefined)?.[section];
  }
}

function findRoute(list: RouteObject[], path: string): RouteObject | undefined {
  for (const route of list) {
    if (route.path === path) return route;
    const found = route.children && findRoute(route.children, path);
    if (found) return found;
  }
  return undefined;
}

beforeEach(() => {
  setupTestI18n('es');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('feature texts', () => {
  it('loads a feature catalogue for every language i18next holds', async () => {
    forget('clients');
    expect(i18next.exists('clients.title')).toBe(false);
    await loadFeatureTexts('clients');
    expect(i18next.t('clients.title', { lng: 'es' })).toBe('Gestión de clientes');
    expect(i18next.t('clients.title', { lng: 'en' })).toBe('Client management');
  });

  it('rejects a feature without a catalogue', async () => {
    await expect(loadFeatureTexts('nope')).rejects.toThrow("No es texts for the feature 'nope'");
  });

  it('renders the clients route only once its texts are in (no flash of raw keys)', async () => {
    forget('clients');
    const lazy = findRoute(routes, 'clients')?.lazy;
    expect(typeof lazy).toBe('function');
    const resolved = await (lazy as () => Promise<{ Component?: unknown }>)();
    expect(resolved.Component).toBeTypeOf('function');
    expect(i18next.t('clients.table.label')).toBe('Clientes');
  });

  it('keeps the feature sections out of the core catalogue', async () => {
    const core = (await import('../locales/es.json')).default as Record<string, unknown>;
    for (const section of ['clients', 'adminHome', 'superAdmin', 'client'])
      expect(core).not.toHaveProperty(section);
  });
});

describe('detectLanguage', () => {
  it('prefers the stored language, then the browser languages we ship, then Spanish', () => {
    vi.stubGlobal('navigator', { languages: ['fr-FR', 'en-GB'], language: 'fr-FR' });
    expect(detectLanguage()).toBe('en');
    localStorage.setItem('language', 'es');
    expect(detectLanguage()).toBe('es');
    localStorage.clear();
    vi.stubGlobal('navigator', { languages: ['de-DE'], language: 'de-DE' });
    expect(detectLanguage()).toBe('es');
  });
});
