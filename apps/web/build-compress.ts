import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** What is worth compressing: text. Images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text file of the build, once, at build
 * time: the server sends the copy the browser accepts (platform/web.ts, `preCompressed`) instead of the
 * app's 400 KB of JavaScript as it is, and compresses nothing per request.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'hablabot-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (fs.readdirSync(outDir, { recursive: true }) as string[])
        .map((name) => path.join(outDir, name))
        .filter((file) => COMPRESSIBLE.test(file) && fs.statSync(file).size >= MIN_BYTES);
      await Promise.all(
        files.map(async (file) => {
          const bytes = await fs.promises.readFile(file);
          const [br, gz] = await Promise.all([
            brotli(bytes, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
            gzip(bytes, { level: 9 }),
          ]);
          await fs.promises.writeFile(`${file}.br`, br);
          await fs.promises.writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}
