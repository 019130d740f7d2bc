import { ApiError, type ApiResponse, apiUrl, endSession, readCookie } from './api-client';
import { requestLanguage } from './i18n';
import { getToken } from './session';

// Uploads with progress live apart from api-client so the sign-in screen's JavaScript does not carry them.

export interface UploadOptions {
  /** Hears how many bytes of the request have gone out, of how many. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
  language?: string;
}

/**
 * POSTs a FormData under the same house rules as apiRequest (bearer token, Accept-Language, 401 ends the
 * session, errors as ApiError), reporting upload progress: XMLHttpRequest, because fetch cannot tell how
 * much of a request body has been sent.
 */
export function apiUpload<T>(
  path: string,
  form: FormData,
  options: UploadOptions = {},
): Promise<ApiResponse<T>> {
  const { onProgress, signal } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', options.language ?? requestLanguage());
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    const xsrf = readCookie('XSRF-TOKEN');
    if (xsrf) xhr.setRequestHeader('X-XSRF-TOKEN', xsrf);
    const onAbortSignal = () => xhr.abort();
    signal?.addEventListener('abort', onAbortSignal, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbortSignal);

    if (onProgress) {
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable) onProgress(event.loaded, event.total);
      });
    }
    xhr.addEventListener('load', () => {
      settle();
      let data: unknown = null;
      if (xhr.responseText !== '') {
        try {
          data = JSON.parse(xhr.responseText) as unknown;
        } catch {
          data = xhr.responseText;
        }
      }
      if (xhr.status < 200 || xhr.status >= 300) {
        if (xhr.status === 401) endSession();
        reject(new ApiError({ status: xhr.status, body: data }));
        return;
      }
      resolve({ status: xhr.status, data: data as T, headers: new Headers() });
    });
    xhr.addEventListener('error', () => {
      settle();
      reject(new ApiError({ status: 0 }));
    });
    xhr.addEventListener('abort', () => {
      settle();
      reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
    });
    xhr.send(form);
  });
}
