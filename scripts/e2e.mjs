#!/usr/bin/env node
// npm run test:e2e: the Playwright browser tests (apps/web/e2e) against the real server, with the
// system Chromium. Without /usr/bin/chromium they are skipped (exit 0) — except under CI=true, where
// a missing browser is a failure. Extra arguments go to `playwright test` (e.g. a spec path, --headed).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!fs.existsSync(chromium)) {
  if (process.env.CI === 'true') {
    console.error(`e2e: failed: ${chromium} not found (CI=true requires it)`);
    process.exit(1);
  }
  console.log(`e2e: skipped: ${chromium} not found`);
  process.exit(0);
}

const result = spawnSync(
  'npx',
  ['playwright', 'test', '-c', 'apps/web/playwright.config.ts', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } },
);
process.exit(result.status ?? 1);
