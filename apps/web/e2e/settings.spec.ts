import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import {
  type FakeGraphApi,
  type FakeOpenAi,
  startFakeGraphApi,
  startFakeOpenAi,
} from '../../../packages/fakes/src/index';
import { adminPerWorker, api, apiRaw, openSession, type Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { flowCases } from './support/matrix';

// /admin/setting end to end against the real server: save and read the feedback, the generate and
// copy buttons, the WordPress keys working for real, and "Probar conexión" against the loopback fakes of
// the WhatsApp Cloud API and an OpenAI-compatible server. At 1280px and 375px, in Spanish and English.

const screenshots = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../artifacts/screenshots',
);
/**
 * One admin with a company of its own per worker: settings are per company, so parallel workers never
 * see each other's.
 */
const companyAdmin = adminPerWorker({ key: 'settings', name: 'Sara Ajustes', company: 'Ajustes' });

async function signIn(page: Page, language: 'es' | 'en'): Promise<Session> {
  const admin = await companyAdmin();
  await openSession(page, admin, language);
  return admin;
}

const TEXTS = {
  es: {
    title: 'Configuraciones',
    update: 'Actualizar',
    updated: 'Configuración actualizada con éxito.',
    token: 'Token de acceso',
    phoneId: 'ID del número de teléfono',
    apiUrl: 'URL de la API de mensajes',
    verifyToken: 'Token de verificación',
    generateVerify: 'Generar token de verificación',
    copyVerify: 'Copiar token de verificación',
    generateKey: 'Generar clave API de WordPress',
    generateSecret: 'Generar clave secreta de WordPress',
    secret: 'Clave secreta',
    apiKey: 'Clave API',
    model: /^Modelo/,
    customModel: 'Nombre del modelo',
    other: 'Otro modelo (escribir el nombre)',
    endpoint: 'Endpoint de chat',
    testWhatsApp: 'Probar conexión con WhatsApp',
    testOpenAi: 'Probar conexión con OpenAI',
    stored: (last4: string) => `Guardada: termina en ${last4}. Déjala vacía para conservarla.`,
    whatsAppOk: 'Conexión correcta con WhatsApp: Tienda Demo (+34 600 11 22 33), calidad alta (verde).',
    openAiOk: 'Conexión correcta con OpenAI: el modelo gpt-4o-mini respondió.',
    badToken: 'WhatsApp rechazó el token de acceso',
    unknownModel: 'El proveedor no reconoce el modelo «gpt-4». Elige otro modelo o escribe su nombre.',
  },
  en: {
    title: 'Settings',
    update: 'Update',
    updated: 'Settings updated successfully.',
    token: 'Access token',
    phoneId: 'Phone number id',
    apiUrl: 'Messages API URL',
    verifyToken: 'Verify token',
    generateVerify: 'Generate verify token',
    copyVerify: 'Copy verify token',
    generateKey: 'Generate WordPress API key',
    generateSecret: 'Generate WordPress secret key',
    secret: 'Secret key',
    apiKey: 'API key',
    model: /^Model/,
    customModel: 'Model name',
    other: 'Another model (type its name)',
    endpoint: 'Chat endpoint',
    testWhatsApp: 'Test connection with WhatsApp',
    testOpenAi: 'Test connection with OpenAI',
    stored: (last4: string) => `Stored: ends in ${last4}. Leave it empty to keep it.`,
    whatsAppOk: 'Connected to WhatsApp: Tienda Demo (+34 600 11 22 33), quality high (green).',
    openAiOk: 'Connected to OpenAI: the model gpt-4o-mini answered.',
    badToken: 'WhatsApp refused the access token',
    unknownModel: 'The provider does not know the model “gpt-4”. Choose another model or type its name.',
  },
} as const;

const WA_TOKEN = 'EAAG-e2e-token-0001-AbCd';
const OPENAI_KEY = 'sk-e2e-openai-key-0001-WxYz';
const PHONE_ID = '106540352242922';
/**
 * A phone number id belongs to one company, and each worker signs in as a company of its own: every save
 * test gives its own id, so two workers never claim the same number (409).
 */
