#!/usr/bin/env node
// npm test: every unit and integration test (Vitest: server and web), then the browser tests (Playwright).
// Ends with one plain line "tests: N passed, N failed" summing both.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const results = path.join(root, 'test-results');
fs.mkdirSync(results, { recursive: true });
const vitestJson = path.join(results, 'vitest.json');
const e2eJson = path.join(results, 'e2e.json');
for (const f of [vitestJson, e2eJson]) fs.rmSync(f, { force: true });

const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

const only = process.argv.slice(2);
let status = 0;
if (!only.length || only.includes('unit')) {
  status ||= run('npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestJson}`,
  ]);
}
if ((!only.length || only.includes('e2e')) && fs.existsSync(path.join(root, 'scripts/e2e.mjs'))) {
  status = run(process.execPath, [path.join(root, 'scripts/e2e.mjs')], { E2E_JSON: e2eJson }) || status;
}

let passed = 0;
let failed = 0;
if (fs.existsSync(vitestJson)) {
  const v = JSON.parse(fs.readFileSync(vitestJson, 'utf8'));
  passed += v.numPassedTests ?? 0;
  failed += v.numFailedTests ?? 0;
}
if (fs.existsSync(e2eJson)) {
  const e = JSON.parse(fs.readFileSync(e2eJson, 'utf8'));
  // A flaky test passed on its retry: it counts as passed (Playwright reports it by name above).
  passed += (e.stats?.expected ?? 0) + (e.stats?.flaky ?? 0);
  failed += e.stats?.unexpected ?? 0;
}
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(status || (failed > 0 ? 1 : 0));
