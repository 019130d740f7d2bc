import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { png } from '../../server/test/media-fixtures';
import { adminPerWorker, api, apiBase, openSession, type Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { runsFlow } from './support/matrix';

// /admin/bots end to end against the real server: bots, the pause/resume confirmation, instructions with
// every validation message, "Probar bot", media from the library in an instruction; at 1280px and 375px,
// in Spanish and in English.

// Kept as CI artifacts (gitignored): artifacts/screenshots/bots-<moment>-<language>-<width>.png
const screenshots = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../artifacts/screenshots',
);

/** One admin with a company of its own per worker. */
const companyAdmin = adminPerWorker({ key: 'bots', name: 'Beatriz Bots', company: 'Bots' });

/** Signs the worker's admin in, with no bot left from an earlier test of this worker. */
async function signIn(page: Page, language: 'es' | 'en'): Promise<Session> {
  const admin = await companyAdmin();
  const { bots } = await api<{ bots: { id: number }[] }>('GET', '/admin/bot', undefined, admin.token);
  for (const bot of bots) await api('DELETE', `/admin/bot/${bot.id}`, undefined, admin.token);
  await openSession(page, admin, language);
  return admin;
}

interface UploadedMedia {
  id: number;
  file_name: string;
  file_path: string;
  url: string;
}

/** Puts a file in the company's library: POST /admin/media/upload, multipart field `file`. */
async function uploadMedia(token: string, name: string, type: string, bytes: Buffer): Promise<UploadedMedia> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const response = await fetch(`${apiBase()}/admin/media/upload`, {
    method: 'POST',
    headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
    body: form,
  });
  const data = (await response.json().catch(() => null)) as { media: UploadedMedia } | null;
  if (!response.ok || !data) throw new Error(`upload ${name} → ${response.status} ${JSON.stringify(data)}`);
  return data.media;
}

const uniqueTag = () => Math.random().toString(36).slice(2, 7);