const SAVED_PHONE_IDS = {
  '1280-es': '106540352242931',
  '375-en': '106540352242932',
  '1280-en': '106540352242933',
  '375-es': '106540352242934',
} as const;

let graph: FakeGraphApi;
let openai: FakeOpenAi;

test.beforeAll(async () => {
  graph = await startFakeGraphApi({
    tokens: [WA_TOKEN],
    phoneNumbers: [PHONE_ID, ...Object.values(SAVED_PHONE_IDS)].map((id) => ({
      id,
      display_phone_number: '+34 600 11 22 33',
      verified_name: 'Tienda Demo',
      quality_rating: 'GREEN',
    })),
  });
  openai = await startFakeOpenAi({ apiKeys: [OPENAI_KEY] });
});
test.afterAll(async () => {
  await Promise.all([graph?.close(), openai?.close()]);
});

for (const [width, language] of flowCases([
  [1280, 'es'],
  [375, 'en'],
  [1280, 'en'],
  [375, 'es'],
] as const)) {
  test.describe(`${width}px ${language}`, () => {
    // axe is injected as an inline script.
    test.use({ viewport: { width, height: width > 400 ? 900 : 780 }, bypassCSP: true });
    const x = TEXTS[language];
    const savedPhoneId = SAVED_PHONE_IDS[`${width}-${language}`];

    test('save the settings, read the feedback; secrets stay on the server', async ({ page }) => {
      // A long flow (sign-in, two saves, reloads, an accessibility scan): three times the usual time.
      test.slow();
      const admin = await signIn(page, language);
      await page.goto('/admin/setting');
      await expect(page.getByRole('heading', { level: 1, name: x.title })).toBeVisible();
      const whatsapp = page.getByRole('region', { name: 'WhatsApp' });
      const openAi = page.getByRole('region', { name: 'OpenAI' });
      await whatsapp.getByLabel(x.token, { exact: true }).fill(WA_TOKEN);
      await whatsapp.getByLabel(x.phoneId, { exact: true }).fill(savedPhoneId);
      await openAi.getByLabel(x.apiKey, { exact: true }).fill(OPENAI_KEY);
      await page.getByRole('button', { name: x.update }).click();
      await expect(page.getByText(x.updated)).toBeVisible();
      // The feedback goes after 5 seconds.
      await expect(page.getByText(x.updated)).toBeHidden({ timeout: 7_000 });

      await page.reload();
      const token = whatsapp.getByLabel(x.token, { exact: true });
      await expect(token).toHaveValue('');
      await expect(token).toHaveAccessibleDescription(x.stored(WA_TOKEN.slice(-4)));
      await expect(whatsapp.getByLabel(x.phoneId, { exact: true })).toHaveValue(savedPhoneId);
      const answer = await api<Record<string, unknown>>('GET', '/admin/setting', undefined, admin.token);
      expect(JSON.stringify(answer)).not.toContain(WA_TOKEN);
      expect(JSON.stringify(answer)).not.toContain(OPENAI_KEY);

      // Nothing sticks out sideways, on a phone either.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({
        path: path.join(screenshots, `settings-${language}-${width}.png`),
        fullPage: true,
      });
    });
  });
}

