import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { prefetchFirstPage } from '../features/chat/first-page';
import { loadFeatureTexts } from '../lib/i18n';
import { AdminOnly, GuestOnly, IndexRedirect, RequireAuth, RequireRole } from './guards';
import { AppLoading, RootBoundary, RouteError } from './RootBoundary';

type ScreenModule = { default: ComponentType };

const ADMIN_AREA_ROLES = ['admin', 'agent'] as const;

/**
 * Every screen and layout is its own chunk, fetched when its route matches. `texts` names the feature
 * whose catalogue (`features/<texts>/locales/<lang>.json`) the screen reads: it loads alongside the
 * chunk, and the route renders only once both are in, so no screen flashes untranslated keys.
 */
const screen = (load: () => Promise<ScreenModule>, texts?: string): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => {
    const [module] = await Promise.all([load(), texts ? loadFeatureTexts(texts) : undefined]);
    return { Component: module.default };
  },
});

// The product's route tree: public pages, then one area per role.
export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <RootBoundary />,
    errorElement: <RouteError />,
    HydrateFallback: AppLoading,
    children: [
      {
        path: '/',
        ...screen(() => import('../layouts/PublicLayout')),
        children: [
          { index: true, element: <IndexRedirect /> },
          {
            element: <GuestOnly />,
            children: [
              { path: 'login', ...screen(() => import('../features/auth/LoginPage')) },
              { path: 'register', ...screen(() => import('../features/auth/RegisterPage')) },
            ],
          },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            // A company's admins and its agents share the admin layout; agents only reach the chats.
            element: <RequireRole allow={ADMIN_AREA_ROLES} />,
            children: [
              {
                path: 'admin',
                ...screen(() => import('../layouts/AdminLayout')),
                children: [
                  {
                    path: 'chat',
                    // The list's first page is asked for while the screen's code loads (at once on a
                    // full page load of the chat, by main.tsx; here when the app moves to the chat).
                    ...screen(() => {
                      prefetchFirstPage();
                      return import('../features/chat/ChatPage');
                    }, 'chat'),
                  },
                  {
                    element: <AdminOnly />,
                    children: [
                      { index: true, ...screen(() => import('../features/home/AdminHomePage'), 'home') },
                      {
                        path: 'clients',
                        ...screen(() => import('../features/clients/ClientsPage'), 'clients'),
                      },
                      { path: 'bots', ...screen(() => import('../features/bots/BotsPage'), 'bots') },
                      {
                        path: 'setting',
                        ...screen(() => import('../features/settings/SettingsPage'), 'settings'),
                      },
                      {
                        path: 'setting/business-hours',
                        ...screen(() => import('../features/settings/BusinessHoursPage'), 'settings'),
                      },
                      { path: 'media', ...screen(() => import('../features/media/MediaPage'), 'media') },
                      {
                        path: 'messages-massive',
                        ...screen(
                          () => import('../features/mass-messages/MassMessagesPage'),
                          'mass-messages',
                        ),
                      },
                      { path: 'team', ...screen(() => import('../features/team/TeamPage'), 'team') },
                      {
                        path: 'templates',
                        ...screen(() => import('../features/templates/TemplatesPage'), 'templates'),
                      },
                    ],
                  },
                ],
              },
            ],
          },
          {
            element: <RequireRole allow="client" />,
            children: [
              {
                path: 'client',
                ...screen(() => import('../layouts/ClientAreaLayout'), 'client-area'),
                children: [
                  {
                    index: true,
                    ...screen(() => import('../features/client-area/ClientAreaHomePage'), 'client-area'),
                  },
                ],
              },
            ],
          },
          {
            element: <RequireRole allow="super_admin" />,
            children: [
              {
                path: 'super-admin',
                ...screen(() => import('../layouts/SuperAdminLayout')),
                children: [
                  {
                    index: true,
                    ...screen(() => import('../features/super-admin/SuperAdminDashboardPage'), 'super-admin'),
                  },
                  {
                    path: 'users',
                    ...screen(() => import('../features/super-admin/UsersPage'), 'super-admin'),
                  },
                  {
                    path: 'companies',
                    ...screen(() => import('../features/super-admin/CompaniesPage'), 'super-admin'),
                  },
                  {
                    path: 'roles',
                    ...screen(() => import('../features/super-admin/RolesPage'), 'super-admin'),
                  },
                  { path: 'plans', ...screen(() => import('../features/placeholders/PlansPage')) },
                  {
                    path: 'analytics',
                    ...screen(() => import('../features/super-admin/AnalyticsPage'), 'super-admin'),
                  },
                  {
                    path: 'webhooks',
                    ...screen(() => import('../features/super-admin/FailedWebhooksPage'), 'super-admin'),
                  },
                  {
                    path: 'settings',
                    ...screen(() => import('../features/placeholders/SuperAdminSettingsPage')),
                  },
                ],
              },
            ],
          },
        ],
      },
      // The shared widgets' gallery, for developers (`npm run dev`): in a production build
      // import.meta.env.DEV is false, so Vite drops this route, the page and its texts
      // (scripts/size.mjs checks the build for them).
      ...(import.meta.env.DEV
        ? [{ path: 'dev/widgets', ...screen(() => import('../features/gallery/GalleryPage'), 'gallery') }]
        : []),
      { path: '*', ...screen(() => import('../features/public/NotFoundPage')) },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
