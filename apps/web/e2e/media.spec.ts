import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { html, pdf, png } from '../../server/test/media-fixtures';
import { createCompanyAdmin, openSession, type Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { runsFlow } from './support/matrix';

// The media library end to end (/admin/media) against the real server: upload an image and a PDF,
// search, preview and close, delete — at 1280px and 375px, in Spanish and English.

const screenshots = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../artifacts/screenshots',
);

async function signIn(page: Page, language: 'es' | 'en'): Promise<Session> {
  const { admin } = await createCompanyAdmin({ key: 'media', name: 'Marta Medios', company: 'Medios' });
  await openSession(page, admin, language);
  return admin;
}

const TEXTS = {
  es: {
    title: 'Media',
    upload: 'Subir media',
    library: 'Biblioteca de medios',
    search: 'Buscar por nombre...',
    choose: 'Seleccionar archivo',
    submit: 'Subir',
    empty: 'No hay archivos para mostrar o hubo un error.',
    required: 'Please select a file',
    uploaded: '¡Archivo cargado correctamente!',
    view: 'Ver',
    open: 'Abrir',
    remove: 'Eliminar',
    confirm: '¿Estás seguro de que deseas eliminar este archivo? Esta acción no se puede deshacer.',
    confirmButton: 'Eliminar',
    deleted: 'Archivo eliminado correctamente.',
    close: 'Cerrar',
    errorsTitle: 'Por favor corrige los siguientes errores:',
    unsupported: /El contenido del archivo no es de un tipo admitido/,
  },
  en: {
    title: 'Media',
    upload: 'Upload media',
    library: 'Media library',
    search: 'Search by name...',
    choose: 'Choose file',
    submit: 'Upload',
    empty: 'There are no files to show or there was an error.',
    required: 'Please select a file',
    uploaded: 'File uploaded successfully!',
    view: 'View',
    open: 'Open',
    remove: 'Delete',
    confirm: 'Are you sure you want to delete this file? This action cannot be undone.',
    confirmButton: 'Delete',
    deleted: 'File deleted successfully.',
    close: 'Close',
    errorsTitle: 'Please correct the following errors:',
    unsupported: /The file’s content is not of an accepted type/,
  },
} as const;

async function uploadFile(
  page: Page,
  texts: (typeof TEXTS)[keyof typeof TEXTS],
  file: { name: string; mimeType: string; buffer: Buffer },
) {
  await page.getByLabel(texts.choose).setInputFiles(file);
  await page.getByRole('button', { name: texts.submit, exact: true }).click();
}

