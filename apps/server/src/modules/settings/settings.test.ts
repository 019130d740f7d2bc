import { randomBytes } from 'node:crypto';
import {
  DEFAULT_FACEBOOK_MESSAGES_API_URL,
  DEFAULT_OPENAI_CHAT_ENDPOINT,
  GENERATED_KEY_ALPHABET,
  HUB_VERIFY_TOKEN_PATTERN,
  WORDPRESS_KEY_PATTERN,
  ZSettings,
  ZSettingsMutationResponse,
} from '@hablabot/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSettingsRepository } from './settings.repository';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast, createUser, type TestUser } from '../../../test/factories';
import { ADMIN_ONLY, expectRoleMatrix } from '../../../test/role-matrix';
import { createSecretBox } from '../../platform/secrets';

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  ctx = await createTestContext();
  cast = await createCast(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

function call(
  who: TestUser,
  method: InjectOptions['method'],
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  return ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { ...who.headers, ...headers },
    ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
  });
}

/** The company's settings as stored (the settings row with its channel), secrets still sealed. */
async function rawRow(companyId: number) {
  return createSettingsRepository(ctx.container.db).findSettings(companyId);
}

const WA_TOKEN = 'EAAGm0PX4ZCpsBAKZAtoken1234567890WXYZ';
const APP_SECRET = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const OPENAI_KEY = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789';
const wpKey = () => `HB-${randomBytes(60).toString('base64url').slice(0, 61)}`;
const hubToken = () => randomBytes(24).toString('base64url').slice(0, 32);
/** A WhatsApp id no other company of the test holds (each belongs to one company). */
let graphIds = 0;
const graphId = () => `10654035${String(++graphIds).padStart(7, '0')}`;

function fullSettings() {
  return {
    whatsAppApiKey: WA_TOKEN,
    whatsAppPhoneId: graphId(),
    whatsAppBusinessAccountId: graphId(),
    whatsAppAppSecret: APP_SECRET,
    facebookMessagesApiUrl: 'https://graph.example.test/v23.0',
    hub_verify_token: hubToken(),
    wordpress_api_key: wpKey(),
    wordpress_secret_key: wpKey(),
    openaiApiKey: OPENAI_KEY,
    openaiModel: 'gpt-4o-mini',
    openaiChatEndpoint: 'https://llm.example.test/v1/chat/completions',
  };
}

