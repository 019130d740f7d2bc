// Test helpers for the web app (imported by *.test.tsx only).
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import en from '../locales/en.json';
import es from '../locales/es.json';
import { i18next } from './i18n';

/** i18next with both catalogues in memory, Spanish first (the product default). */
export async function setupTestI18n(language = 'es') {
  if (!i18next.isInitialized) {
    await i18next.use(initReactI18next).init({
      resources: { es: { translation: es }, en: { translation: en } },
      lng: language,
      fallbackLng: 'es',
      supportedLngs: ['es', 'en'],
      interpolation: { escapeValue: false },
      showSupportNotice: false,
      react: { useSuspense: false },
    });
  }
  await i18next.changeLanguage(language);
  return i18next;
}

/** Renders routes in a memory router under the i18n provider; returns the router to read its location. */
export function renderRoutes(routes: RouteObject[], initialPath: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const utils = render(
    <I18nextProvider i18n={i18next}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
  return { router, ...utils };
}

export function renderWithI18n(ui: ReactElement) {
  return render(<I18nextProvider i18n={i18next}>{ui}</I18nextProvider>);
}

/** A fetch Response with a JSON body. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}
