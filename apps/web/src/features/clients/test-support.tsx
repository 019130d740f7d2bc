// Test helpers of the clients feature (imported by its *.test.tsx only). The network is mocked at the
// fetch level; our own modules run for real.
import type { Client, Segment } from '@hablabot/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { i18next } from '../../lib/i18n';
import { jsonResponse } from '../../lib/testing';

// Screens render behind lazy chunks, queries and modals: give findBy* more room on a busy machine.
configure({ asyncUtilTimeout: 5000 });

/** Per-test timeout of the feature's screen tests (jsdom + axe under load). */
export const SCREEN_TEST_TIMEOUT = 30_000;

export interface RecordedCall {
  method: string;
  url: string;
  body: unknown;
  /** The Accept-Language the call carried. */
  language: string | null;
}

type Handler = (call: RecordedCall) => Response | Promise<Response>;

/**
 * A fetch stand-in that answers by "METHOD /path" and records every call. Unknown routes answer 404,
 * so a test never hangs on a request it did not expect.
 */
export function mockFetch(routes: Record<string, Handler | Response | [number, unknown]>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const raw = init?.body;
    const call: RecordedCall = {
      method,
      url: url.pathname + url.search,
      body: typeof raw === 'string' ? JSON.parse(raw) : raw,
      language: new Headers(init?.headers).get('Accept-Language'),
    };
    calls.push(call);
    const route = routes[`${method} ${url.pathname}`];
    if (!route) return jsonResponse(404, { message: 'not mocked' });
    if (Array.isArray(route)) return jsonResponse(route[0], route[1]);
    if (route instanceof Response) return route.clone();
    return route(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    set: (key: string, handler: Handler | [number, unknown]) => (routes[key] = handler),
  };
}

export function makeSegment(overrides: Partial<Segment> = {}): Segment {
  return {
    id: 1,
    name: 'VIP',
    color: '#1a73e8',
    rules: 'Compran más de 3 veces al mes',
    clients_count: 1,
    created_at: '2026-11-22T10:00:00.000Z',
    updated_at: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
}

export function makeClient(overrides: Partial<Client> = {}): Client {
  return {
    id: 1,
    name: 'Ana',
    last_names: 'García López',
    whatsapp_cellphone: '5215512345678',
    email: 'ana@example.com',
    avatar: null,
    projects: null,
    segments: [{ id: 1, name: 'VIP', color: '#1a73e8' }],
    mode_bot: 1,
    last_message_content: null,
    last_message_date: null,
    unread_messages_count: 0,
    created_at: '2026-11-22T10:00:00.000Z',
    updated_at: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
}

export function newQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: Number.POSITIVE_INFINITY },
      mutations: { retry: false },
    },
  });
}

/** Renders routes under i18n, TanStack Query and a memory router. */
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

/** Renders one element (a modal) under i18n and TanStack Query. */
export function renderWithQuery(ui: ReactElement) {
  return renderFeature([{ path: '/', element: ui }], '/');
}

/** A File with the given text, the way a file input hands it over. */
export function csvFile(text: string, name = 'clientes.csv', type = 'text/csv'): File {
  return new File([text], name, { type });
}
