import { seriousViolations } from './support/axe';
import type { E2ERole } from './support/users';
import { expect, signInAs, test } from './support/fixtures';

// axe is injected as an inline script, which the server's CSP forbids; only these tests bypass it.
test.use({ bypassCSP: true });

const PAGES: { path: string; who?: E2ERole; heading: string }[] = [
  { path: '/login', heading: 'Iniciar sesión' },
  { path: '/register', heading: 'Crear cuenta' },
  { path: '/admin', who: 'admin', heading: 'Hola, Andrés Admin' },
  { path: '/super-admin', who: 'super_admin', heading: 'Panel de super administrador' },
  { path: '/super-admin/users', who: 'super_admin', heading: 'Administrar usuarios' },
  { path: '/super-admin/roles', who: 'super_admin', heading: 'Administrar roles' },
  { path: '/super-admin/companies', who: 'super_admin', heading: 'Compañías' },
  { path: '/super-admin/analytics', who: 'super_admin', heading: 'Analítica' },
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
