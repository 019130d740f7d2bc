import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, createTestApi } from '../../../test/http';

let api: TestApi;

beforeAll(async () => {
  api = await createTestApi({
    loginLimits: { perIp: 1000, perEmail: 3, windowMs: 60_000 },
    registerLimits: { perIp: 1000, overall: 1000, windowMs: 60_000 },
  });
});
afterAll(async () => {
  await api.close();
});

const login = (email: string, password: string, lang?: string) =>
  api.post('/auth/login', { email, password }, { lang });

describe(`auth (${process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'})`, () => {
  it('signs in with the right password and returns a working token, the user with roles and the language', async () => {
    const admin = await api.user({ role: 'admin', email: 'Ana@Example.test', name: 'Ana' });
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
    const logout = await api.post('/auth/logout', undefined, { as: body.token });
    expect(logout.statusCode).toBe(200);
  });

  it('stores tokens hashed, never in clear', async () => {
    const u = await api.user({ role: 'client' });
    const rows = await api.container.db.selectFrom('access_tokens').select('token_hash').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.token_hash)).not.toContain(u.token);
    const users = await api.container.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', u.user.id)
      .execute();
    expect(users[0].password_hash).toMatch(/^scrypt\$/);
  });

  it('answers 401 with the localised message for a wrong password and for an unknown email', async () => {
    const u = await api.user({ role: 'client' });
    const wrong = await login(u.user.email, 'not-the-password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Credenciales inválidas' });
    const unknown = await login('nobody@example.test', 'whatever-123', 'en-US,en;q=0.9');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ message: 'Invalid credentials' });
  });

  it('rate-limits failed sign-ins per email with 429 and a clear message', async () => {
    const u = await api.user({ role: 'client' });
    for (let i = 0; i < 3; i++) expect((await login(u.user.email, 'bad-password')).statusCode).toBe(401);
    const limited = await login(u.user.email, u.password);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/Demasiados intentos de inicio de sesión/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('rate-limits sign-ins per IP address', async () => {
    const strict = await createTestApi({ loginLimits: { perIp: 2, perEmail: 100, windowMs: 60_000 } });
    try {
      const send = () => strict.post('/auth/login', { email: 'a@b.test', password: 'x' });
      expect((await send()).statusCode).toBe(401);
      expect((await send()).statusCode).toBe(401);
      const third = await send();
      expect(third.statusCode).toBe(429);
    } finally {
      await strict.close();
    }
  });

  it('answers 422 listing each invalid field of a malformed body', async () => {
    const res = await api.post('/auth/login', { email: 'not-an-email' });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(Object.keys(body.errors).sort()).toEqual(['email', 'password']);
    expect(body.errors.password).toEqual(['El campo contraseña es obligatorio.']);
    expect(body.message).toBe(body.errors.email[0]);
  });

  it('answers 400 for a body that is not JSON, without internals', async () => {
    const res = await api.post('/auth/login', '{"email": ', {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'El cuerpo de la solicitud no es JSON válido.' });
  });

  it('registers a client user; a taken email gets the same answer and its account is left as it was', async () => {
    const res = await api.post('/auth/register', {
      name: 'Carla',
      email: 'carla@example.test',
      password: 'long-enough-1',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true, message: 'Registro completado. Ya puedes iniciar sesión.' });
    const user = await api.container.identity.findUserByEmail('carla@example.test');
    expect(user?.roles.map((r) => r.name)).toEqual(['client']);
    expect(user?.company_id).toBeNull();

    const again = await api.post('/auth/register', {
      name: 'Carla 2',
      email: 'CARLA@example.test',
      password: 'long-enough-2',
    });
    expect(again.statusCode).toBe(res.statusCode);
    expect(again.json()).toEqual(res.json());
    const after = await api.container.identity.findUserByEmail('carla@example.test');
    expect(after).toEqual(user);
    expect((await login('carla@example.test', 'long-enough-1')).statusCode).toBe(200);
    expect((await login('carla@example.test', 'long-enough-2')).statusCode).toBe(401);
  });

  it("registering the super admin's email reveals nothing and changes nothing", async () => {
    const boss = await api.user({ role: 'super_admin', password: 'boss-password-42' });
    const res = await api.post('/auth/register', {
      name: 'Intruder',
      email: boss.user.email,
      password: 'intruder-pass-77',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('Registro completado. Ya puedes iniciar sesión.');
    const stored = await api.container.identity.findUserByEmail(boss.user.email);
    expect(stored?.name).toBe(boss.user.name);
    expect(stored?.password_hash).toBe(boss.user.password_hash);
    expect(stored?.roles.map((r) => r.name)).toEqual(['super_admin']);
  });

  it('two sign-ups with one email at once: one account, the same answer for all', async () => {
    const send = () =>
      api.post('/auth/register', { name: 'Twin', email: 'twin@example.test', password: 'long-enough-1' });
    const statuses = (await Promise.all([send(), send(), send()])).map((r) => r.statusCode);
    expect(statuses).toEqual([201, 201, 201]);
    const rows = await api.container.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'twin@example.test')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('register validates name, email and password (length, blank, common, personal) in both languages', async () => {
    const register = (payload: object, lang = 'es') => api.post('/auth/register', payload, { lang });
    const res = await register({ name: '  ', email: 'x@', password: 'short' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['email', 'name', 'password']);
    expect(res.json().errors.password).toEqual(['La contraseña debe tener al menos 10 caracteres.']);
    const en = await register({ name: 'Eve', email: 'eve@example.test', password: 'short' }, 'en');
    expect(en.json().errors.password).toEqual(['The password must have at least 10 characters.']);

    const cases: [string, string, string][] = [
      [
        '12345678',
        'La contraseña debe tener al menos 10 caracteres.',
        'The password must have at least 10 characters.',
      ],
      [' '.repeat(12), 'El campo contraseña es obligatorio.', 'The password field is required.'],
      [
        'Password-123',
        'Esta contraseña es demasiado común o fácil de adivinar. Elige una más larga y menos predecible.',
        'This password is too common or easy to guess. Choose a longer, less predictable one.',
      ],
      [
        'aaaaaaaaaaaa',
        'Esta contraseña es demasiado común o fácil de adivinar. Elige una más larga y menos predecible.',
        'This password is too common or easy to guess. Choose a longer, less predictable one.',
      ],
      [
        'eve.martin-2026',
        'La contraseña no puede basarse en tu correo electrónico ni en tu nombre.',
        'The password cannot be based on your email address or your name.',
      ],
    ];
    for (const [password, es, english] of cases) {
      const payload = { name: 'Eve Martin', email: 'eve.martin@example.test', password };
      const a = await register(payload);
      expect(a.statusCode, password).toBe(422);
      expect(a.json().errors.password).toEqual([es]);
      expect((await register(payload, 'en')).json().errors.password).toEqual([english]);
    }
    expect(await api.container.identity.findUserByEmail('eve.martin@example.test')).toBeUndefined();
  });

  it('logout revokes the token: the next call answers 401', async () => {
    const u = await api.user({ role: 'admin' });
    const lang = await api.post('/language/set', { language: 'en' }, { as: u });
    expect(lang.statusCode).toBe(200);
    const out = await api.post('/auth/logout', undefined, { as: u });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({ success: true });
    const after = await api.post('/auth/logout', undefined, { as: u });
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBeTruthy();
  });

  it('logout without a token or with a forged one answers 401', async () => {
    expect((await api.post('/auth/logout')).statusCode).toBe(401);
    const forged = await api.post('/auth/logout', undefined, {
      headers: { authorization: 'Bearer hb_forged' },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('saves the language of a signed-in user, and sets it temporarily for a guest', async () => {
    const u = await api.user({ role: 'admin' });
    const saved = await api.post('/language/set', { language: 'en' }, { as: u });
    expect(saved.json()).toEqual({ success: true, message: 'Language updated successfully.' });
    expect((await api.container.identity.findUserById(u.user.id))?.language).toBe('en');
    const relog = await login(u.user.email, u.password);
    expect(relog.json().language).toBe('en');

    const guest = await api.post('/language/set', { language: 'es' });
    expect(guest.json()).toEqual({ success: true, message: 'Language set temporarily.' });
    const bad = await api.post('/language/set', { language: 'fr' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.language[0]).toContain('es, en');
  });

  it('answers the CSRF cookie handshake at both paths', async () => {
    for (const url of ['/sanctum/csrf-cookie', '/api/v1/sanctum/csrf-cookie']) {
      const res = await api.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(204);
      expect(String(res.headers['set-cookie'])).toMatch(/^XSRF-TOKEN=[\w-]{20,};/);
    }
  });
});