test.describe('1280px es', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('generate and copy the keys; the WordPress site can then use them', async ({ page }) => {
    await signIn(page, 'es');
    const x = TEXTS.es;
    await page.goto('/admin/setting');
    const whatsapp = page.getByRole('region', { name: 'WhatsApp' });
    await whatsapp.getByRole('button', { name: x.generateVerify }).click();
    const verify = whatsapp.getByLabel(x.verifyToken, { exact: true });
    await expect(verify).toHaveValue(/^[A-Za-z0-9_-]{32}$/);
    const hubToken = await verify.inputValue();
    await whatsapp.getByRole('button', { name: x.copyVerify }).click();
    await expect(whatsapp.getByRole('button', { name: x.copyVerify })).toContainText('Copiado');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(hubToken);
    // A second press gives a new token.
    await whatsapp.getByRole('button', { name: x.generateVerify }).click();
    await expect(verify).not.toHaveValue(hubToken);

    const wordpress = page.getByRole('region', { name: 'WordPress' });
    await wordpress.getByRole('button', { name: x.generateKey }).click();
    await wordpress.getByRole('button', { name: x.generateSecret }).click();
    const key = wordpress.getByLabel(x.apiKey, { exact: true });
    const secretField = wordpress.getByLabel(x.secret, { exact: true });
    await expect(key).toHaveValue(/^HB-[A-Za-z0-9_-]{61}$/);
    await expect(secretField).toHaveValue(/^HB-[A-Za-z0-9_-]{61}$/);
    const wpKey = await key.inputValue();
    const wpSecret = await secretField.inputValue();
    await page.getByRole('button', { name: x.update }).click();
    await expect(page.getByText(x.updated)).toBeVisible();
    await expect(secretField).toHaveValue('');
    await expect(secretField).toHaveAccessibleDescription(x.stored(wpSecret.slice(-4)));

    // The saved keys open the WordPress connection; a wrong secret does not.
    const ping = await apiRaw<{ success: boolean }>(
      'GET',
      '/integrations/wordpress/ping',
      undefined,
      undefined,
      {
        'X-HablaBot-Key': wpKey,
        'X-HablaBot-Secret': wpSecret,
      },
    );
    expect(ping).toEqual({ status: 200, data: expect.objectContaining({ success: true }) });
    const wrong = await apiRaw('GET', '/integrations/wordpress/ping', undefined, undefined, {
      'X-HablaBot-Key': wpKey,
      // One character off (never the same one: a random secret may end in '0').
      'X-HablaBot-Secret': `${wpSecret.slice(0, -1)}${wpSecret.endsWith('0') ? '1' : '0'}`,
    });
    expect(wrong.status).toBe(401);
  });
});

for (const language of ['es', 'en'] as const) {
  test(`"Probar conexión" against the fakes (${language})`, async ({ page }) => {
    await signIn(page, language);
    const x = TEXTS[language];
    await page.goto('/admin/setting');
    const whatsapp = page.getByRole('region', { name: 'WhatsApp' });
    await whatsapp.getByLabel(x.apiUrl, { exact: true }).fill(graph.baseUrl);
    await whatsapp.getByLabel(x.phoneId, { exact: true }).fill(PHONE_ID);
    // A wrong token first, then the right one: each answer in plain words.
    await whatsapp.getByLabel(x.token, { exact: true }).fill('EAAG-wrong-token');
    await whatsapp.getByRole('button', { name: x.testWhatsApp }).click();
    await expect(whatsapp.getByRole('status').filter({ hasText: x.badToken })).toBeVisible();
    await whatsapp.getByLabel(x.token, { exact: true }).fill(WA_TOKEN);
    await whatsapp.getByRole('button', { name: x.testWhatsApp }).click();
    await expect(whatsapp.getByText(x.whatsAppOk)).toBeVisible();

    const openAi = page.getByRole('region', { name: 'OpenAI' });
    await openAi.getByLabel(x.endpoint, { exact: true }).fill(openai.endpoint);
    await openAi.getByLabel(x.apiKey, { exact: true }).fill(OPENAI_KEY);
    await openAi.getByLabel(x.model).selectOption('gpt-4');
    await openAi.getByRole('button', { name: x.testOpenAi }).click();
    await expect(openAi.getByRole('alert')).toHaveText(x.unknownModel);
    await openAi.getByLabel(x.model).selectOption(x.other);
    await openAi.getByLabel(x.customModel, { exact: true }).fill('gpt-4o-mini');
    await openAi.getByRole('button', { name: x.testOpenAi }).click();
    await expect(openAi.getByText(x.openAiOk)).toBeVisible();
    await page.screenshot({ path: path.join(screenshots, `settings-test-connection-${language}-1280.png`) });
  });
}
