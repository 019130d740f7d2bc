#!/usr/bin/env node
// npm run size: the gzip size of the JavaScript the /login route loads before it can paint — the entry
// chunk, the public layout, the login screen, the default (Spanish) catalogue and every chunk they
// import statically. Builds the web app first when the build is missing or older than its sources.
// Fails above the 150 KB budget (docs/performance.md, budgets), and when the production build carries
// any of the dev-only widget gallery.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureWebBuild } from './web-build.mjs';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps/web');
const dist = path.join(web, 'dist');
const manifestFile = path.join(dist, '.vite/manifest.json');
const BUDGET_KB = 150;
// What /login needs besides the entry (see apps/web/src/app/router.tsx and lib/i18n.ts).
const LOGIN_ROUTE_MODULES = [
  'src/layouts/PublicLayout.tsx',
  'src/features/auth/LoginPage.tsx',
  'src/locales/es.json',
];

try {
  ensureWebBuild(root, { marker: manifestFile, label: 'size' });
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}

// The developers' widget gallery (/dev/widgets) is for dev builds only: none of its code, route or texts
// may reach the production build. Every emitted file is searched for its markers.
const DEV_ONLY_MARKERS = [
  'dev/widgets',
  'GalleryPage',
  'gallery__',
  'Galería de componentes',
  'Component gallery',
  'features/gallery',
];
function listFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}
const leaks = [];
for (const file of listFiles(dist)) {
  if (!/\.(js|css|html|json)$/.test(file)) continue;
  const text = fs.readFileSync(file, 'utf8');
  for (const marker of DEV_ONLY_MARKERS) {
    if (text.includes(marker)) leaks.push(`${path.relative(dist, file)}: ${marker}`);
  }
}
if (leaks.length > 0) {
  console.error(`size: the production build carries the dev-only widget gallery:\n  ${leaks.join('\n  ')}`);
  process.exit(1);
}
console.log(`production build: no trace of the dev-only widget gallery (${DEV_ONLY_MARKERS.length} markers)`);

const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) {
  console.error('size: no entry in the Vite manifest');
  process.exit(1);
}

const files = new Set();
function collect(key) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`size: ${key} is not in the Vite manifest (did the route tree change?)`);
  if (files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) collect(imported);
}
collect(entryKey);
for (const key of LOGIN_ROUTE_MODULES) collect(key);

let total = 0;
const rows = [];
for (const file of files) {
  if (!file.endsWith('.js')) continue;
  const gz = gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
  total += gz;
  rows.push([file, gz]);
}
rows.sort((a, b) => b[1] - a[1]);
for (const [file, gz] of rows) console.log(`  ${(gz / 1024).toFixed(2).padStart(8)} KB  ${file}`);
const kb = total / 1024;
console.log(
  `login route initial JavaScript: ${kb.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB, ${rows.length} files)`,
);
if (kb > BUDGET_KB) {
  console.error(`size: over budget by ${(kb - BUDGET_KB).toFixed(1)} KB`);
  process.exit(1);
}
