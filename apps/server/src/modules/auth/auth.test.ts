import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../../../test/context';
import { createUser } from '../../../test/factories';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ loginLimits: { perIp: 1000, perEmail: 3, windowMs: 60_000 } });
});
afterAll(async () => {
  await ctx.close();
});

const login = (email: string, password: string, lang?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    headers: lang ? { 'accept-language': lang } : {},
  });

describe(`auth (${process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'})`, () => {
  it('signs in with the right password and returns a working token, the user with roles and the language', async () => {
    const admin = await createUser(ctx, { role: 'admin', email: 'Ana@Example.test', name: 'Ana' });
    const res = await login('ana@example.test', admin.password);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      message: 'Inicio de sesión exitoso.',
      language: 'es',
      user: {
        name: 'Ana',
        email: 'ana@example.test',
        company_id: admin.user.company_id,
        roles: [{ name: 'admin' }],
      },
    });
    expect(body.token).toMatch(/^hb_[A-Za-z0-9_-]{43}$/);
    expect(body.user).not.toHaveProperty('password_hash');
    const logout = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(logout.statusCode).toBe(200);
  });

  it('stores tokens hashed, never in clear', async () => {
    const u = await createUser(ctx, { role: 'client' });
    const rows = await ctx.container.db.selectFrom('access_tokens').select('token_hash').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.token_hash)).not.toContain(u.token);
    const users = await ctx.container.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', u.user.id)
      .execute();
    expect(users[0].password_hash).toMatch(/^scrypt\$/);
  });

  it('answers 401 with the localised message for a wrong password and for an unknown email', async () => {
    const u = await createUser(ctx, { role: 'client' });
    const wrong = await login(u.user.email, 'not-the-password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Credenciales inválidas' });
    const unknown = await login('nobody@example.test', 'whatever-123', 'en-US,en;q=0.9');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ message: 'Invalid credentials' });
  });

  it('rate-limits failed sign-ins per email with 429 and a clear message', async () => {
    const u = await createUser(ctx, { role: 'client' });
    for (let i = 0; i < 3; i++) expect((await login(u.user.email, 'bad-password')).statusCode).toBe(401);
    const limited = await login(u.user.email, u.password);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/Demasiados intentos de inicio de sesión/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('rate-limits sign-ins per IP address', async () => {
    const strict = await createTestContext({ loginLimits: { perIp: 2, perEmail: 100, windowMs: 60_000 } });
    try {
      const send = () =>
        strict.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { email: 'a@b.test', password: 'x' },
        });
      expect((await send()).statusCode).toBe(401);
      expect((await send()).statusCode).toBe(401);
      const third = await send();
      expect(third.statusCode).toBe(429);
    } finally {
      await strict.close();
    }
  });

  it('answers 422 listing each invalid field of a malformed body', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'not-an-email' },
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(Object.keys(body.errors).sort()).toEqual(['email', 'password']);
    expect(body.errors.password).toEqual(['El campo contraseña es obligatorio.']);
    expect(body.message).toBe(body.errors.email[0]);
  });

  it('answers 400 for a body that is not JSON, without internals', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'El cuerpo de la solicitud no es JSON válido.' });
  });

  it('registers a client user, and refuses a taken email with 422 on the email field', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { name: 'Carla', email: 'carla@example.test', password: 'long-enough-1' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ success: true });
    const user = await ctx.container.identity.findUserByEmail('carla@example.test');
    expect(user?.roles.map((r) => r.name)).toEqual(['client']);
    expect(user?.company_id).toBeNull();

    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      headers: { 'accept-language': 'en' },
      payload: { name: 'Carla 2', email: 'CARLA@example.test', password: 'long-enough-2' },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.email).toEqual(['This email address is already registered.']);
  });

  it('two sign-ups with one email at once: one succeeds, the other hears the email is taken', async () => {
    const send = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: { name: 'Twin', email: 'twin@example.test', password: 'long-enough-1' },
      });
    const statuses = (await Promise.all([send(), send(), send()])).map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 422, 422]);
  });

  it('register validates name, email and password', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { name: '  ', email: 'x@', password: 'short' },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['email', 'name', 'password']);
    expect(res.json().errors.password[0]).toBe('El campo contraseña debe tener al menos 8 caracteres.');
  });

  it('logout revokes the token: the next call answers 401', async () => {
    const u = await createUser(ctx, { role: 'admin' });
    const lang = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/language/set',
      headers: u.headers,
      payload: { language: 'en' },
    });
    expect(lang.statusCode).toBe(200);
    const out = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: u.headers });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({ success: true });
    const after = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: u.headers });
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBeTruthy();
  });

  it('logout without a token or with a forged one answers 401', async () => {
    expect((await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/logout' })).statusCode).toBe(401);
    const forged = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: { authorization: 'Bearer hb_forged' },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('saves the language of a signed-in user, and sets it temporarily for a guest', async () => {
    const u = await createUser(ctx, { role: 'admin' });
    const saved = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/language/set',
      headers: u.headers,
      payload: { language: 'en' },
    });
    expect(saved.json()).toEqual({ success: true, message: 'Language updated successfully.' });
    expect((await ctx.container.identity.findUserById(u.user.id))?.language).toBe('en');
    const relog = await login(u.user.email, u.password);
    expect(relog.json().language).toBe('en');

    const guest = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/language/set',
      payload: { language: 'es' },
    });
    expect(guest.json()).toEqual({ success: true, message: 'Language set temporarily.' });
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/language/set',
      payload: { language: 'fr' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.language[0]).toContain('es, en');
  });

  it('answers the CSRF cookie handshake at both paths', async () => {
    for (const url of ['/sanctum/csrf-cookie', '/api/v1/sanctum/csrf-cookie']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(204);
      expect(String(res.headers['set-cookie'])).toMatch(/^XSRF-TOKEN=[\w-]{20,};/);
    }
  });
});