describe(`settings (${engine})`, () => {
  it('role matrix: company admins only, on every route', async () => {
    const routes: InjectOptions[] = [
      { method: 'GET', url: '/api/v1/admin/setting' },
      { method: 'POST', url: '/api/v1/admin/setting', payload: { openaiModel: 'gpt-4o-mini' } },
      { method: 'POST', url: '/api/v1/admin/setting/generate', payload: { field: 'hub_verify_token' } },
      { method: 'POST', url: '/api/v1/admin/setting/test/whatsapp', payload: {} },
      { method: 'POST', url: '/api/v1/admin/setting/test/openai', payload: {} },
    ];
    for (const route of routes) {
      await expectRoleMatrix(ctx, cast, route, { ...ADMIN_ONLY, admin: 200, otherAdmin: 200 });
    }
  });

  it('a company without settings reads the defaults; addresses come from the request origin', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const res = await call(admin, 'GET', '/admin/setting', undefined, { host: 'chat.example.test:8443' });
    expect(res.statusCode).toBe(200);
    const body = ZSettings.parse(res.json());
    expect(body).toEqual({
      whatsAppApiKey: null,
      whatsAppPhoneId: null,
      whatsAppBusinessAccountId: null,
      whatsAppAppSecret: null,
      facebookMessagesApiUrl: DEFAULT_FACEBOOK_MESSAGES_API_URL,
      hub_verify_token: null,
      wordpress_api_key: null,
      wordpress_secret_key: null,
      openaiApiKey: null,
      openaiModel: null,
      openaiChatEndpoint: DEFAULT_OPENAI_CHAT_ENDPOINT,
      secrets: {
        whatsAppApiKey: { stored: false, last4: null },
        whatsAppAppSecret: { stored: false, last4: null },
        openaiApiKey: { stored: false, last4: null },
        wordpress_secret_key: { stored: false, last4: null },
      },
      webhook_url: 'http://chat.example.test:8443/api/v1/webhooks/whatsapp',
      wordpress_url: 'http://chat.example.test:8443/api/v1/integrations/wordpress/clients',
      updated_at: null,
      whatsapp_status: 'not_configured',
      whatsapp_token_refused_at: null,
    });
    expect(await rawRow(admin.user.company_id!)).toBeUndefined();
  });

  it('round trip: saved values come back; secrets are sealed in the row and in no answer', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const values = fullSettings();
    const saved = await call(admin, 'POST', '/admin/setting', values);
    expect(saved.statusCode).toBe(200);
    const body = ZSettingsMutationResponse.parse(saved.json());
    expect(body.message).toBe('Configuración actualizada con éxito.');
    const expected = {
      whatsAppApiKey: null,
      whatsAppPhoneId: values.whatsAppPhoneId,
      whatsAppBusinessAccountId: values.whatsAppBusinessAccountId,
      whatsAppAppSecret: null,
      facebookMessagesApiUrl: values.facebookMessagesApiUrl,
      hub_verify_token: values.hub_verify_token,
      wordpress_api_key: values.wordpress_api_key,
      wordpress_secret_key: null,
      openaiApiKey: null,
      openaiModel: 'gpt-4o-mini',
      openaiChatEndpoint: values.openaiChatEndpoint,
      secrets: {
        whatsAppApiKey: { stored: true, last4: WA_TOKEN.slice(-4) },
        whatsAppAppSecret: { stored: true, last4: APP_SECRET.slice(-4) },
        openaiApiKey: { stored: true, last4: OPENAI_KEY.slice(-4) },
        wordpress_secret_key: { stored: true, last4: values.wordpress_secret_key.slice(-4) },
      },
    };
    expect(body.data).toMatchObject(expected);
    const read = await call(admin, 'GET', '/admin/setting');
    expect(read.json()).toMatchObject(expected);
    expect(read.json().updated_at).toMatch(/^\d{4}-\d\d-\d\dT/);

    const secrets = [WA_TOKEN, APP_SECRET, OPENAI_KEY, values.wordpress_secret_key];
    for (const answer of [saved.body, read.body]) {
      for (const secret of secrets) expect(answer).not.toContain(secret);
    }
    const row = (await rawRow(admin.user.company_id!))!;
    const sealed = [
      row.whatsapp_api_key_enc,
      row.whatsapp_app_secret_enc,
      row.openai_api_key_enc,
      row.wordpress_secret_key_enc,
    ];
    expect(JSON.stringify(row)).not.toMatch(
      new RegExp(secrets.map((s) => s.replace(/[-]/g, '\\-')).join('|')),
    );
    sealed.forEach((value, i) => {
      expect(value).toMatch(/^v1:/);
      expect(ctx.container.secrets.decrypt(value!)).toBe(secrets[i]);
    });
    // The key is found by its SHA-256; the verify token and key are kept as they are (shown to the admin).
    expect(row.wordpress_api_key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.hub_verify_token).toBe(values.hub_verify_token);
  });

  it('keep, replace and clear a secret; posting back what GET answered changes nothing', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const companyId = admin.user.company_id!;
    await call(admin, 'POST', '/admin/setting', fullSettings());
    const before = (await rawRow(companyId))!;

    // Left out, null and '' all keep the stored secret (and the other fields).
    for (const body of [{}, { openaiApiKey: null }, { openaiApiKey: '', whatsAppApiKey: '  ' }]) {
      const res = await call(admin, 'POST', '/admin/setting', body);
      expect(res.statusCode).toBe(200);
      const row = (await rawRow(companyId))!;
      expect(row.openai_api_key_enc).toBe(before.openai_api_key_enc);
      expect(row.whatsapp_api_key_enc).toBe(before.whatsapp_api_key_enc);
      expect(row.whatsapp_phone_id).toBe(before.whatsapp_phone_id);
    }
    const got = (await call(admin, 'GET', '/admin/setting')).json();
    const echoed = await call(admin, 'POST', '/admin/setting', got);
    expect(echoed.statusCode).toBe(200);
    const afterEcho = (await rawRow(companyId))!;
    expect({ ...afterEcho, updated_at: null }).toEqual({ ...before, updated_at: null });

    // A value replaces it.
    const replaced = await call(admin, 'POST', '/admin/setting', {
      openaiApiKey: 'sk-replaced-key-0000WXYZ',
    });
    expect(replaced.json().data.secrets.openaiApiKey).toEqual({ stored: true, last4: 'WXYZ' });
    const row = (await rawRow(companyId))!;
    expect(ctx.container.secrets.decrypt(row.openai_api_key_enc!)).toBe('sk-replaced-key-0000WXYZ');

    // Naming it in `clear` removes it, and only it.
    const cleared = await call(admin, 'POST', '/admin/setting', {
      clear: ['openaiApiKey', 'whatsAppAppSecret'],
    });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().data.secrets).toMatchObject({
      openaiApiKey: { stored: false, last4: null },
      whatsAppAppSecret: { stored: false, last4: null },
      whatsAppApiKey: { stored: true },
    });
    const afterClear = (await rawRow(companyId))!;
    expect(afterClear.openai_api_key_enc).toBeNull();
    expect(afterClear.whatsapp_app_secret_enc).toBeNull();
    expect(afterClear.whatsapp_api_key_enc).toBe(before.whatsapp_api_key_enc);
  });

  it('a short secret shows no ending; an unreadable one says it is stored', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const res = await call(admin, 'POST', '/admin/setting', { openaiApiKey: 'short-key' });
    expect(res.json().data.secrets.openaiApiKey).toEqual({ stored: true, last4: null });
    // Sealed under another APP_KEY (the server's key changed): stored, but no ending to show.
    const foreign = createSecretBox(randomBytes(32)).encrypt('sk-under-another-key-1234');
    await ctx.container.db
      .updateTable('settings')
      .set({ openai_api_key_enc: foreign })
      .where('company_id', '=', admin.user.company_id!)
      .execute();
    const read = await call(admin, 'GET', '/admin/setting');
    expect(read.statusCode).toBe(200);
    expect(read.json().secrets.openaiApiKey).toEqual({ stored: true, last4: null });
    const test = await call(admin, 'POST', '/admin/setting/test/openai', { openaiModel: 'gpt-4o-mini' });
    expect(test.json()).toMatchObject({ success: false, problem: 'secret_unreadable' });
    expect(test.json().message).toContain('clave API de OpenAI');
  });

  it('plain fields: null or blank clear them; the URLs go back to their defaults', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const values = fullSettings();
    await call(admin, 'POST', '/admin/setting', values);
    const res = await call(admin, 'POST', '/admin/setting', {
      whatsAppPhoneId: null,
      openaiModel: '',
      hub_verify_token: null,
      wordpress_api_key: '',
      facebookMessagesApiUrl: '',
      openaiChatEndpoint: null,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      whatsAppPhoneId: null,
      openaiModel: null,
      hub_verify_token: null,
      wordpress_api_key: null,
      facebookMessagesApiUrl: DEFAULT_FACEBOOK_MESSAGES_API_URL,
      openaiChatEndpoint: DEFAULT_OPENAI_CHAT_ENDPOINT,
      whatsAppBusinessAccountId: values.whatsAppBusinessAccountId,
    });
    expect((await rawRow(admin.user.company_id!))!.wordpress_api_key_hash).toBeNull();
  });

  it('422 with field messages, in the caller language', async () => {
    const admin = cast.admin;
    const bad = {
      facebookMessagesApiUrl: 'ftp://graph.example.test',
      openaiChatEndpoint: 'javascript:alert(1)',
      whatsAppPhoneId: '../me',
      hub_verify_token: 'too-short',
      wordpress_api_key: 'HB-short',
      openaiModel: 'gpt 4',
    };
    const es = await call(admin, 'POST', '/admin/setting', bad);
    expect(es.statusCode).toBe(422);
    expect(es.json().errors).toEqual({
      facebookMessagesApiUrl: [
        'El campo URL de la API de mensajes debe ser una dirección web que empiece por http:// o https://.',
      ],
      openaiChatEndpoint: [
        'El campo endpoint de chat debe ser una dirección web que empiece por http:// o https://.',
      ],
      whatsAppPhoneId: [
        'El campo ID del número de teléfono solo puede contener dígitos (el identificador que muestra Meta).',
      ],
      hub_verify_token: [
        'El token de verificación debe tener 32 caracteres (letras, números, - y _). Usa el botón Generar.',
      ],
      wordpress_api_key: [
        'El campo clave API de WordPress debe tener 64 caracteres y empezar por HB-. Usa el botón Generar.',
      ],
      openaiModel: [
        'El nombre del modelo solo puede contener letras, números y los signos . _ : / @ + - (sin espacios).',
      ],
    });
    const en = await call(
      admin,
      'POST',
      '/admin/setting',
      { facebookMessagesApiUrl: 'nope' },
      { 'accept-language': 'en' },
    );
    expect(en.json().errors.facebookMessagesApiUrl).toEqual([
      'The messages API URL field must be a web address starting with http:// or https://.',
    ]);
    const both = await call(admin, 'POST', '/admin/setting', {
      clear: ['openaiApiKey'],
      openaiApiKey: 'sk-new-value-1234',
    });
    expect(both.statusCode).toBe(422);
    expect(both.json().errors.openaiApiKey).toEqual([
      'No puedes reemplazar y borrar el campo clave API de OpenAI a la vez.',
    ]);
    const spaced = await call(admin, 'POST', '/admin/setting', { whatsAppApiKey: 'two words' });
    expect(spaced.json().errors.whatsAppApiKey).toEqual([
      'El campo token de acceso de WhatsApp no puede contener espacios ni caracteres de control.',
    ]);
  });

  it('generated keys: shapes, alphabet, never twice the same', async () => {
    const seen = new Set<string>();
    const chars = new Set<string>();
    for (let i = 0; i < 60; i++) {
      for (const field of ['hub_verify_token', 'wordpress_api_key', 'wordpress_secret_key'] as const) {
        const res = await call(cast.admin, 'POST', '/admin/setting/generate', { field });
        expect(res.statusCode).toBe(200);
        const { value } = res.json();
        expect(res.json().field).toBe(field);
        if (field === 'hub_verify_token') {
          expect(value).toHaveLength(32);
          expect(value).toMatch(HUB_VERIFY_TOKEN_PATTERN);
        } else {
          expect(value).toHaveLength(64);
          expect(value.startsWith('HB-')).toBe(true);
          expect(value).toMatch(WORDPRESS_KEY_PATTERN);
        }
        expect(seen.has(value)).toBe(false);
        seen.add(value);
        for (const c of field === 'hub_verify_token' ? value : value.slice(3)) chars.add(c);
      }
    }
    // 60 × (32 + 61 + 61) draws: every character of the alphabet shows up.
    expect([...chars].sort().join('')).toBe([...GENERATED_KEY_ALPHABET].sort().join(''));
    // A generated value is not saved until the form is.
    expect((await call(cast.admin, 'GET', '/admin/setting')).json().hub_verify_token).not.toBe([...seen][0]);
    const unknown = await call(cast.admin, 'POST', '/admin/setting/generate', { field: 'openaiApiKey' });
    expect(unknown.statusCode).toBe(422);
  });

  it('the hub verify token and the WordPress key are unique across companies (409 on the field)', async () => {
    const a = await createUser(ctx, { role: 'admin' });
    const b = await createUser(ctx, { role: 'admin' });
    const token = hubToken();
    const key = wpKey();
    expect(
      (await call(a, 'POST', '/admin/setting', { hub_verify_token: token, wordpress_api_key: key }))
        .statusCode,
    ).toBe(200);
    // Saving the same values again in the same company is fine.
    expect((await call(a, 'POST', '/admin/setting', { hub_verify_token: token })).statusCode).toBe(200);
    const clash = await call(b, 'POST', '/admin/setting', { hub_verify_token: token });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({
      message: 'Otra compañía ya usa este token de verificación. Genera uno nuevo.',
      errors: { hub_verify_token: ['Otra compañía ya usa este token de verificación. Genera uno nuevo.'] },
    });
    const keyClash = await call(b, 'POST', '/admin/setting', { wordpress_api_key: key });
    expect(keyClash.statusCode).toBe(409);
    expect(keyClash.json().errors.wordpress_api_key).toEqual([
      'Esta clave API de WordPress ya está en uso. Genera una nueva.',
    ]);
    expect(await rawRow(b.user.company_id!)).toBeUndefined();
    expect(await ctx.container.settingsRepository.findCompanyIdByHubVerifyToken(token)).toBe(
      a.user.company_id,
    );
  });

  it("a WhatsApp number and business account belong to one company: another company's save is a 409 on the field, never an overwrite", async () => {
    const owner = await createUser(ctx, { role: 'admin' });
    const other = await createUser(ctx, { role: 'admin' });
    const phoneId = graphId();
    const accountId = graphId();
    const mine = { whatsAppPhoneId: phoneId, whatsAppBusinessAccountId: accountId };
    expect((await call(owner, 'POST', '/admin/setting', mine)).statusCode).toBe(200);
    // The owner saves them again freely.
    expect((await call(owner, 'POST', '/admin/setting', mine)).statusCode).toBe(200);

    const phoneClash = await call(other, 'POST', '/admin/setting', {
      whatsAppPhoneId: phoneId,
      openaiModel: 'x',
    });
    expect(phoneClash.statusCode).toBe(409);
    const phoneText =
      'Otra compañía ya usa este ID del número de teléfono: un número de WhatsApp pertenece a una sola compañía. Revisa el ID o contacta con soporte.';
    expect(phoneClash.json()).toEqual({ message: phoneText, errors: { whatsAppPhoneId: [phoneText] } });
    const accountClash = await call(
      other,
      'POST',
      '/admin/setting',
      { whatsAppBusinessAccountId: accountId },
      { 'accept-language': 'en' },
    );
    expect(accountClash.statusCode).toBe(409);
    expect(accountClash.json().errors).toEqual({
      whatsAppBusinessAccountId: [
        'Another company already uses this WhatsApp Business account id: it belongs to one company only. Check the id or contact support.',
      ],
    });
    // Nothing of the refused saves was written; the owner's row is as it was.
    expect(await rawRow(other.user.company_id!)).toBeUndefined();
    expect(await rawRow(owner.user.company_id!)).toMatchObject({
      whatsapp_phone_id: phoneId,
      whatsapp_business_account_id: accountId,
    });

    // Once the owner lets the number go, another company may take it.
    await call(owner, 'POST', '/admin/setting', { whatsAppPhoneId: null });
    expect((await call(other, 'POST', '/admin/setting', { whatsAppPhoneId: phoneId })).statusCode).toBe(200);
  });

  it('two companies saving one WhatsApp number at once: one keeps it, the others get the 409, never a 500', async () => {
    const admins = await Promise.all([0, 1, 2, 3].map(() => createUser(ctx, { role: 'admin' })));
    const phoneId = graphId();
    const results = await Promise.all(
      admins.map((admin) => call(admin, 'POST', '/admin/setting', { whatsAppPhoneId: phoneId })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    for (const r of results.filter((r) => r.statusCode === 409))
      expect(Object.keys(r.json().errors)).toEqual(['whatsAppPhoneId']);
    const holders = await ctx.container.db
      .selectFrom('channels')
      .select('company_id')
      .where('phone_number_id', '=', phoneId)
      .execute();
    expect(holders).toHaveLength(1);
  });

  it('company isolation: one company never reads or changes another company settings', async () => {
    const a = await createUser(ctx, { role: 'admin' });
    const b = await createUser(ctx, { role: 'admin' });
    await call(a, 'POST', '/admin/setting', fullSettings());
    const readB = (await call(b, 'GET', '/admin/setting')).json();
    expect(readB.whatsAppPhoneId).toBeNull();
    expect(readB.secrets.openaiApiKey.stored).toBe(false);
    await call(b, 'POST', '/admin/setting', { openaiModel: 'llama3.1:8b', clear: ['openaiApiKey'] });
    const readA = (await call(a, 'GET', '/admin/setting')).json();
    expect(readA.openaiModel).toBe('gpt-4o-mini');
    expect(readA.secrets.openaiApiKey.stored).toBe(true);
    // A second admin of the same company shares its settings.
    const colleague = await createUser(ctx, { role: 'admin', companyId: a.user.company_id! });
    expect((await call(colleague, 'GET', '/admin/setting')).json().openaiModel).toBe('gpt-4o-mini');
  });

  it('two first saves at once make one row', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const results = await Promise.all(
      ['gpt-4o-mini', 'gpt-4.1-mini', 'gpt-5-mini'].map((openaiModel) =>
        call(admin, 'POST', '/admin/setting', { openaiModel }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const rows = await ctx.container.db
      .selectFrom('settings')
      .select('id')
      .where('company_id', '=', admin.user.company_id!)
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describe('settings in the OpenAPI document', () => {
  it('documents every route, the keep/replace/clear rule and the WordPress headers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/docs' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    for (const path of [
      '/api/v1/admin/setting',
      '/api/v1/admin/setting/generate',
      '/api/v1/admin/setting/test/whatsapp',
      '/api/v1/admin/setting/test/openai',
      '/api/v1/integrations/wordpress/ping',
      '/api/v1/integrations/wordpress/clients',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    expect(doc.paths['/api/v1/admin/setting'].post.description).toContain('{"clear":["openaiApiKey"]}');
    expect(doc.paths['/api/v1/integrations/wordpress/clients'].post.security).toEqual([
      { hablabotKey: [], hablabotSecret: [] },
    ]);
    expect(doc.components.securitySchemes.hablabotSecret).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'X-HablaBot-Secret',
    });
  });
});

describe(`settings with PUBLIC_URL (${engine})`, () => {
  let publicCtx: TestContext;
  beforeAll(async () => {
    publicCtx = await createTestContext({ publicUrl: 'https://hablabot.example.com/' });
  });
  afterAll(async () => {
    await publicCtx.close();
  });

  it('builds the webhook and WordPress addresses from PUBLIC_URL, whatever the request host', async () => {
    const admin = await createUser(publicCtx, { role: 'admin' });
    const res = await publicCtx.app.inject({
      method: 'GET',
      url: '/api/v1/admin/setting',
      headers: { ...admin.headers, host: 'internal:3000' },
    });
    expect(res.json()).toMatchObject({
      webhook_url: 'https://hablabot.example.com/api/v1/webhooks/whatsapp',
      wordpress_url: 'https://hablabot.example.com/api/v1/integrations/wordpress/clients',
    });
  });
});
