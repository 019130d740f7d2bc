import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type { E2ERole } from './support/users';
import { expect, signInAs, test } from './support/fixtures';

// axe is injected as an inline script, which the server's CSP forbids; only these tests bypass it.
test.use({ bypassCSP: true });

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

async function seriousViolations(page: Page) {
  await page.addScriptTag({ path: axePath });
  const result = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is injected at run time
    const axe = (window as any).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return (result.violations as { id: string; impact: string; help: string; nodes: { target: string[] }[] }[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} → ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const PAGES: { path: string; who?: E2ERole; heading: string }[] = [
  { path: '/login', heading: 'Iniciar sesión' },
  { path: '/register', heading: 'Crear cuenta' },
  { path: '/admin', who: 'admin', heading: 'Hola, Andrés Admin' },
  { path: '/super-admin', who: 'super_admin', heading: 'Panel de super administrador' },
  { path: '/client', who: 'client', heading: 'Área de clientes' },
];

for (const target of PAGES) {
  test(`no serious accessibility violations on ${target.path}`, async ({ page }) => {
    if (target.who) await signInAs(page, target.who);
    await page.goto(target.path);
    await expect(page.getByRole('heading', { name: target.heading })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}
