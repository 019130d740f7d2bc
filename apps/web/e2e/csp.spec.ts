import { expect, test } from './support/fixtures';

// The server's Content-Security-Policy in a real browser: the chat previews a customer's PDF in an iframe
// of a blob: URL made from the downloaded file, and that frame must show (default-src 'self' used to
// block it); a frame of any page, even one of ours, stays refused.

const PDF =
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/MediaBox[0 0 200 200]/Parent 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

test('a blob: PDF shows in a frame; a frame of a page does not', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
  await page.evaluate((text) => {
    const frame = document.createElement('iframe');
    frame.title = 'preview';
    frame.src = URL.createObjectURL(new Blob([text], { type: 'application/pdf' }));
    document.body.append(frame);
  }, PDF);
  // Blocked, the frame would hold Chromium's error page instead of the blob: document.
  await expect.poll(() => page.frames().some((frame) => frame.url().startsWith('blob:'))).toBe(true);
  expect(page.frames().some((frame) => frame.url().startsWith('chrome-error:'))).toBe(false);
  expect(violations).toEqual([]);

  await page.evaluate(() => {
    const frame = document.createElement('iframe');
    frame.title = 'page';
    frame.src = '/register';
    document.body.append(frame);
  });
  await expect.poll(() => violations.some((text) => text.includes('frame-src'))).toBe(true);
});
