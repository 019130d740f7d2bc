import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockXhr } from '../test/xhr';
import { ApiError, setUnauthorizedHandler } from './api-client';
import { apiUpload } from './api-upload';
import { getSession, setSession } from './session';

beforeEach(() => {
  setSession({ token: 'tok-9', user: { id: 1, name: 'Ana', email: 'ana@example.com' }, rol: 'admin' });
  localStorage.setItem('language', 'en');
});
afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedHandler(() => {});
  localStorage.clear();
  sessionStorage.clear();
});

function form() {
  const data = new FormData();
  data.append('file', new File(['x'], 'a.png', { type: 'image/png' }));
  return data;
}

describe('apiUpload', () => {
  it('posts the form with the house headers and reports progress', async () => {
    const xhr = mockXhr();
    const progress: number[] = [];
    const done = apiUpload<{ ok: boolean }>('/admin/media/upload', form(), {
      onProgress: (sent, total) => progress.push(Math.round((sent / total) * 100)),
    });
    const request = await xhr.next();
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/v1/admin/media/upload');
    expect(request.headers).toMatchObject({
      authorization: 'Bearer tok-9',
      'accept-language': 'en',
      accept: 'application/json',
    });
    expect(request.body.get('file')).toBeInstanceOf(File);
    request.progress(25, 100);
    request.progress(100, 100);
    request.respond(201, { ok: true });
    await expect(done).resolves.toMatchObject({ status: 201, data: { ok: true } });
    expect(progress).toEqual([25, 100]);
  });

  it('turns a 422 into an ApiError with its field messages', async () => {
    const xhr = mockXhr();
    const done = apiUpload('/admin/media/upload', form());
    (await xhr.next()).respond(422, {
      message: 'Please select a file',
      errors: { file: ['Please select a file'] },
    });
    const error = (await done.catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(422);
    expect(error.errorList).toEqual(['Please select a file']);
  });

  it('ends the session on a 401', async () => {
    const xhr = mockXhr();
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    const done = apiUpload('/admin/media/upload', form());
    (await xhr.next()).respond(401, { message: 'Unauthenticated.' });
    await expect(done).rejects.toBeInstanceOf(ApiError);
    expect(getSession()).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('reports a failed connection as status 0 and can be cancelled', async () => {
    const xhr = mockXhr();
    const failed = apiUpload('/admin/media/upload', form());
    (await xhr.next()).fail();
    await expect(failed).rejects.toMatchObject({ status: 0, kind: 'network' });

    const controller = new AbortController();
    const cancelled = apiUpload('/admin/media/upload', form(), { signal: controller.signal });
    const request = await xhr.next();
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
    expect(request.aborted).toBe(true);
  });
});