const TEXTS = {
  es: {
    title: 'Bots e instrucciones',
    createBot: 'Crear bot',
    personality: 'Personalidad',
    botCreated: 'Bot creado con éxito.',
    active: 'Activo',
    inactive: 'Inactivo',
    live: 'En vivo',
    pause: (name: string) => `Pausar el bot ${name}`,
    resume: (name: string) => `Reanudar el bot ${name}`,
    pauseButton: 'Pausar',
    resumeButton: 'Reanudar',
    select: (name: string) => `Seleccionar el bot ${name}`,
    deleteBot: (name: string) => `Eliminar el bot ${name}`,
    deleteBotConfirm: '¿Estás seguro de que deseas eliminar este bot? Esta acción no se puede deshacer.',
    botDeleted: 'Bot eliminado con éxito.',
    deleteButton: 'Eliminar',
    cancel: 'Cancelar',
    createInstruction: 'Crear instrucción',
    editInstructionTitle: 'Editar instrucción',
    ask: 'Nombre de la instrucción',
    reply: 'Descripción',
    segments: 'Segmentos',
    save: 'Guardar cambios',
    askRequired: 'El nombre de la instrucción es obligatorio',
    askMin: 'El nombre debe tener al menos 3 caracteres',
    askMax: 'El nombre no puede exceder los 100 caracteres',
    replyRequired: 'La descripción de la instrucción es obligatoria',
    replyMax: 'La descripción no puede exceder los 1000 caracteres',
    segmentsRequired: 'Debe seleccionar al menos un segmento',
    banner: 'Por favor, corrija los errores antes de continuar',
    instructionCreated: 'Instrucción creada con éxito.',
    instructionUpdated: 'Instrucción actualizada con éxito.',
    instructionsTable: 'Instrucciones',
    editInstruction: (name: string) => `Editar la instrucción ${name}`,
    deleteInstruction: (name: string) => `Eliminar la instrucción ${name}`,
    deleteInstructionConfirm:
      '¿Estás seguro de que deseas eliminar esta instrucción? Esta acción no se puede deshacer.',
    instructionsDeleted: 'Instrucciones eliminadas con éxito.',
    test: 'Probar bot',
    testSegment: 'Segmento',
    testMessage: 'Mensaje del cliente',
    testSubmit: 'Probar',
    testNoSettings: 'No hay configuración de OpenAI: se muestra el prompt que se enviaría al modelo.',
    filter: 'Filtrar',
  },
  en: {
    title: 'Bots and instructions',
    createBot: 'Create bot',
    personality: 'Personality',
    botCreated: 'Bot created successfully.',
    active: 'Active',
    inactive: 'Inactive',
    live: 'Live',
    pause: (name: string) => `Pause the bot ${name}`,
    resume: (name: string) => `Resume the bot ${name}`,
    pauseButton: 'Pause',
    resumeButton: 'Resume',
    select: (name: string) => `Select the bot ${name}`,
    deleteBot: (name: string) => `Delete the bot ${name}`,
    deleteBotConfirm: 'Are you sure you want to delete this bot? This action cannot be undone.',
    botDeleted: 'Bot deleted successfully.',
    deleteButton: 'Delete',
    cancel: 'Cancel',
    createInstruction: 'Create instruction',
    editInstructionTitle: 'Edit instruction',
    ask: 'Instruction name',
    reply: 'Description',
    segments: 'Segments',
    save: 'Save changes',
    askRequired: 'The instruction name is required',
    askMin: 'The name must have at least 3 characters',
    askMax: 'The name cannot exceed 100 characters',
    replyRequired: 'The instruction description is required',
    replyMax: 'The description cannot exceed 1000 characters',
    segmentsRequired: 'You must select at least one segment',
    banner: 'Please correct the errors before continuing',
    instructionCreated: 'Instruction created successfully.',
    instructionUpdated: 'Instruction updated successfully.',
    instructionsTable: 'Instructions',
    editInstruction: (name: string) => `Edit the instruction ${name}`,
    deleteInstruction: (name: string) => `Delete the instruction ${name}`,
    deleteInstructionConfirm:
      'Are you sure you want to delete this instruction? This action cannot be undone.',
    instructionsDeleted: 'Instructions deleted successfully.',
    test: 'Test bot',
    testSegment: 'Segment',
    testMessage: 'Customer message',
    testSubmit: 'Test',
    testNoSettings: 'No OpenAI settings: showing the prompt that would be sent to the model.',
    filter: 'Filter',
  },
} as const;

