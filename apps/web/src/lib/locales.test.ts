import { describe, expect, it } from 'vitest';
import en from '../locales/en.json';
import es from '../locales/es.json';

function keys(value: unknown, prefix = ''): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) =>
    keys(child, prefix ? `${prefix}.${key}` : key),
  );
}

describe('catalogues', () => {
  it('es and en hold exactly the same keys', () => {
    expect(keys(en).sort()).toEqual(keys(es).sort());
  });

  it('keep SPEC.md texts the shell relies on', () => {
    expect(es.auth.login.emailPlaceholder).toBe('Enter email address');
    expect(es.auth.login.passwordPlaceholder).toBe('Enter password');
    expect(es.errors.validationTitle).toBe('Por favor corrige los siguientes errores:');
    expect(es.superAdminNav).toEqual({
      dashboard: 'Dashboard',
      companies: 'Compañías',
      roles: 'Roles',
      plans: 'Planes',
      analytics: 'Analítica',
      settings: 'Configuración',
    });
    expect(en.language.updated).toBe('Language updated successfully.');
    expect(en.language.temporary).toBe('Language set temporarily.');
    expect(en.auth.errors.connection).toBe('Connection error. Please try again.');
  });
});
