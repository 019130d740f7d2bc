import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminOnly, RequireAuth, RequireRole } from '../app/guards';
import { routes as appRoutes } from '../app/router';
import { clearSession, type SessionRole, setSession } from '../lib/session';
import { makeSettings } from '../features/settings/test-support';
import { eventStream, expectNoSeriousA11yViolations, renderRoutes, setupTestI18n } from '../test';
import { mockFetch } from '../test/api';
import AdminLayout from './AdminLayout';

// The admin area as the router builds it: admins and agents enter the layout, and every screen but
// the chats sits behind AdminOnly.
const routes: RouteObject[] = [
  { path: '/', element: <p>public root</p> },
  {
    element: <RequireAuth />,
    children: [
      {
        element: <RequireRole allow={['admin', 'agent']} />,
        children: [
          {
            path: 'admin',
            element: <AdminLayout />,
            children: [
              { path: 'chat', element: <p>chat screen</p> },
              {
                element: <AdminOnly />,
                children: [
                  { index: true, element: <p>admin home</p> },
                  { path: 'clients', element: <p>clients screen</p> },
                  { path: 'team', element: <p>team screen</p> },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

function signIn(rol: string, roles: SessionRole[] = [{ id: rol === 'agent' ? 4 : 2, name: rol }]) {
  setSession({ token: 't', rol, user: { id: 5, name: 'Beto Agente', email: 'beto@example.com', roles } });
}

const menuLinks = () =>
  within(screen.getByRole('navigation', { name: 'Navegación principal' }))
    .getAllByRole('link')
    .map((link) => link.textContent);

beforeEach(async () => {
  await setupTestI18n('es');
});
afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('AdminLayout for an agent', () => {
  it("shows only 'Chats' in the menu, and the user menu's home link goes to the chats", async () => {
    signIn('agent');
    const { container } = renderRoutes(routes, '/admin/chat');
    expect(await screen.findByText('chat screen')).toBeInTheDocument();
    expect(menuLinks()).toEqual(['Chats']);
    await userEvent.setup().click(screen.getByRole('button', { name: /Menú de usuario/ }));
    expect(screen.getByRole('button', { name: 'Mi cuenta' })).toBeInTheDocument();
    const homeLinks = screen.getAllByRole('link', { name: 'Chats' }).map((link) => link.getAttribute('href'));
    expect(homeLinks).toEqual(['/admin/chat', '/admin/chat']);
    await expectNoSeriousA11yViolations(container);
  });

  it('sends an agent from any other admin screen to /admin/chat', async () => {
    for (const path of ['/admin', '/admin/clients', '/admin/team']) {
      signIn('agent');
      const { router, unmount } = renderRoutes(routes, path);
      expect(await screen.findByText('chat screen')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/admin/chat');
      unmount();
    }
  });

  it('treats a user with both the admin and the agent role as an admin', async () => {
    signIn('agent', [
      { id: 4, name: 'agent' },
      { id: 2, name: 'admin' },
    ]);
    renderRoutes(routes, '/admin/team');
    expect(await screen.findByText('team screen')).toBeInTheDocument();
  });
});

describe('AdminLayout for an admin', () => {
  it("keeps every screen and adds 'Equipo' to the menu", async () => {
    signIn('admin');
    const { router } = renderRoutes(routes, '/admin/clients');
    expect(await screen.findByText('clients screen')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/clients');
    // Every admin screen stays in the menu (other screens may join it), with 'Equipo' among them.
    expect(menuLinks()).toEqual(
      expect.arrayContaining(['Inicio', 'Bots', 'Clientes', 'Chats', 'Equipo', 'Configuraciones', 'Media']),
    );
  });
});

/** The paths under /admin of the app's router, each with whether AdminOnly guards it. */
function adminScreens(): { path: string; adminOnly: boolean }[] {
  const found: { path: string; adminOnly: boolean }[] = [];
  const walk = (list: RouteObject[], inAdmin: boolean, adminOnly: boolean) => {
    for (const route of list) {
      const isAdmin = inAdmin || route.path === 'admin';
      const guarded = adminOnly || (route.element as { type?: unknown } | undefined)?.type === AdminOnly;
      if (inAdmin && (route.path || route.index))
        found.push({ path: route.path ?? '(index)', adminOnly: guarded });
      if (route.children) walk(route.children, isAdmin, guarded);
    }
  };
  walk(appRoutes, false, false);
  return found;
}

describe("the app's router", () => {
  it('guards every admin screen but the chats with AdminOnly', () => {
    const screens = adminScreens();
    expect(screens.map((s) => s.path)).toEqual(
      expect.arrayContaining(['chat', '(index)', 'clients', 'team']),
    );
    expect(screens.filter((s) => !s.adminOnly).map((s) => s.path)).toEqual(['chat']);
  });
});

describe('the token banner', () => {
  it('shows on every admin screen while WhatsApp refuses the token, and comes and goes live', async () => {
    signIn('admin');
    const stream = eventStream();
    const api = mockFetch({
      'GET /api/v1/admin/setting': [200, makeSettings({ whatsapp_status: 'token_invalid' })],
      'GET /api/v1/admin/events': () => stream.response(),
    });
    const { router, container } = renderRoutes(routes, '/admin/clients');
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent(
      'El token de WhatsApp caducó o fue revocado — actualízalo en Configuración',
    );
    expect(within(banner).getByRole('link', { name: 'Configuración' })).toHaveAttribute(
      'href',
      '/admin/setting',
    );
    await expectNoSeriousA11yViolations(container);
    await router.navigate('/admin/team');
    expect(await screen.findByText('team screen')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toBeInTheDocument();
    await stream.connected;
    // A connection test or a send worked: the server says so on the stream, and the banner goes at once,
    // on the same screen, without reading the settings again.
    await stream.send('channel.whatsapp_status', { whatsapp_status: 'ok', whatsapp_token_refused_at: null });
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    // Refused again (a send got 190): it comes back, still without a reload.
    await stream.send('channel.whatsapp_status', {
      whatsapp_status: 'token_invalid',
      whatsapp_token_refused_at: '2026-11-26T10:00:00.000Z',
    });
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.getByText('team screen')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.url === '/api/v1/admin/setting')).toHaveLength(1);
  });

  it('reads the settings again when the stream says events were missed', async () => {
    signIn('admin');
    const stream = eventStream();
    let status: 'ok' | 'token_invalid' = 'token_invalid';
    mockFetch({
      'GET /api/v1/admin/setting': () =>
        new Response(JSON.stringify(makeSettings({ whatsapp_status: status })), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
      'GET /api/v1/admin/events': () => stream.response(),
    });
    renderRoutes(routes, '/admin/clients');
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    await stream.connected;
    status = 'ok';
    await stream.send('stream.reset', {});
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('reads in English', async () => {
    await setupTestI18n('en');
    signIn('admin');
    mockFetch({ 'GET /api/v1/admin/setting': [200, makeSettings({ whatsapp_status: 'token_invalid' })] });
    renderRoutes(routes, '/admin/clients');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The WhatsApp token expired or was revoked — update it in Settings',
    );
  });

  it('is not shown to an agent, who cannot read the settings', async () => {
    signIn('agent');
    const api = mockFetch({
      'GET /api/v1/admin/setting': [200, makeSettings({ whatsapp_status: 'token_invalid' })],
    });
    renderRoutes(routes, '/admin/chat');
    expect(await screen.findByText('chat screen')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });
});
