#!/usr/bin/env node
// npm start: build the web app when its build is missing or older than its sources, then run the server
// (API under /api/v1 and the web app on the same port).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps/web');
const builtIndex = path.join(web, 'dist/index.html');

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

export function webBuildIsStale() {
  if (!fs.existsSync(builtIndex)) return true;
  const sources = ['src', 'index.html', 'vite.config.ts', 'public', 'package.json']
    .map((p) => newestMtime(path.join(web, p)))
    .concat(newestMtime(path.join(root, 'packages/contract/src')));
  return Math.max(...sources) > fs.statSync(builtIndex).mtimeMs;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (webBuildIsStale()) {
    console.log('Building the web app (its build is missing or older than its sources)…');
    const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const env = { NODE_ENV: 'production', ...process.env };
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
