import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { i18next } from '../lib/i18n';

/** A query client that neither retries nor refetches on its own: each test decides every answer. */
export function newQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: Number.POSITIVE_INFINITY },
      mutations: { retry: false },
    },
  });
}

/** Renders routes under i18n, TanStack Query and a memory router; returns the router to read its location. */
export function renderFeature(routes: RouteObject[], initialPath: string) {
  const queryClient = newQueryClient();
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const utils = render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { router, queryClient, ...utils };
}

/** Same as renderFeature (the name the auth and shell tests use). */
export const renderRoutes = renderFeature;

/** Renders one element (a modal, a form) under i18n, TanStack Query and a router. */
export function renderWithQuery(ui: ReactElement) {
  return renderFeature([{ path: '/', element: ui }], '/');
}

/** Renders one element under the i18n provider only. */
export function renderWithI18n(ui: ReactElement) {
  return render(<I18nextProvider i18n={i18next}>{ui}</I18nextProvider>);
}
