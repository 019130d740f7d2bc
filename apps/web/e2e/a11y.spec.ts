import { seriousViolations } from './support/axe';
import type { E2ERole } from './support/users';
import { expect, signInAs, test } from './support/fixtures';

// axe is injected as an inline script, which the server's CSP forbids; only these tests bypass it.
test.use({ bypassCSP: true });

const PAGES: ({ path: string; who?: E2ERole } & ({ heading: string } | { searchbox: string }))[] = [
  { path: '/login', heading: 'Iniciar sesión' },
  { path: '/register', heading: 'Crear cuenta' },
  { path: '/admin', who: 'admin', heading: 'Hola, Andrés Admin' },
  { path: '/super-admin', who: 'super_admin', heading: 'Panel de super administrador' },
  { path: '/super-admin/users', who: 'super_admin', heading: 'Administrar usuarios' },
  { path: '/super-admin/roles', who: 'super_admin', heading: 'Administrar roles' },
  { path: '/super-admin/companies', who: 'super_admin', heading: 'Compañías' },
  { path: '/super-admin/analytics', who: 'super_admin', heading: 'Analítica' },
  { path: '/super-admin/webhooks', who: 'super_admin', heading: 'Webhooks fallidos' },
  { path: '/client', who: 'client', heading: 'Área de clientes' },
  { path: '/admin/bots', who: 'admin', heading: 'Bots e instrucciones' },
  { path: '/admin/clients', who: 'admin', heading: 'Gestión de clientes' },
  // The chat has no heading of its own: its client search is what shows it is ready.
  { path: '/admin/chat', who: 'admin', searchbox: 'Buscar clientes...' },
  { path: '/admin/setting', who: 'admin', heading: 'Configuraciones' },
  { path: '/admin/team', who: 'admin', heading: 'Equipo' },
  { path: '/admin/media', who: 'admin', heading: 'Media' },
  // The shared admin has sent nothing: its history is an empty table, wider than a phone (it scrolls
  // sideways in its own box, which must then take the keyboard focus).
  { path: '/admin/messages-massive', who: 'admin', heading: 'Mensajes masivos' },
];

for (const width of [1280, 375]) {
  test.describe(`${width}px`, () => {
    test.use({ viewport: { width, height: 800 } });
    for (const target of PAGES) {
      test(`no serious accessibility violations on ${target.path}`, async ({ page }) => {
        if (target.who) await signInAs(page, target.who);
        await page.goto(target.path);
        const ready =
          'heading' in target
            ? page.getByRole('heading', { name: target.heading, exact: true }).first()
            : page.getByRole('searchbox', { name: target.searchbox });
        await expect(ready).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
      });
    }
  });
}
