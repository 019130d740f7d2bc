// The server's production build: apps/server/src (with the workspace packages it imports) bundled by
// esbuild into plain JavaScript in apps/server/dist, one file per entry (main.js, worker.js) with its source
// map, for `node --enable-source-maps`. npm packages stay outside the bundle and load from node_modules.
// Built when missing or older than its sources, the same rule as the web build (web-build.mjs).
//
// Run directly, it builds when needed and then runs one entry in this process:
//   node --enable-source-maps scripts/server-build.mjs worker      (what `npm run worker` runs)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ENTRIES = ['main', 'worker'];

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    if (entry.name.endsWith('.test.ts')) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** The built file of one entry, e.g. apps/server/dist/main.js. */
export function serverBuildFile(root, entry = 'main') {
  return path.join(root, 'apps/server/dist', `${entry}.js`);
}

/** True when an entry's built file is missing or older than any source it is built from. */
export function serverBuildIsStale(root) {
  const built = ENTRIES.map((entry) => serverBuildFile(root, entry));
  if (!built.every((file) => fs.existsSync(file))) return true;
  const sources = [
    'apps/server/src',
    'apps/server/package.json',
    'packages/contract/src',
    'packages/contract/package.json',
    'tsconfig.base.json',
    'scripts/server-build.mjs',
  ].map((p) => path.join(root, p));
  const oldest = Math.min(...built.map((file) => fs.statSync(file).mtimeMs));
  return Math.max(...sources.map(newestMtime)) > oldest;
}

/** Bare imports stay npm packages loaded at run time, except our own workspace packages (TypeScript). */
const npmPackagesOutside = {
  name: 'npm-packages-outside',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@hablabot/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * How the server is bundled: Node's ESM for Node 20, source maps without the sources (the .ts files are
 * beside them), our workspace packages inside and npm packages outside. The scale bench bundles its server
 * child the same way (BENCH_BUILT=1).
 */
export const SERVER_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
  plugins: [npmPackagesOutside],
};

/**
 * Builds the server when its build is stale; returns the dist folder. Each file is written beside its
 * place and renamed into it, so a server starting meanwhile (another `npm start`, a test) reads either the
 * old file or the new one, never half of one.
 */
export async function ensureServerBuild(root, { label = 'server' } = {}) {
  const dist = path.join(root, 'apps/server/dist');
  if (!serverBuildIsStale(root)) return dist;
  console.log(`${label}: building apps/server (its build is missing or older than its sources) ...`);
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ENTRIES.map((entry) => path.join(root, 'apps/server/src', `${entry}.ts`)),
    outdir: dist,
    ...SERVER_BUNDLE,
    write: false,
  });
  // esbuild's service process would otherwise live on beside npm start's watcher.
  await esbuild.stop();
  fs.mkdirSync(dist, { recursive: true });
  // The maps first, so a new bundle never goes with an old map.
  const files = [...result.outputFiles].sort(
    (a, b) => Number(b.path.endsWith('.map')) - Number(a.path.endsWith('.map')),
  );
  for (const file of files) {
    const temp = `${file.path}.${process.pid}.tmp`;
    fs.writeFileSync(temp, file.contents);
    fs.renameSync(temp, file.path);
  }
  return dist;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const entry = process.argv[2];
  if (!ENTRIES.includes(entry)) {
    console.error(`Usage: node --enable-source-maps scripts/server-build.mjs <${ENTRIES.join('|')}>`);
    process.exit(2);
  }
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  try {
    await ensureServerBuild(root, { label: entry });
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
  await import(pathToFileURL(serverBuildFile(root, entry)).href);
}
