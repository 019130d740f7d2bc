import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/** Helmet's settings for every answer: a strict Content-Security-Policy and Helmet's other defaults. */
export const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      mediaSrc: ["'self'", 'blob:'],
      connectSrc: ["'self'"],
      // The spreadsheet export zips its file in a Web Worker that the zip library builds from a blob: URL
      // (a 10,000-client file would freeze the page for seconds on the main thread). Only our own scripts
      // can make such a URL, and script-src stays 'self', so this admits no script from elsewhere.
      workerSrc: ["'self'", 'blob:'],
      // The chat previews a PDF a customer sent in an iframe of the blob: URL the page made from the
      // downloaded file (the download needs the session's token, so the file cannot be framed by its
      // address). Frames may show blob: documents and nothing else: no page of ours or of anyone else.
      frameSrc: ['blob:'],
      fontSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
    },
  },
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers Helmet sets for `options`, worked out once. With no per-request parts (no nonces, no
 * directive functions) they are the same for every answer, so the request path only copies them instead
 * of running Helmet's parsing and validation each time. Helmet still validates the options here, and
 * throws on a bad one at start-up.
 */
export function securityHeaders(options: HelmetOptions = HELMET_OPTIONS): Readonly<Record<string, string>> {
  const csp = options.contentSecurityPolicy;
  const directives = typeof csp === 'object' ? Object.values(csp.directives ?? {}) : [];
  if (
    directives.some(
      (d) => typeof d === 'function' || (Array.isArray(d) && d.some((v) => typeof v === 'function')),
    )
  )
    throw new Error('a directive computed per request cannot be worked out once');
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return Object.freeze(headers);
}
