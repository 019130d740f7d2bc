import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { translate } from '../../platform/locale';
import type { MediaService, PublicFile } from './media.service';

export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Reads a Range header for a file of `size` bytes: one range of bytes (`bytes=0-99`, `bytes=100-`,
 * `bytes=-500`), clamped to the file; 'unsatisfiable' when it starts past the end (416); undefined when
 * there is none or it is not one we serve (several ranges, other units, nonsense) — then the whole file
 * goes out, which HTTP allows.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return undefined;
  const [, first, last] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

/** Whether an If-None-Match list names this entity tag (weak comparison, as for GET). */
function noneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}

/** A file name for Content-Disposition: an ASCII fallback and the exact name in UTF-8 (RFC 6266). */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7E]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Library files never change under a name (a new upload gets a new one): caches may keep them a year. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * How a stored file may be shown: images, video and audio inline in a sandbox (no script could run
 * even if a browser were tricked into reading one as a page); documents only ever as a download, in a
 * sandbox that allows nothing.
 */
function safetyHeaders(file: PublicFile): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'content-security-policy': file.inline ? 'sandbox' : "default-src 'none'; sandbox",
    'content-disposition': contentDisposition(file.inline ? 'inline' : 'attachment', file.fileName),
    // Another site may show our images and play our audio (a shared link); the bytes are public anyway.
    'cross-origin-resource-policy': 'cross-origin',
  };
}

async function serve(request: FastifyRequest, reply: FastifyReply, file: PublicFile) {
  const etag = `"${file.sha256.slice(0, 32)}"`;
  const lastModified = file.modified.toUTCString();
  reply.headers({
    ...safetyHeaders(file),
    'content-type': file.contentType,
    'accept-ranges': 'bytes',
    etag,
    'last-modified': lastModified,
    'cache-control': CACHE_CONTROL,
  });

  const ifNoneMatch = request.headers['if-none-match'];
  const ifModifiedSince = request.headers['if-modified-since'];
  const notModified = ifNoneMatch
    ? noneMatch(ifNoneMatch, etag)
    : ifModifiedSince !== undefined &&
      !Number.isNaN(Date.parse(ifModifiedSince)) &&
      Math.floor(file.modified.getTime() / 1000) <= Math.floor(Date.parse(ifModifiedSince) / 1000);
  if (notModified) {
    await file.close();
    return reply.status(304).send();
  }

  // If-Range: the range holds only while the file is still the one the caller has part of.
  const ifRange = request.headers['if-range']?.toString().trim();
  const rangeStillValid = ifRange === undefined || ifRange === etag || ifRange === lastModified;
  const range = rangeStillValid ? parseRange(request.headers.range, file.size) : undefined;

  if (range === 'unsatisfiable') {
    await file.close();
    return reply
      .status(416)
      .header('content-range', `bytes */${file.size}`)
      .removeHeader('content-disposition')
      .type('application/json; charset=utf-8')
      .send({ message: translate(request.lang, 'errors.range_not_satisfiable') });
  }

  const length = range ? range.end - range.start + 1 : file.size;
  reply.header('content-length', String(length));
  if (range) reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${file.size}`);
  if (request.method === 'HEAD') {
    await file.close();
    return reply.send();
  }
  return reply.send(file.stream(range));
}

/**
 * GET /storage/media/<key>: the library's files, public so WhatsApp can fetch them by link. The path is
 * matched exactly against the names storage hands out, and the file must still be in the library.
 */
export function storageRoutes(deps: { media: MediaService }) {
  const { media } = deps;
  return async (app: FastifyInstance) => {
    app.route({
      method: ['GET', 'HEAD'],
      url: '/storage/*',
      schema: {
        tags: ['media'],
        summary:
          'A media library file, public (the path is unguessable); supports Range and conditional requests',
      },
      async handler(request, reply) {
        const filePath = (request.params as { '*': string })['*'];
        const file = await media.openPublic(filePath);
        if (!file) {
          return reply.status(404).send({ message: translate(request.lang, 'media.not_found') });
        }
        return serve(request, reply, file);
      },
    });
  };
}
