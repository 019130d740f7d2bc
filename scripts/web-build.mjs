// The one rule for "is the web build current?", shared by npm start, npm run size and the e2e setup.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** True when `marker` (a file the build writes) is missing or older than any source of apps/web. */
export function webBuildIsStale(root, marker = path.join(root, 'apps/web/dist/index.html')) {
  if (!fs.existsSync(marker)) return true;
  const web = path.join(root, 'apps/web');
  const sources = [
    'src',
    'public',
    'index.html',
    'vite.config.ts',
    'build-warnings.ts',
    'build-compress.ts',
    'package.json',
  ]
    .map((p) => path.join(web, p))
    .concat(path.join(root, 'packages/contract/src'));
  return Math.max(...sources.map(newestMtime)) > fs.statSync(marker).mtimeMs;
}

/** Runs `vite build` for apps/web when the build is stale; throws when the build fails. */
export function ensureWebBuild(root, { marker, label = 'web' } = {}) {
  const web = path.join(root, 'apps/web');
  const file = marker ?? path.join(web, 'dist/index.html');
  if (!webBuildIsStale(root, file)) return path.join(web, 'dist');
  console.log(`${label}: building apps/web (its build is missing or older than its sources) ...`);
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: web, stdio: 'inherit' });
  if (build.status !== 0 || !fs.existsSync(file)) throw new Error(`${label}: the web build failed`);
  return path.join(web, 'dist');
}
