import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cast, type TestApi, createTestApi } from '../../../test/http';
import { expectRoleMatrix } from '../../../test/role-matrix';

let api: TestApi;
let cast: Cast;

beforeAll(async () => {
  api = await createTestApi();
  cast = await api.cast();
});
afterAll(async () => {
  await api.close();
});

describe(`own account (${process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'})`, () => {
  it('PUT /account is for every signed-in user, each on their own account', async () => {
    await expectRoleMatrix(
      api,
      cast,
      { method: 'PUT', url: '/api/v1/account', payload: { name: 'Someone', language: 'es' } },
      { anonymous: 401 },
    );
    for (const who of ['client', 'admin', 'superAdmin'] as const) {
      const res = await api.put('/account', { name: `Nuevo ${who}`, language: 'en' }, { as: cast[who] });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        success: true,
        message: 'Your account was updated successfully.',
        user: { id: cast[who].user.id, name: `Nuevo ${who}`, language: 'en', email: cast[who].user.email },
      });
      // The change is read back by the next request (the signed-in user is not served stale).
      const again = await api.put('/account', { name: `Otra vez ${who}`, language: 'es' }, { as: cast[who] });
      expect(again.json().user).toMatchObject({ name: `Otra vez ${who}`, language: 'es' });
      expect((await api.container.identity.findUserById(cast[who].user.id))!.name).toBe(`Otra vez ${who}`);
    }
  });

  it('refuses a blank name and an unknown language (422)', async () => {
    const res = await api.put('/account', { name: '  ', language: 'fr' }, { as: cast.client });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['language', 'name']);
  });

  it('changes the password only with the current one, and signs out the other sessions', async () => {
    const me = await api.user({ role: 'admin', password: 'first-pass-4821' });
    const other = await api.signIn(me.user.email, 'first-pass-4821');
    const body = { name: me.user.name, language: 'es', password: 'brand-new-pass-9137' };

    const missing = await api.put('/account', body, { as: me });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toHaveProperty('current_password');

    const wrong = await api.put('/account', { ...body, current_password: 'not-my-pass-1' }, { as: me });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.current_password).toEqual(['La contraseña actual no es correcta.']);
    // Nothing changed: the other session still works.
    expect(
      (await api.put('/account', { name: me.user.name, language: 'es' }, { as: other })).statusCode,
    ).toBe(200);

    const personal = await api.put(
      '/account',
      { ...body, password: `${me.user.email.split('@')[0]}1`, current_password: 'first-pass-4821' },
      { as: me },
    );
    expect(personal.statusCode).toBe(422);
    expect(personal.json().errors).toHaveProperty('password');

    const ok = await api.put('/account', { ...body, current_password: 'first-pass-4821' }, { as: me });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(
      'Tu cuenta se actualizó con éxito. Se cerraron las demás sesiones abiertas con tu usuario.',
    );
    // This session stays, the other one is gone, and only the new password signs in.
    expect((await api.put('/account', { name: me.user.name, language: 'es' }, { as: me })).statusCode).toBe(
      200,
    );
    expect(
      (await api.put('/account', { name: me.user.name, language: 'es' }, { as: other })).statusCode,
    ).toBe(401);
    await expect(api.signIn(me.user.email, 'first-pass-4821')).rejects.toThrow(/401/);
    await expect(api.signIn(me.user.email, 'brand-new-pass-9137')).resolves.toMatch(/^hb_/);
  });

  it('limits guesses of the current password per user: 429 past five in a window, even in parallel', async () => {
    const me = await api.user({ role: 'admin', password: 'guarded-pass-5521' });
    const body = { name: me.user.name, language: 'es', password: 'brand-new-pass-7702' };
    const guesses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api.put('/account', { ...body, current_password: `guess-number-${i}` }, { as: me }),
      ),
    );
    expect(guesses.map((r) => r.statusCode).sort()).toEqual([422, 422, 422, 422, 422, 429, 429, 429]);
    const limited = guesses.find((r) => r.statusCode === 429)!;
    expect(limited.json().message).toMatch(
      /^Demasiados intentos con la contraseña actual\. Inténtalo de nuevo en \d+ segundos?\.$/,
    );
    // Even the right password waits out the window; the password is unchanged.
    const right = await api.put('/account', { ...body, current_password: 'guarded-pass-5521' }, { as: me });
    expect(right.statusCode).toBe(429);
    await expect(api.signIn(me.user.email, 'guarded-pass-5521')).resolves.toMatch(/^hb_/);
    // Changing only the name and language needs no password check, so it is not limited.
    expect((await api.put('/account', { name: 'Sin límite', language: 'en' }, { as: me })).statusCode).toBe(
      200,
    );
  });
});
