import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messagesApi, segmentsApi } from '@hablabot/contract/api';
import {
  type ApiError,
  api,
  apiRequest,
  apiUrl,
  call,
  endpointPath,
  isApiError,
  setUnauthorizedHandler,
} from './api-client';
import { toApiErrorState } from './api-errors';
import { getSession, setSession } from './session';
import { jsonResponse } from './testing';

const fetchMock = vi.fn<typeof fetch>();

function lastRequest() {
  const [url, init] = fetchMock.mock.calls.at(-1) ?? [];
  return {
    url: String(url),
    init: init as RequestInit,
    headers: new Headers((init as RequestInit)?.headers),
  };
}

function signIn() {
  setSession({
    token: 'tok-123',
    user: { id: 7, name: 'Ana Admin', email: 'ana@example.com' },
    rol: 'admin',
  });
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedHandler(() => {});
});

describe('api client: headers', () => {
  it('sends Accept-Language es when no language is stored', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { ok: true }));
    await api('/admin/bot');
    expect(lastRequest().url).toBe('/api/v1/admin/bot');
    expect(lastRequest().headers.get('Accept-Language')).toBe('es');
  });

  it('sends the stored language as Accept-Language', async () => {
    localStorage.setItem('language', 'en');
    fetchMock.mockResolvedValue(jsonResponse(200, {}));
    await api('/admin/bot');
    expect(lastRequest().headers.get('Accept-Language')).toBe('en');
  });

  it('ignores an unsupported stored language', async () => {
    localStorage.setItem('language', 'fr');
    fetchMock.mockResolvedValue(jsonResponse(200, {}));
    await api('/admin/bot');
    expect(lastRequest().headers.get('Accept-Language')).toBe('es');
  });

  it('carries the bearer token from session storage on protected calls only', async () => {
    signIn();
    fetchMock.mockResolvedValue(jsonResponse(200, {}));
    await api('/admin/bot');
    expect(lastRequest().headers.get('Authorization')).toBe('Bearer tok-123');
    await api('/auth/login', { method: 'POST', body: { email: 'a@b.c', password: 'x' }, auth: false });
    expect(lastRequest().headers.get('Authorization')).toBeNull();
  });

  it('sends JSON bodies as JSON and FormData as multipart', async () => {
    fetchMock.mockResolvedValue(jsonResponse(201, {}));
    await api('/admin/segment', { method: 'POST', body: { name: 'VIP' } });
    expect(lastRequest().headers.get('Content-Type')).toBe('application/json');
    expect(lastRequest().init.body).toBe('{"name":"VIP"}');

    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.txt');
    await api('/media/upload', { method: 'POST', body: form });
    expect(lastRequest().headers.get('Content-Type')).toBeNull();
    expect(lastRequest().init.body).toBe(form);
  });

  it('keeps paths already under /api/v1 and the CSRF path as they are', () => {
    expect(apiUrl('/api/v1/admin/media/user')).toBe('/api/v1/admin/media/user');
    expect(apiUrl('/sanctum/csrf-cookie')).toBe('/sanctum/csrf-cookie');
    expect(apiUrl('/admin/client/3/messages', { page: 2, per_page: 10, skip: undefined })).toBe(
      '/api/v1/admin/client/3/messages?page=2&per_page=10',
    );
  });
});

describe('api client: calls through the route contract', () => {
  it("takes the endpoint's method and path, fills its parameters and sends query and body", async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { segment: {}, message: 'ok' }));
    await call(segmentsApi.update, {
      params: { id: 7 },
      body: { name: 'VIP', color: '#112233', rules: 'r' },
    });
    expect(lastRequest().url).toBe('/api/v1/admin/segment/7');
    expect(lastRequest().init.method).toBe('PUT');
    expect(lastRequest().init.body).toBe('{"name":"VIP","color":"#112233","rules":"r"}');

    fetchMock.mockResolvedValue(jsonResponse(200, { messages: [], pagination: {} }));
    await call(messagesApi.history, { params: { id: 3 }, query: { page: 2, per_page: 10 } });
    expect(lastRequest().url).toBe('/api/v1/admin/client/3/messages?page=2&per_page=10');
    expect(lastRequest().init.method).toBe('GET');
  });

  it('encodes a path parameter', () => {
    expect(endpointPath({ method: 'GET', path: '/admin/x/:name/y' }, { name: 'a/b c' })).toBe(
      '/admin/x/a%2Fb%20c/y',
    );
  });
});

describe('api client: 401', () => {
  it('clears the session and goes to / on a protected call', async () => {
    signIn();
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    fetchMock.mockResolvedValue(jsonResponse(401, { message: 'No autenticado.' }));

    const error = await api('/admin/bot').catch((e: unknown) => e);

    expect(isApiError(error)).toBe(true);
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).serverMessage).toBe('No autenticado.');
    expect(getSession()).toBeNull();
    expect(sessionStorage.getItem('token')).toBeNull();
    expect(sessionStorage.getItem('user')).toBeNull();
    expect(sessionStorage.getItem('rol')).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('leaves the session alone when a public call (sign-in) answers 401', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    fetchMock.mockResolvedValue(jsonResponse(401, { message: 'Credenciales inválidas' }));

    await expect(api('/auth/login', { method: 'POST', body: {}, auth: false })).rejects.toMatchObject({
      status: 401,
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});

describe('api client: 422 and other failures', () => {
  it('turns a 422 body into a field map and a flat list', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(422, {
        message: 'El campo nombre es obligatorio.',
        errors: { name: ['El campo nombre es obligatorio.'], email: ['El correo ya existe.', 'Otro.'] },
      }),
    );
    const error = (await api('/admin/client', { method: 'POST', body: {} }).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(error.kind).toBe('validation');
    expect(error.fieldErrors).toEqual({
      name: ['El campo nombre es obligatorio.'],
      email: ['El correo ya existe.', 'Otro.'],
    });
    expect(error.errorList).toEqual(['El campo nombre es obligatorio.', 'El correo ya existe.', 'Otro.']);

    expect(toApiErrorState(error)).toEqual({
      status: 422,
      message: 'El campo nombre es obligatorio.',
      fieldErrors: error.fieldErrors,
      errors: error.errorList,
    });
  });

  it('reports a missing answer as status 0', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = (await api('/admin/bot').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(0);
    expect(error.kind).toBe('network');
  });

  it('returns status and body, including 204 without a body', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    const response = await apiRequest('/sanctum/csrf-cookie', { auth: false });
    expect(response.status).toBe(204);
    expect(response.data).toBeNull();
  });

  it('keeps a non-JSON error body without crashing', async () => {
    fetchMock.mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502 }));
    const error = (await api('/admin/bot').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(502);
    expect(error.serverMessage).toBeNull();
  });
});
