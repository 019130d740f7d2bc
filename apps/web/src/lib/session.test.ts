import { describe, expect, it } from 'vitest';
import { clearSession, getSession, initials, roleLanding, setSession } from './session';

describe('session', () => {
  it('stores token, user and rol under their session storage keys', () => {
    setSession({ token: 't', user: { id: 1, name: 'Ana', email: 'a@x.io' }, rol: 'client' });
    expect(sessionStorage.getItem('token')).toBe('t');
    expect(JSON.parse(sessionStorage.getItem('user') ?? '')).toMatchObject({ name: 'Ana' });
    expect(sessionStorage.getItem('rol')).toBe('client');
    expect(getSession()).toMatchObject({ token: 't', rol: 'client' });
    clearSession();
    expect(getSession()).toBeNull();
  });

  it('maps each role to its landing', () => {
    expect(roleLanding('super_admin')).toBe('/super-admin');
    expect(roleLanding('admin')).toBe('/admin');
    expect(roleLanding('client')).toBe('/client');
    expect(roleLanding('toString')).toBeNull();
    expect(roleLanding(null)).toBeNull();
  });

  it('makes initials, or ? without a name', () => {
    expect(initials('Ana María López')).toBe('AL');
    expect(initials('ana')).toBe('A');
    expect(initials('  ')).toBe('?');
    expect(initials(null)).toBe('?');
  });
});

describe('locale helpers', () => {
  it('starts the week on Monday in Spanish and groups thousands with a comma in Spanish', async () => {
    const { intlLocale, weekStartsOn } = await import('./i18n');
    expect(weekStartsOn('es')).toBe(1);
    expect(weekStartsOn('en')).toBe(0);
    expect(new Intl.NumberFormat(intlLocale('es')).format(1234)).toBe('1,234');
    expect(new Intl.NumberFormat(intlLocale('en')).format(1234)).toBe('1,234');
  });
});