for (const width of [1280, 375] as const) {
  for (const language of ['es', 'en'] as const) {
    if (!runsFlow(language, width)) continue;
    test.describe(`bots at ${width}px in ${language}`, () => {
      test.use({ viewport: { width, height: width > 600 ? 800 : 812 } });
      test.describe.configure({ timeout: 120_000 });

      test('create a bot, pause and resume it, write an instruction past every rule, edit, test and delete', async ({
        page,
      }) => {
        const T = TEXTS[language];
        const shot = (name: string) => path.join(screenshots, `bots-${name}-${language}-${width}.png`);
        const tag = uniqueTag();
        const botName = `Sofía ${tag}`;
        const segmentName = `VIP ${tag}`;
        const admin = await signIn(page, language);
        await api(
          'POST',
          '/admin/segment',
          { name: segmentName, color: '#1a73e8', rules: 'Creado por la prueba' },
          admin.token,
        );
        await page.goto('/admin/bots');
        await expect(page.getByRole('heading', { level: 1, name: T.title })).toBeVisible();

        // Create the bot; the modal closes by itself about 2 s after the save.
        await page.getByRole('button', { name: T.createBot, exact: true }).click();
        let dialog = page.getByRole('dialog', { name: T.createBot });
        await dialog.getByLabel('Bot Name').fill(botName);
        await dialog
          .getByLabel(T.personality)
          .fill('Eres Sofía, la asistente de Muebles Roble. Responde breve.');
        await dialog.getByRole('button', { name: T.createBot }).click();
        await expect(dialog.getByRole('status')).toHaveText(T.botCreated);
        await expect(dialog).toBeHidden({ timeout: 4000 });
        const card = page.locator('.bot-card', { hasText: botName });
        await expect(card.getByText(T.active, { exact: true })).toBeVisible();
        await expect(card.getByText(T.live, { exact: true })).toBeVisible();
        await expect(card.getByRole('checkbox', { name: T.select(botName) })).toBeChecked();

        // The two columns: side by side on a wide screen, stacked at 375px.
        const botsBox = (await page.getByRole('region', { name: 'Bots', exact: true }).boundingBox())!;
        // The instructions' section is named after the bot ('Instrucciones de …'), unlike its table's
        // scrolling region, which is named like the table alone.
        const instructionsRegion = page.getByRole('region', {
          name: new RegExp(`^${T.instructionsTable}.+`),
        });
        const instructionsBox = (await instructionsRegion.boundingBox())!;
        if (width > 768) {
          expect(instructionsBox.x).toBeGreaterThanOrEqual(botsBox.x + botsBox.width);
        } else {
          expect(instructionsBox.y).toBeGreaterThanOrEqual(botsBox.y + botsBox.height);
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        }

        // Pause, then resume, each after the confirmation.
        await card.getByRole('button', { name: T.pause(botName) }).click();
        let confirm = page.getByRole('alertdialog');
        await expect(confirm).toContainText('Are you sure you want to pause this bot?');
        await confirm.getByRole('button', { name: T.pauseButton, exact: true }).click();
        await expect(card.getByText(T.inactive, { exact: true })).toBeVisible();
        await expect(card.getByText(T.live, { exact: true })).toBeHidden();
        await card.getByRole('button', { name: T.resume(botName) }).click();
        confirm = page.getByRole('alertdialog');
        await expect(confirm).toContainText('Are you sure you want to resume this bot?');
        await confirm.getByRole('button', { name: T.resumeButton, exact: true }).click();
        await expect(card.getByText(T.active, { exact: true })).toBeVisible();
        await expect(card.getByText(T.live, { exact: true })).toBeVisible();

        // Create an instruction, meeting every rule's message once.
        await page.getByRole('button', { name: T.createInstruction }).click();
        dialog = page.getByRole('dialog', { name: T.createInstruction });
        const ask = dialog.getByLabel(T.ask);
        const reply = dialog.getByLabel(T.reply);
        await dialog.getByRole('button', { name: T.createInstruction }).click();
        await expect(dialog.getByText(T.askRequired)).toBeVisible();
        await expect(dialog.getByText(T.replyRequired)).toBeVisible();
        await expect(dialog.getByText(T.segmentsRequired)).toBeVisible();
        const banner = dialog.getByRole('alert').filter({ hasText: T.banner });
        await expect(banner).toHaveText(T.banner);
        await page.screenshot({ path: shot('instruction-errors') });
        await expect(banner).toBeHidden({ timeout: 5000 });

        await ask.fill('ab');
        await expect(dialog.getByText(T.askMin)).toBeVisible();
        await ask.fill('x'.repeat(100));
        await expect(dialog.getByText('100 / 100')).toBeVisible();
        await ask.press('y');
        await expect(ask).toHaveValue('x'.repeat(100));
        await expect(dialog.getByText(T.askMax)).toBeVisible();
        const askText = `Horario ${tag}`;
        await ask.fill(askText);
        await expect(dialog.getByText(T.askMax)).toBeHidden();

        await reply.fill('r'.repeat(1000));
        await expect(dialog.getByText('1000 / 1000')).toBeVisible();
        await reply.press('z');
        await expect(reply).toHaveValue('r'.repeat(1000));
        await expect(dialog.getByText(T.replyMax)).toBeVisible();
        await reply.fill('Atendemos de lunes a viernes de 9 a 18 h.');
        await expect(dialog.getByText(T.replyMax)).toBeHidden();

        await dialog.getByRole('combobox', { name: T.segments }).click();
        await page.getByRole('listbox').getByRole('option', { name: segmentName }).click();
        await page.keyboard.press('Escape');
        await expect(dialog.getByText(T.segmentsRequired)).toBeHidden();
        await dialog.getByRole('button', { name: T.createInstruction }).click();
        await expect(dialog.getByRole('status')).toHaveText(T.instructionCreated);
        await expect(dialog).toBeHidden({ timeout: 4000 });
        const table = page.getByRole('table', { name: T.instructionsTable });
        const row = table.getByRole('row', { name: new RegExp(askText) });
        await expect(row).toBeVisible();

        // Edit it from its row.
        await row.getByRole('button', { name: T.editInstruction(askText) }).click();
        dialog = page.getByRole('dialog', { name: T.editInstructionTitle });
        await expect(dialog.getByLabel(T.ask)).toHaveValue(askText);
        const edited = `Horario y festivos ${tag}`;
        await dialog.getByLabel(T.ask).fill(edited);
        await dialog.getByRole('button', { name: T.save }).click();
        await expect(dialog.getByRole('status')).toHaveText(T.instructionUpdated);
        await expect(dialog).toBeHidden({ timeout: 4000 });
        const editedRow = table.getByRole('row', { name: new RegExp(edited) });
        await expect(editedRow).toBeVisible();

        // "Probar bot": without OpenAI settings the panel shows the prompt, with the instruction in it.
        const panel = page.getByRole('region', { name: T.test });
        await panel.getByLabel(T.testSegment, { exact: true }).selectOption({ label: segmentName });
        await panel.getByLabel(T.testMessage).fill('¿Abren el sábado?');
        await panel.getByRole('button', { name: T.testSubmit, exact: true }).click();
        await expect(panel.getByText(T.testNoSettings)).toBeVisible();
        await expect(panel.getByText(`## ${edited}`)).toBeVisible();
        await page.screenshot({ path: shot('screen'), fullPage: true });

        // Delete the instruction after the confirmation.
        await editedRow.getByRole('button', { name: T.deleteInstruction(edited) }).click();
        confirm = page.getByRole('alertdialog');
        await expect(confirm).toContainText(T.deleteInstructionConfirm);
        await confirm.getByRole('button', { name: T.deleteButton }).click();
        await expect(page.getByRole('status').filter({ hasText: T.instructionsDeleted })).toBeVisible();
        await expect(editedRow).toBeHidden();

        // With no bot selected, creating an instruction asks for one.
        await card.getByRole('checkbox', { name: T.select(botName) }).uncheck();
        await page.getByRole('button', { name: T.createInstruction }).click();
        await expect(page.getByRole('alert').filter({ hasText: 'Please select a Bot' })).toHaveText(
          'Please select a Bot before creating an instruction.',
        );
        await expect(page.getByRole('dialog')).toBeHidden();

        // Delete the bot: cancel first, then confirm.
        await card.getByRole('button', { name: T.deleteBot(botName) }).click();
        confirm = page.getByRole('alertdialog');
        await expect(confirm).toContainText(T.deleteBotConfirm);
        await confirm.getByRole('button', { name: T.cancel }).click();
        await expect(card).toBeVisible();
        await card.getByRole('button', { name: T.deleteBot(botName) }).click();
        await page.getByRole('alertdialog').getByRole('button', { name: T.deleteButton }).click();
        const deleted = page.getByRole('status').filter({ hasText: T.botDeleted });
        await expect(deleted).toBeVisible();
        await expect(card).toBeHidden();
        await expect(deleted).toBeHidden({ timeout: 6000 });
      });
    });
  }
}