for (const width of [1280, 375] as const) {
  for (const language of ['es', 'en'] as const) {
    if (!runsFlow(language, width)) continue;
    test.describe(`media library at ${width}px in ${language}`, () => {
      test.use({ viewport: { width, height: width > 600 ? 800 : 812 } });
      test.describe.configure({ timeout: 120_000 });

      test('upload an image and a PDF, search, preview and close, delete', async ({ page }) => {
        const texts = TEXTS[language];
        const tag = Math.random().toString(36).slice(2, 7);
        const imageName = `logo ${tag}.png`;
        const pdfName = `menú ${tag}.pdf`;
        await signIn(page, language);
        await page.goto('/admin/media');
        await expect(page.getByRole('heading', { level: 1, name: texts.title })).toBeVisible();
        await expect(page.getByRole('heading', { level: 2, name: texts.upload })).toBeVisible();
        await expect(
          page.getByRole('heading', { level: 2, name: new RegExp(`^${texts.library}`) }),
        ).toBeVisible();
        await expect(page.getByText(texts.empty)).toBeVisible();

        // Nothing chosen: the form says so and sends nothing.
        await page.getByRole('button', { name: texts.submit, exact: true }).click();
        await expect(page.getByRole('alert').filter({ hasText: texts.required })).toBeVisible();

        // An image: stored, listed with its thumbnail (served by /storage, which the page may show).
        await uploadFile(page, texts, { name: imageName, mimeType: 'image/png', buffer: png(64, 48) });
        await expect(page.getByRole('status').filter({ hasText: texts.uploaded })).toBeVisible();
        const thumbButton = page.getByRole('button', { name: `${texts.view} ${imageName}` });
        await expect(thumbButton).toBeVisible();
        await expect
          .poll(() => thumbButton.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
          .toBe(64);

        // A PDF: listed with an icon and its name, opening as a link to a download.
        await uploadFile(page, texts, { name: pdfName, mimeType: 'application/pdf', buffer: pdf('Menú') });
        const pdfLink = page.getByRole('link', { name: `${texts.open} ${pdfName}` });
        await expect(pdfLink).toBeVisible();
        await expect(pdfLink).toHaveAttribute('target', '_blank');
        const href = await pdfLink.getAttribute('href');
        expect(href).toMatch(/^\/storage\/media\/[0-9a-f]{2}\/[0-9a-f]{32}\.pdf$/);
        const served = await page.request.get(href!);
        expect(served.status()).toBe(200);
        expect(served.headers()['content-type']).toBe('application/pdf');
        expect(served.headers()['content-disposition']).toMatch(/^attachment;/);
        expect(served.headers()['x-content-type-options']).toBe('nosniff');

        // Search by name: only the PDF, then both again.
        const search = page.getByPlaceholder(texts.search);
        await search.fill(`MENU ${tag}`);
        await expect(thumbButton).toBeHidden();
        await expect(pdfLink).toBeVisible();
        await search.fill('');
        await expect(thumbButton).toBeVisible();

        // Preview the image, close with Cerrar.
        await thumbButton.click();
        const preview = page.getByRole('dialog', { name: imageName });
        await expect(preview.getByRole('img', { name: imageName })).toBeVisible();
        await preview.getByRole('button', { name: texts.close }).click();
        await expect(preview).toBeHidden();

        // The page fits the screen: nothing wider than the viewport.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await page.screenshot({
          path: path.join(screenshots, `media-${language}-${width}.png`),
          fullPage: true,
        });

        // Delete the PDF after confirming.
        await page.getByRole('button', { name: `${texts.remove} ${pdfName}` }).click();
        const confirm = page.getByRole('alertdialog');
        await expect(confirm).toContainText(texts.confirm);
        await confirm.getByRole('button', { name: texts.confirmButton }).click();
        await expect(page.getByRole('status').filter({ hasText: texts.deleted })).toBeVisible();
        await expect(pdfLink).toBeHidden();
        await expect(thumbButton).toBeVisible();
        expect((await page.request.get(href!)).status()).toBe(404);
      });
    });
  }
}

test.describe('media library: refusals and progress', () => {
  test.use({ bypassCSP: true });
  test.describe.configure({ timeout: 120_000 });

  test('a .png that is really HTML comes back as a 422 the page lists, even when large', async ({ page }) => {
    const texts = TEXTS.es;
    await signIn(page, 'es');
    await page.goto('/admin/media');
    const buffer = Buffer.concat([html(), Buffer.alloc(1024, 0x20)]);
    await uploadFile(page, texts, { name: 'foto.png', mimeType: 'image/png', buffer });
    const errors = page.getByRole('alert').filter({ hasText: texts.errorsTitle });
    await expect(errors).toContainText(texts.unsupported);
    // 40 MB named .pdf: the server refuses from the first bytes while the browser is still sending the
    // rest, which it must read and drop for the browser to see the answer.
    const large = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hablabot-e2e-media-')), 'factura.pdf');
    fs.writeFileSync(large, Buffer.concat([html(), Buffer.alloc(40 * 1024 * 1024, 0x20)]));
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/v1/admin/media/upload'), {
      timeout: 30_000,
    });
    // A file on disk: the browser reads it itself, as it does a person's.
    await page.getByLabel(texts.choose).setInputFiles(large);
    await page.getByRole('button', { name: texts.submit, exact: true }).click();
    expect((await answer).status()).toBe(422);
    await expect(errors).toContainText(texts.unsupported);
    await expect(page.getByText(texts.empty)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    fs.rmSync(path.dirname(large), { recursive: true, force: true });
  });

  test('a large upload shows its progress', async ({ page }) => {
    const texts = TEXTS.es;
    await signIn(page, 'es');
    await page.goto('/admin/media');
    // Slow the upload down (4 MB/s) so the progress bar has time to show.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 4 * 1024 * 1024,
    });
    const buffer = Buffer.concat([pdf('Manual'), Buffer.alloc(12 * 1024 * 1024, 0x20)]);
    await uploadFile(page, texts, { name: 'manual.pdf', mimeType: 'application/pdf', buffer });
    const bar = page.getByRole('progressbar');
    await expect(bar).toBeVisible();
    await expect(page.getByText(/^Subiendo manual\.pdf: \d+ %$/)).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: texts.uploaded })).toBeVisible({
      timeout: 30_000,
    });
    await expect(bar).toBeHidden();
    await expect(page.getByRole('link', { name: 'Abrir manual.pdf' })).toBeVisible();
  });
});
