import { OPENAI_MODELS } from '@hablabot/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../../lib/i18n';
import {
  expectNoSeriousA11yViolations,
  mockFetch,
  renderFeature,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import SettingsPage from './SettingsPage';
import { makeSettings } from './test-support';

const GET = 'GET /api/v1/admin/setting';
const SAVE = 'POST /api/v1/admin/setting';

function renderPage() {
  return renderFeature([{ path: '/admin/setting', element: <SettingsPage /> }], '/admin/setting');
}

async function ready() {
  return screen.findByRole('form', { name: 'Configuraciones' });
}

function section(name: string) {
  return screen.getByRole('region', { name });
}

beforeEach(async () => {
  await setupTestI18n('es');
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('SettingsPage', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it("shows 'Configuraciones' with the language, WhatsApp, WordPress and OpenAI sections and 'Actualizar'", async () => {
    mockFetch({ [GET]: [200, makeSettings()] });
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Configuraciones' })).toBeVisible();
    await ready();
    for (const name of ['Idioma del sistema', 'WhatsApp', 'WordPress', 'OpenAI']) {
      expect(screen.getByRole('region', { name })).toBeVisible();
    }
    expect(screen.getByRole('button', { name: 'Actualizar' })).toBeVisible();
    const whatsapp = section('WhatsApp');
    expect(within(whatsapp).getByLabelText('ID del número de teléfono')).toHaveValue('106540352242922');
    // A stored secret is never in a field: the hint says it is stored and how it ends.
    const token = within(whatsapp).getByLabelText('Token de acceso');
    expect(token).toHaveValue('');
    expect(token).toHaveAttribute('type', 'password');
    expect(token).toHaveAccessibleDescription('Guardada: termina en WXYZ. Déjala vacía para conservarla.');
    expect(within(whatsapp).getByLabelText('Clave secreta de la app')).toHaveAccessibleDescription(
      'Obligatoria para recibir mensajes: comprueba que los avisos del webhook vienen de Meta.',
    );
    expect(within(whatsapp).getByLabelText('URL de devolución de llamada')).toHaveValue(
      'https://chat.example.com/api/v1/webhooks/whatsapp',
    );
    expect(within(whatsapp).getByLabelText('Token de verificación')).toHaveValue(
      'abcdefghijklmnopqrstuvwxyz012345',
    );
    // The product's model list is offered, with the note that those models are retired.
    const model = within(section('OpenAI')).getByLabelText(/^Modelo/);
    expect(model).toHaveValue('gpt-4');
    expect(
      within(model)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Sin modelo', ...OPENAI_MODELS, 'Otro modelo (escribir el nombre)']);
    await expectNoSeriousA11yViolations();
  });

  it('saves: untouched secrets are not sent, a typed one is; the feedback shows for 5 s', async () => {
    const api = mockFetch({
      [GET]: [200, makeSettings()],
      [SAVE]: [
        200,
        {
          message: 'Configuración actualizada con éxito.',
          data: makeSettings({
            secrets: { ...makeSettings().secrets, openaiApiKey: { stored: true, last4: 'NEW1' } },
          }),
        },
      ],
    });
    renderPage();
    await ready();
    const user = userEvent.setup();
    const openai = section('OpenAI');
    await user.type(within(openai).getByLabelText('Clave API'), 'sk-brand-new-key-NEW1');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByRole('button', { name: 'Actualizar' }));
    expect(await screen.findByText('Configuración actualizada con éxito.')).toBeVisible();
    const body = api.calls.find((c) => c.method === 'POST')!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      openaiApiKey: 'sk-brand-new-key-NEW1',
      whatsAppPhoneId: '106540352242922',
      openaiModel: 'gpt-4',
      clear: [],
    });
    for (const untouched of ['whatsAppApiKey', 'whatsAppAppSecret', 'wordpress_secret_key']) {
      expect(body).not.toHaveProperty(untouched);
    }
    // The typed secret leaves the field; the hint shows the new ending.
    const key = within(openai).getByLabelText('Clave API');
    expect(key).toHaveValue('');
    expect(key).toHaveAccessibleDescription('Guardada: termina en NEW1. Déjala vacía para conservarla.');
    await act(async () => {
      vi.advanceTimersByTime(4900);
    });
    expect(screen.getByText('Configuración actualizada con éxito.')).toBeVisible();
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByText('Configuración actualizada con éxito.')).toBeNull();
  });

  it("'Borrar' asks to remove a stored secret on save; 'Deshacer' takes it back", async () => {
    const api = mockFetch({
      [GET]: [200, makeSettings()],
      [SAVE]: [200, { message: 'ok', data: makeSettings() }],
    });
    renderPage();
    await ready();
    const user = userEvent.setup();
    const openai = section('OpenAI');
    await user.click(within(openai).getByRole('button', { name: 'Borrar' }));
    const key = within(openai).getByLabelText('Clave API');
    expect(key).toBeDisabled();
    expect(key).toHaveAccessibleDescription('Se borrará al pulsar Actualizar.');
    await user.click(within(openai).getByRole('button', { name: 'Deshacer' }));
    expect(key).toBeEnabled();
    await user.click(within(openai).getByRole('button', { name: 'Borrar' }));
    await user.click(screen.getByRole('button', { name: 'Actualizar' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST')).toBe(true));
    expect(api.calls.find((c) => c.method === 'POST')!.body).toMatchObject({ clear: ['openaiApiKey'] });
    // A secret that is not stored has nothing to remove.
    expect(within(section('WhatsApp')).getAllByRole('button', { name: 'Borrar' })).toHaveLength(1);
  });

  it("422: the messages are listed under 'Por favor corrige los siguientes errores:' and on the fields", async () => {
    mockFetch({
      [GET]: [200, makeSettings()],
      [SAVE]: [
        422,
        {
          message: 'Otra cosa',
          errors: {
            whatsAppPhoneId: ['El campo ID del número de teléfono solo puede contener dígitos.'],
            openaiChatEndpoint: ['El endpoint no responde como se espera.'],
          },
        },
      ],
    });
    renderPage();
    await ready();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Actualizar' }));
    const list = await screen.findByText('Por favor corrige los siguientes errores:');
    const alert = list.closest('[role="alert"]') as HTMLElement;
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'El campo ID del número de teléfono solo puede contener dígitos.',
      'El endpoint no responde como se espera.',
    ]);
    const phoneId = within(section('WhatsApp')).getByLabelText('ID del número de teléfono');
    expect(phoneId).toHaveAccessibleDescription(
      'El campo ID del número de teléfono solo puede contener dígitos.',
    );
    expect(phoneId).toHaveFocus();
  });

  it('409: a WhatsApp number another company holds is named on its field and in the message', async () => {
    const taken =
      'Otra compañía ya usa este ID del número de teléfono: un número de WhatsApp pertenece a una sola compañía. Revisa el ID o contacta con soporte.';
    mockFetch({
      [GET]: [200, makeSettings()],
      [SAVE]: [409, { message: taken, errors: { whatsAppPhoneId: [taken] } }],
    });
    renderPage();
    await ready();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Actualizar' }));
    const phoneId = within(section('WhatsApp')).getByLabelText('ID del número de teléfono');
    await waitFor(() => expect(phoneId).toHaveAccessibleDescription(taken));
    expect(phoneId).toHaveFocus();
    expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes(taken))).toBe(true);
  });

  it("other failures: the server message, else 'Ha ocurrido un error al actualizar'", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = mockFetch({
      [GET]: [200, makeSettings()],
      [SAVE]: [403, { message: 'No tienes permiso para realizar esta acción.' }],
    });
    renderPage();
    await ready();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Actualizar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Error: No tienes permiso para realizar esta acción.',
    );
    api.set(SAVE, () => Promise.reject(new TypeError('Failed to fetch')));
    await user.click(screen.getByRole('button', { name: 'Actualizar' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Error: Ha ocurrido un error al actualizar'),
    );
  });

  it('checks the fields before sending: an address that is not http(s) is refused on the field', async () => {
    const api = mockFetch({ [GET]: [200, makeSettings()] });
    renderPage();
    await ready();
    const user = userEvent.setup();
    const url = within(section('WhatsApp')).getByLabelText('URL de la API de mensajes');
    await user.clear(url);
    await user.type(url, 'ftp://graph.example');
    await user.click(screen.getByRole('button', { name: 'Actualizar' }));
    expect(
      await screen.findByText(
        'El campo URL de la API de mensajes debe ser una dirección web que empiece por http:// o https://.',
      ),
    ).toBeVisible();
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('generate buttons fill the field from the server; copy buttons copy it', async () => {
    const hub = 'ZYXWVUTSRQPONMLKJIHGFEDCBA-_9876';
    const secret = `HB-${'s'.repeat(61)}`;
    const api = mockFetch({
      [GET]: [200, makeSettings({ hub_verify_token: null })],
      'POST /api/v1/admin/setting/generate': (call) => {
        const field = (call.body as { field: string }).field;
        return new Response(JSON.stringify({ field, value: field === 'hub_verify_token' ? hub : secret }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      },
    });
    renderPage();
    await ready();
    // user-event puts a clipboard of its own in place: read what was copied from it.
    const user = userEvent.setup();
    const copied = () => navigator.clipboard.readText();
    const whatsapp = section('WhatsApp');
    expect(within(whatsapp).getByRole('button', { name: 'Copiar token de verificación' })).toBeDisabled();
    await user.click(within(whatsapp).getByRole('button', { name: 'Generar token de verificación' }));
    await waitFor(() => expect(within(whatsapp).getByLabelText('Token de verificación')).toHaveValue(hub));
    expect(api.calls.find((c) => c.url === '/api/v1/admin/setting/generate')!.body).toEqual({
      field: 'hub_verify_token',
    });
    await user.click(within(whatsapp).getByRole('button', { name: 'Copiar token de verificación' }));
    expect(await copied()).toBe(hub);
    expect(within(whatsapp).getByRole('button', { name: 'Copiar token de verificación' })).toHaveTextContent(
      'Copiado',
    );
    await user.click(within(whatsapp).getByRole('button', { name: 'Copiar URL de devolución de llamada' }));
    expect(await copied()).toBe('https://chat.example.com/api/v1/webhooks/whatsapp');

    // A generated WordPress secret is shown (it must be copied now) and says so.
    const wordpress = section('WordPress');
    await user.click(within(wordpress).getByRole('button', { name: 'Generar clave secreta de WordPress' }));
    const field = within(wordpress).getByLabelText('Clave secreta');
    await waitFor(() => expect(field).toHaveValue(secret));
    expect(field).toHaveAttribute('type', 'text');
    expect(field).toHaveAccessibleDescription(
      'Cópiala ahora y pégala en WordPress: una vez guardada no se vuelve a mostrar.',
    );
    await user.click(within(wordpress).getByRole('button', { name: 'Copiar clave secreta de WordPress' }));
    expect(await copied()).toBe(secret);
  });

  it('"Probar conexión" sends the typed values and shows the outcome in plain words', async () => {
    const api = mockFetch({
      [GET]: [200, makeSettings()],
      'POST /api/v1/admin/setting/test/whatsapp': [
        200,
        {
          success: true,
          problem: null,
          message: 'Conexión correcta con WhatsApp: Tienda Demo (+34 600 11 22 33), calidad alta (verde).',
        },
      ],
      'POST /api/v1/admin/setting/test/openai': [
        200,
        {
          success: false,
          problem: 'unknown_model',
          message:
            'El proveedor no reconoce el modelo «gpt-4»: no existe, está retirado o tu clave no tiene acceso.',
        },
      ],
    });
    renderPage();
    await ready();
    const user = userEvent.setup();
    const whatsapp = section('WhatsApp');
    await user.type(within(whatsapp).getByLabelText('Token de acceso'), 'EAAG-typed');
    await user.click(within(whatsapp).getByRole('button', { name: 'Probar conexión con WhatsApp' }));
    expect(
      await within(whatsapp).findByText(
        'Conexión correcta con WhatsApp: Tienda Demo (+34 600 11 22 33), calidad alta (verde).',
      ),
    ).toBeVisible();
    expect(api.calls.find((c) => c.url.endsWith('/test/whatsapp'))!.body).toEqual({
      whatsAppApiKey: 'EAAG-typed',
      whatsAppPhoneId: '106540352242922',
      facebookMessagesApiUrl: 'https://graph.facebook.com/v23.0',
    });

    const openai = section('OpenAI');
    await user.click(within(openai).getByRole('button', { name: 'Probar conexión con OpenAI' }));
    expect(await within(openai).findByText(/no reconoce el modelo «gpt-4»: no existe/)).toBeVisible();
    // The model field says it too.
    expect(within(openai).getByRole('alert')).toHaveTextContent(
      'El proveedor no reconoce el modelo «gpt-4». Elige otro modelo o escribe su nombre.',
    );
  });

  it('any model name can be typed after choosing "Otro modelo"; a stored unlisted model shows as typed', async () => {
    const api = mockFetch({
      [GET]: [200, makeSettings({ openaiModel: 'gpt-4' })],
      [SAVE]: [200, { message: 'ok', data: makeSettings({ openaiModel: 'gpt-4o-mini' }) }],
    });
    renderPage();
    await ready();
    const user = userEvent.setup();
    const openai = section('OpenAI');
    await user.selectOptions(within(openai).getByLabelText(/^Modelo/), 'Otro modelo (escribir el nombre)');
    const custom = within(openai).getByLabelText('Nombre del modelo');
    await waitFor(() => expect(custom).toHaveFocus());
    expect(custom).toHaveValue('');
    await user.type(custom, 'gpt-4o-mini');
    await user.click(screen.getByRole('button', { name: 'Actualizar' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST')).toBe(true));
    expect(api.calls.find((c) => c.method === 'POST')!.body).toMatchObject({ openaiModel: 'gpt-4o-mini' });
    // After the save the unlisted model stays in the typed field.
    await waitFor(() =>
      expect(within(openai).getByLabelText('Nombre del modelo')).toHaveValue('gpt-4o-mini'),
    );
    expect(within(openai).getByLabelText(/^Modelo/)).toHaveValue('__custom__');
  });

  it('the language selector changes the account language like the switcher', async () => {
    const api = mockFetch({
      [GET]: [200, makeSettings()],
      'POST /api/v1/language/set': [200, { success: true, message: 'Language updated successfully.' }],
    });
    sessionStorage.setItem('token', 'hb_test');
    renderPage();
    await ready();
    const user = userEvent.setup();
    await user.selectOptions(
      within(section('Idioma del sistema')).getByRole('combobox', { name: 'Idioma' }),
      'English',
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    expect(screen.getByTestId('settings-language-feedback')).toHaveTextContent(
      'Language updated successfully.',
    );
    expect(api.calls.find((c) => c.url === '/api/v1/language/set')!.body).toEqual({ language: 'en' });
    expect(localStorage.getItem('language')).toBe('en');
    expect(screen.getByRole('button', { name: 'Update' })).toBeVisible();
    expect(within(section('WhatsApp')).getByLabelText('Access token')).toHaveAccessibleDescription(
      'Stored: ends in WXYZ. Leave it empty to keep it.',
    );
    await act(async () => {
      await i18next.changeLanguage('es');
    });
  });

  it('a settings screen that could not load offers to try again instead of an empty form', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = mockFetch({ [GET]: [500, { message: 'Ocurrió un error interno' }] });
    renderPage();
    expect(await screen.findByText('No se pudo cargar la configuración.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Actualizar' })).toBeNull();
    api.set(GET, [200, makeSettings()]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reintentar' }));
    await ready();
  });
});
