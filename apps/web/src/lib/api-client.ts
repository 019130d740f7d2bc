import type { Answer, CallInput, Endpoint, NeedsInput } from '@hablabot/contract';
import { requestLanguage } from './i18n';
import { clearSession, getToken } from './session';

/** Every call lives under this base path. */
export const API_BASE = '/api/v1';

/** Field name → messages, as the server's 422 (and a 409 that names its field) body carries them. */
export type FieldErrors = Record<string, string[]>;

export type ApiErrorKind = 'network' | 'unauthorized' | 'validation' | 'http';

/** A failed call. `status` is 0 when the server did not answer. */
export class ApiError extends Error {
  readonly status: number;
  readonly kind: ApiErrorKind;
  /** The server's `message`, when it sent one. */
  readonly serverMessage: string | null;
  readonly fieldErrors: FieldErrors;
  readonly body: unknown;

  constructor(options: { status: number; body?: unknown; cause?: unknown }) {
    const body = options.body;
    const serverMessage = readMessage(body);
    super(serverMessage ?? (options.status === 0 ? 'Network error' : `HTTP ${options.status}`), {
      cause: options.cause,
    });
    this.name = 'ApiError';
    this.status = options.status;
    this.body = body;
    this.serverMessage = serverMessage;
    // A 409 may name its field the way a 422 does (`errors: { email: [...] }`): both fill fieldErrors.
    this.fieldErrors = options.status === 422 || options.status === 409 ? readFieldErrors(body) : {};
    this.kind =
      options.status === 0
        ? 'network'
        : options.status === 401
          ? 'unauthorized'
          : options.status === 422
            ? 'validation'
            : 'http';
  }

  /** Every 422 message, one per entry, in the server's field order. */
  get errorList(): string[] {
    return flattenFieldErrors(this.fieldErrors);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function readMessage(body: unknown): string | null {
  if (body && typeof body === 'object' && 'message' in body) {
    const message = (body as { message: unknown }).message;
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return null;
}

function readFieldErrors(body: unknown): FieldErrors {
  const errors = body && typeof body === 'object' ? (body as { errors?: unknown }).errors : undefined;
  if (!errors || typeof errors !== 'object') return {};
  const result: FieldErrors = {};
  for (const [field, value] of Object.entries(errors as Record<string, unknown>)) {
    const messages = (Array.isArray(value) ? value : [value]).filter(
      (message): message is string => typeof message === 'string' && message !== '',
    );
    if (messages.length > 0) result[field] = messages;
  }
  return result;
}

export function flattenFieldErrors(errors: FieldErrors): string[] {
  return Object.values(errors).flat();
}

type UnauthorizedHandler = () => void;

let onUnauthorized: UnauthorizedHandler = () => {
  window.location.assign('/');
};

/** The app registers a router-aware handler; the default reloads on `/`. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Plain objects go as JSON; FormData goes as multipart (the browser sets the boundary). */
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  headers?: Record<string, string>;
  /**
   * A protected call (the default) carries the bearer token and treats a 401 as the end of the
   * session. Sign-in, registration and the CSRF call pass false: their 401 is an answer, not an expiry.
   */
  auth?: boolean;
  /** Overrides the stored language for this call's Accept-Language. */
  language?: string;
  signal?: AbortSignal;
  responseType?: 'json' | 'blob';
}

export interface ApiResponse<T> {
  status: number;
  data: T;
  headers: Headers;
}

/** Paths already under /api/v1, and the root-level CSRF and storage paths, are kept as they are. */
export function apiUrl(path: string, query?: RequestOptions['query']): string {
  const absolute = /^https?:\/\//.test(path) || /^\/(api\/|sanctum\/|storage\/)/.test(path);
  let url = absolute ? path : `${API_BASE}${path.startsWith('/') ? '' : '/'}${path}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) params.append(key, String(value));
    }
    const search = params.toString();
    if (search) url += (url.includes('?') ? '&' : '?') + search;
  }
  return url;
}

export function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  const match = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  if (!match) return null;
  try {
    return decodeURIComponent(match.slice(name.length + 1));
  } catch {
    return null;
  }
}

async function parseBody(response: Response, responseType: 'json' | 'blob'): Promise<unknown> {
  if (response.status === 204) return null;
  if (responseType === 'blob' && response.ok) return response.blob();
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** One HTTP call with the house rules; resolves with status and body, rejects with ApiError. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const { method = 'GET', body, query, auth = true, signal, responseType = 'json' } = options;
  const headers = new Headers(options.headers);
  headers.set('Accept', responseType === 'json' ? 'application/json' : '*/*');
  headers.set('Accept-Language', options.language ?? requestLanguage());
  headers.set('X-Requested-With', 'XMLHttpRequest');
  const token = auth ? getToken() : null;
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const xsrf = method !== 'GET' ? readCookie('XSRF-TOKEN') : null;
  if (xsrf) headers.set('X-XSRF-TOKEN', xsrf);

  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }

  let response: Response;
  try {
    response = await fetch(apiUrl(path, query), {
      method,
      headers,
      body: payload,
      signal,
      credentials: 'same-origin',
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError({ status: 0, cause });
  }

  const data = await parseBody(response, responseType).catch(() => null);
  if (!response.ok) {
    if (response.status === 401 && auth) endSession();
    throw new ApiError({ status: response.status, body: data });
  }
  return { status: response.status, data: data as T, headers: response.headers };
}

/** A protected call answered 401: the session is over (cleared, and the app goes to `/`). */
export function endSession(): void {
  clearSession();
  onUnauthorized();
}

/** The body only, for the common case. */
export const api = <T>(path: string, options?: RequestOptions): Promise<T> =>
  apiRequest<T>(path, options).then((response) => response.data);

/** A call's options besides what the contract fixes (method, path, query and body). */
export type CallOptions = Omit<RequestOptions, 'method' | 'body' | 'query'>;

/** The path of an endpoint with its `:name` parameters filled in (each one URL-encoded). */
export const endpointPath = (endpoint: Endpoint, params?: object): string =>
  endpoint.path.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(String((params as Record<string, unknown>)[name])),
  );

type CallArgs<E> =
  NeedsInput<E> extends true
    ? [input: CallInput<E>, options?: CallOptions]
    : [input?: CallInput<E>, options?: CallOptions];

/**
 * One route of the contract (`call(segmentsApi.update, { params: { id }, body })`): method and path come
 * from packages/contract, the input and the answer are typed by the route's declaration. Resolves with
 * status, body and headers.
 */
export function callResponse<E extends Endpoint>(endpoint: E, ...[input, options]: CallArgs<E>) {
  const { params, ...rest } = (input ?? {}) as { params?: object; query?: RequestOptions['query'] };
  return apiRequest<Answer<E>>(endpointPath(endpoint, params), {
    ...options,
    ...rest,
    method: endpoint.method,
  });
}

/** The body only, for the common case. */
export const call = <E extends Endpoint>(endpoint: E, ...args: CallArgs<E>): Promise<Answer<E>> =>
  callResponse(endpoint, ...args).then((response) => response.data);
