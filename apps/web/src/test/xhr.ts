// An XMLHttpRequest stand-in for uploads (apiUpload): each request is recorded and answered by the test,
// which can report upload progress first. Our own modules (api-client, hooks) run for real.
import { vi } from 'vitest';

export interface FakeUpload {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: FormData;
  /** Reports `sent` of `total` bytes as uploaded. */
  progress(sent: number, total: number): void;
  /** Answers with a status and a JSON body. */
  respond(status: number, body?: unknown): void;
  /** The connection fails (no answer). */
  fail(): void;
  readonly aborted: boolean;
}

/** Replaces XMLHttpRequest; `requests` fills as calls are made, `next()` waits for the next one. */
export function mockXhr() {
  const requests: FakeUpload[] = [];
  const waiting: ((request: FakeUpload) => void)[] = [];

  class FakeXMLHttpRequest extends EventTarget {
    status = 0;
    responseText = '';
    upload = new EventTarget();
    private method = 'GET';
    private url = '';
    private headers: Record<string, string> = {};
    private done = false;
    aborted = false;

    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name.toLowerCase()] = value;
    }
    abort() {
      if (this.done) return;
      this.done = true;
      this.aborted = true;
      this.dispatchEvent(new Event('abort'));
    }
    send(body: FormData) {
      const xhr = this;
      const request: FakeUpload = {
        method: this.method,
        url: this.url,
        headers: this.headers,
        body,
        progress(sent, total) {
          const event = new Event('progress') as ProgressEvent;
          Object.assign(event, { lengthComputable: true, loaded: sent, total });
          xhr.upload.dispatchEvent(event);
        },
        respond(status, responseBody) {
          if (xhr.done) return;
          xhr.done = true;
          xhr.status = status;
          xhr.responseText = responseBody === undefined ? '' : JSON.stringify(responseBody);
          xhr.dispatchEvent(new Event('load'));
        },
        fail() {
          if (xhr.done) return;
          xhr.done = true;
          xhr.dispatchEvent(new Event('error'));
        },
        get aborted() {
          return xhr.aborted;
        },
      };
      requests.push(request);
      waiting.shift()?.(request);
    }
  }

  vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
  return {
    requests,
    /** The next upload request (already made, or the next one to come). */
    next(): Promise<FakeUpload> {
      const pending = requests.find((r) => !(r as { taken?: boolean }).taken);
      if (pending) {
        (pending as { taken?: boolean }).taken = true;
        return Promise.resolve(pending);
      }
      return new Promise((resolve) =>
        waiting.push((r) => {
          (r as { taken?: boolean }).taken = true;
          resolve(r);
        }),
      );
    },
  };
}
