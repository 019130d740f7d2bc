import { screen } from '@testing-library/react';
import { Outlet } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { setSession } from '../lib/session';
import { renderRoutes, setupTestI18n } from '../test';
import { afterSignIn, GuestOnly, IndexRedirect, RequireAuth, RequireRole } from './guards';

const routes = [
  {
    path: '/',
    element: <Outlet />,
    children: [
      { index: true, element: <IndexRedirect /> },
      { element: <GuestOnly />, children: [{ path: 'login', element: <p>login screen</p> }] },
    ],
  },
  {
    element: <RequireAuth />,
    children: [
      {
        element: <RequireRole allow="admin" />,
        children: [
          { path: 'admin', element: <p>admin area</p> },
          { path: 'admin/messages-massive', element: <p>mass messages</p> },
        ],
      },
      {
        element: <RequireRole allow="client" />,
        children: [{ path: 'client', element: <p>client area</p> }],
      },
      {
        element: <RequireRole allow="super_admin" />,
        children: [{ path: 'super-admin', element: <p>super admin area</p> }],
      },
    ],
  },
];

const as = (rol: string) => setSession({ token: 't', user: { id: 1, name: 'X', email: 'x@x.io' }, rol });

beforeEach(async () => {
  await setupTestI18n('es');
});

describe('route guards', () => {
  it('sends a visitor without a token from a protected route to /login', async () => {
    const { router } = renderRoutes(routes, '/admin');
    expect(await screen.findByText('login screen')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('sends / to /login without a session', async () => {
    const { router } = renderRoutes(routes, '/');
    expect(await screen.findByText('login screen')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('sends a client visiting /admin to /, which lands them in /client', async () => {
    as('client');
    const { router } = renderRoutes(routes, '/admin');
    expect(await screen.findByText('client area')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/client');
  });

  it('keeps admins out of the super-admin area', async () => {
    as('admin');
    const { router } = renderRoutes(routes, '/super-admin');
    expect(await screen.findByText('admin area')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin');
  });

  it('redirects /login to / (then the landing) when a token exists', async () => {
    as('super_admin');
    const { router } = renderRoutes(routes, '/login');
    expect(await screen.findByText('super admin area')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/super-admin');
  });

  it('drops a session whose role has no area instead of looping', async () => {
    as('guest');
    const { router } = renderRoutes(routes, '/login');
    expect(await screen.findByText('login screen')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it('remembers the page asked for, and returns there once the session arrives', async () => {
    const { router } = renderRoutes(routes, '/admin/messages-massive?tab=history');
    expect(await screen.findByText('login screen')).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ from: '/admin/messages-massive?tab=history' });
    as('admin');
    expect(await screen.findByText('mass messages')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/messages-massive');
    expect(router.state.location.search).toBe('?tab=history');
  });
});

describe('afterSignIn', () => {
  it('returns to the page asked for when it lies in the role area', () => {
    expect(afterSignIn('admin', '/admin/messages-massive')).toBe('/admin/messages-massive');
    expect(afterSignIn('admin', '/admin?x=1')).toBe('/admin?x=1');
    expect(afterSignIn('super_admin', '/super-admin/companies#new')).toBe('/super-admin/companies#new');
  });

  it("goes to the role's landing otherwise", () => {
    expect(afterSignIn('admin', undefined)).toBe('/admin');
    expect(afterSignIn('admin', '/super-admin/users')).toBe('/admin');
    expect(afterSignIn('admin', '/administrator')).toBe('/admin');
    expect(afterSignIn('client', '//evil.example/client')).toBe('/client');
    expect(afterSignIn('client', 'https://evil.example/client')).toBe('/client');
    expect(afterSignIn('client', 42)).toBe('/client');
    expect(afterSignIn('guest', '/admin')).toBe('/');
  });

  it('lands an agent on the chats, whatever admin page they asked for', () => {
    expect(afterSignIn('agent', undefined)).toBe('/admin/chat');
    expect(afterSignIn('agent', '/admin/clients')).toBe('/admin/chat');
    expect(afterSignIn('agent', '/admin/chat?client=3')).toBe('/admin/chat?client=3');
  });
});
