import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type ReporterDescription } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

// One free port for the whole run, chosen once in the runner and inherited by the workers.
if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
}
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

const reporter: ReporterDescription[] = [[process.env.CI === 'true' ? 'line' : 'list']];
if (process.env.E2E_JSON) reporter.push(['json', { outputFile: process.env.E2E_JSON }]);

export default defineConfig({
  testDir: './e2e',
  // Playwright empties this folder when a run starts; E2E_OUTPUT_DIR keeps parallel runs apart.
  outputDir: process.env.E2E_OUTPUT_DIR ?? path.join(root, 'test-results/e2e'),
  globalSetup: './e2e/support/global-setup.ts',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: true,
  workers: process.env.CI === 'true' ? 2 : 3,
  retries: process.env.CI === 'true' ? 1 : 0,
  forbidOnly: process.env.CI === 'true',
  reporter,
  use: {
    baseURL,
    locale: 'es-ES',
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    browserName: 'chromium',
    launchOptions: {
      // The system Chromium; Playwright never downloads a browser here.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
