// The web calls the server only through the route contract (packages/contract/src/routes): `call` and
// `callResponse` take an endpoint, whose method and path are the contract's. No screen writes an API path
// or calls the client with a path of its own. The exceptions, each for a reason:
//  - lib/api-client.ts and lib/api-upload.ts: the client itself;
//  - the CSRF cookie ('/sanctum/csrf-cookie'): Sanctum's handshake, outside /api/v1 and not JSON;
//  - a media file's address, which the server hands out (message.media_url) and the chat reads as a blob.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLIENT_FILES = new Set(['lib/api-client.ts', 'lib/api-upload.ts']);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sources(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const files = sources(SRC).map((file) => ({
  name: path.relative(SRC, file).split(path.sep).join('/'),
  lines: fs.readFileSync(file, 'utf8').split('\n'),
}));

/** A literal that starts like a path of the API (the contract's areas, or /api/v1 itself). */
const API_PATH =
  /['"`]\/(api\/v1|admin\/|super-admin\/|auth\/|account['"`]|language\/|templates|import\/|media\/|integrations\/)/;
/** Lines where such a literal names a screen of the web app, not an API path. */
const NAVIGATION = /\bto[:=]|navigate\(|homePath=|<Navigate|<Link|path:|href=|initialEntries:/;
/** A call of the client with a path of its own (a string or template literal). */
const HAND_CALL = /\b(api|apiRequest|apiUpload|apiUrl)(<[^>]*>)?\(\s*['"`]/;
const OLD_HELPERS = /\bapi\.(get|post|put|patch|delete)\b/;

describe('the web calls the API through the route contract only', () => {
  it('the scan sees the feature files', () => {
    expect(files.some((file) => file.name === 'features/clients/api.ts')).toBe(true);
  });

  it('no API path is written by hand (string literals outside navigation and comments)', () => {
    const found = files.flatMap(({ name, lines }) =>
      CLIENT_FILES.has(name)
        ? []
        : lines
            .map((line, i) => ({ line, at: `${name}:${i + 1}` }))
            .filter(
              ({ line }) => API_PATH.test(line) && !NAVIGATION.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line),
            )
            .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it('no call of the client with a literal path, and no api.get/post/… helpers', () => {
    const found = files.flatMap(({ name, lines }) =>
      CLIENT_FILES.has(name)
        ? []
        : lines
            .map((line, i) => ({ line, at: `${name}:${i + 1}` }))
            .filter(
              ({ line }) =>
                (HAND_CALL.test(line) && !line.includes("'/sanctum/csrf-cookie'")) || OLD_HELPERS.test(line),
            )
            .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });
});