test('the first active bot is selected on load, and the live badge is on the lowest-id active bot', async ({
  page,
}) => {
  const tag = uniqueTag();
  const admin = await signIn(page, 'es');
  const created: number[] = [];
  for (const name of [`Uno ${tag}`, `Dos ${tag}`, `Tres ${tag}`]) {
    const { bot } = await api<{ bot: { id: number } }>(
      'POST',
      '/admin/bot',
      { bot_name: name, personality: 'p' },
      admin.token,
    );
    created.push(bot.id);
  }
  await api('POST', `/admin/bot/${created[0]}/toggle-bot-state`, { state: 0 }, admin.token);
  await page.goto('/admin/bots');
  const card = (name: string) => page.locator('.bot-card', { hasText: name });
  await expect(card(`Dos ${tag}`).getByRole('checkbox')).toBeChecked();
  await expect(card(`Uno ${tag}`).getByRole('checkbox')).not.toBeChecked();
  await expect(card(`Dos ${tag}`).getByText('En vivo')).toBeVisible();
  await expect(card(`Tres ${tag}`).getByText('En vivo')).toBeHidden();
  await expect(page.getByRole('heading', { name: `Instrucciones de Dos ${tag}` })).toBeVisible();
});

test("'Agregar media' puts a library file's /storage address on its own line, and refuses past 1000 characters for 3 s", async ({
  page,
}) => {
  const tag = uniqueTag();
  const admin = await signIn(page, 'es');
  await api('POST', '/admin/bot', { bot_name: `Media ${tag}`, personality: 'p' }, admin.token);
  const fileName = `sofa ${tag}.png`;
  const media = await uploadMedia(admin.token, fileName, 'image/png', png(32, 24));
  expect(new URL(media.url).pathname).toBe(`/storage/${media.file_path}`);

  await page.goto('/admin/bots');
  await expect(page.getByRole('heading', { name: `Instrucciones de Media ${tag}` })).toBeVisible();
  await page.getByRole('button', { name: 'Crear instrucción' }).click();
  const dialog = page.getByRole('dialog', { name: 'Crear instrucción' });
  const reply = dialog.getByLabel('Descripción');
  await reply.fill('Envía esta foto:');

  // Choose the file in the library picker: its address goes on a line of its own.
  await dialog.getByRole('button', { name: 'Agregar media' }).click();
  const picker = page.getByRole('dialog', { name: 'Biblioteca de medios' });
  await picker.getByRole('button', { name: `Elegir ${fileName}` }).click();
  await expect(picker).toBeHidden();
  await expect(reply).toHaveValue(`Envía esta foto:\n${media.url}`);
  // The address really serves the image.
  const served = await page.request.get(media.url);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toContain('image/png');

  // One character short of room for the address and its line break: refused, the text left alone.
  const full = 'x'.repeat(1000 - media.url.length);
  await reply.fill(full);
  await dialog.getByRole('button', { name: 'Agregar media' }).click();
  await picker.getByRole('button', { name: `Elegir ${fileName}` }).click();
  await expect(picker).toBeHidden();
  const refusal = dialog.getByRole('alert').filter({ hasText: 'No se puede agregar la imagen' });
  await expect(refusal).toHaveText('No se puede agregar la imagen: excedería el límite de 1000 caracteres');
  await expect(reply).toHaveValue(full);
  // It stays about 3 s, then goes by itself; the description is still unchanged.
  await page.waitForTimeout(2000);
  await expect(refusal).toBeVisible();
  await expect(refusal).toBeHidden({ timeout: 4000 });
  await expect(reply).toHaveValue(full);
  await expect(dialog.getByText(`${full.length} / 1000`)).toBeVisible();
});

