import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Serves the built web app with an SPA fallback; returns the fallback for the not-found handler. */
export async function serveWebApp(
  app: FastifyInstance,
  webDist: string,
): Promise<((request: FastifyRequest, reply: FastifyReply) => boolean) | undefined> {
  const indexFile = path.join(webDist, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ webDist }, 'web app not built: only the API is served (run npm run build)');
    return undefined;
  }
  await app.register(fastifyStatic, {
    root: webDist,
    prefix: '/',
    wildcard: false,
    index: false,
    // The build writes a brotli and a gzip copy of each text file (apps/web/build-compress.ts): the one
    // the browser accepts is sent, with Content-Encoding and Vary.
    preCompressed: true,
    // Cache-Control is ours (below): the library's own would replace it with `max-age=0`.
    cacheControl: false,
    setHeaders(res, filePath) {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      } else {
        res.setHeader('cache-control', 'no-cache');
      }
    },
  });
  return (request, reply) => {
    const url = request.url.split('?')[0];
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !url.startsWith('/api/') &&
      !url.startsWith('/storage/') &&
      !path.extname(url);
    if (!isPage) return false;
    reply.header('cache-control', 'no-cache').sendFile('index.html');
    return true;
  };
}
