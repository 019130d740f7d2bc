import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** Runs `vite build` for apps/web unless dist/ is newer than every source it is built from. */
export function ensureWebBuild(root: string): string {
  const web = path.join(root, 'apps/web');
  const dist = path.join(web, 'dist');
  const marker = path.join(dist, 'index.html');
  const builtAt = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
  const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((p) =>
    path.join(web, p),
  );
  sources.push(path.join(root, 'packages/contract/src'));
  if (builtAt > 0 && Math.max(...sources.map(newestMtime)) <= builtAt) return dist;
  console.log('[e2e] building apps/web ...');
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: web, stdio: 'inherit' });
  if (build.status !== 0 || !fs.existsSync(marker)) throw new Error('[e2e] the web build failed');
  return dist;
}