test.describe('accessibility', () => {
  // axe is injected as an inline script, which the server's CSP forbids; only this test bypasses it.
  test.use({ bypassCSP: true });

  test('no serious accessibility violations on /admin/bots, nor in the instruction form', async ({
    page,
  }) => {
    const tag = uniqueTag();
    const admin = await signIn(page, 'es');
    const { segment } = await api<{ segment: { id: number } }>(
      'POST',
      '/admin/segment',
      { name: `A11y ${tag}`, color: '#7300ff', rules: 'r' },
      admin.token,
    );
    const { bot } = await api<{ bot: { id: number } }>(
      'POST',
      '/admin/bot',
      { bot_name: `Accesible ${tag}`, personality: 'p' },
      admin.token,
    );
    await api(
      'POST',
      '/admin/instruction',
      { bot_id: bot.id, ask: `Horario ${tag}`, reply: 'r', segments: [segment.id] },
      admin.token,
    );
    await page.goto('/admin/bots');
    await expect(
      page.getByRole('table', { name: 'Instrucciones' }).getByText(`Horario ${tag}`),
    ).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Crear instrucción' }).click();
    const dialog = page.getByRole('dialog', { name: 'Crear instrucción' });
    await dialog.getByRole('button', { name: 'Crear instrucción' }).click();
    await expect(dialog.getByText('El nombre de la instrucción es obligatorio')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
