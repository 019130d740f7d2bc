import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { E2ERole } from './support/users';
import { expect, signInAs, test } from './support/fixtures';

// Kept as CI artifacts (gitignored): artifacts/screenshots/<layout>-<language>-<width>.png
const folder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../artifacts/screenshots');

const LAYOUTS: { name: string; path: string; who?: E2ERole; ready: { es: string; en: string } }[] = [
  { name: 'public-login', path: '/login', ready: { es: 'Bienvenido a HablaBot', en: 'Welcome to HablaBot' } },
  { name: 'public-register', path: '/register', ready: { es: 'Crear cuenta', en: 'Create account' } },
  {
    name: 'admin',
    path: '/admin',
    who: 'admin',
    ready: { es: 'Hola, Andrés Admin', en: 'Hello, Andrés Admin' },
  },
  {
    name: 'super-admin',
    path: '/super-admin',
    who: 'super_admin',
    ready: { es: 'Panel de super administrador', en: 'Super administrator dashboard' },
  },
  { name: 'client', path: '/client', who: 'client', ready: { es: 'Área de clientes', en: 'Client area' } },
];

for (const layout of LAYOUTS) {
  for (const language of ['es', 'en'] as const) {
    for (const width of [1280, 375]) {
      test(`screenshot ${layout.name} ${language} ${width}px`, async ({ page }) => {
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await page.setViewportSize({ width, height: width > 600 ? 800 : 812 });
        if (layout.who) await signInAs(page, layout.who, { language });
        else await page.addInitScript((lang) => localStorage.setItem('language', lang), language);
        await page.goto(layout.path);
        await expect(page.getByRole('heading', { name: layout.ready[language] }).first()).toBeVisible();
        await page.screenshot({
          path: path.join(folder, `${layout.name}-${language}-${width}.png`),
          fullPage: true,
        });
        if (layout.name === 'admin' || layout.name === 'super-admin') {
          if (width < 769) {
            await page.getByRole('button', { name: language === 'es' ? 'Abrir menú' : 'Open menu' }).click();
            await expect(page.getByTestId('mobile-menu')).toBeVisible();
            await page.screenshot({
              path: path.join(folder, `${layout.name}-${language}-${width}-menu.png`),
            });
          } else {
            await page
              .getByRole('button', { name: language === 'es' ? 'Contraer menú' : 'Collapse menu' })
              .click();
            await page
              .getByRole('button', { name: language === 'es' ? 'Menú de usuario' : 'User menu' })
              .click();
            await page.screenshot({
              path: path.join(folder, `${layout.name}-${language}-${width}-collapsed.png`),
            });
          }
        }
      });
    }
  }
}
