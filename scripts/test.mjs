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
// The names of the failed tests are repeated at the very end, where a log cut to its last lines still shows them.
const failures = [];
if (fs.existsSync(vitestJson)) {
  const v = JSON.parse(fs.readFileSync(vitestJson, 'utf8'));
  passed += v.numPassedTests ?? 0;
  failed += v.numFailedTests ?? 0;
  for (const file of v.testResults ?? []) {
    const where = path.relative(root, file.name ?? '');
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failedTests) {
      const why = String(t.failureMessages?.[0] ?? '')
        .split('\n')[0]
        .slice(0, 300);
      failures.push(`${where} › ${t.fullName}: ${why}`);
    }
    if (!failedTests.length && file.status === 'failed')
      failures.push(`${where}: ${String(file.message ?? '').slice(0, 300)}`);
  }
}
if (fs.existsSync(e2eJson)) {
  const e = JSON.parse(fs.readFileSync(e2eJson, 'utf8'));
  // A flaky test passed on its retry: it counts as passed (Playwright reports it by name above).
  passed += (e.stats?.expected ?? 0) + (e.stats?.flaky ?? 0);
  failed += e.stats?.unexpected ?? 0;
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'unexpected')
          failures.push(`${spec.file} › ${[...titles, spec.title].join(' › ')}`);
      }
    }
    for (const child of suite.suites ?? [])
      walk(child, suite.title && !suite.title.endsWith('.ts') ? [...titles, suite.title] : titles);
  };
  for (const suite of e.suites ?? []) walk(suite, []);
}
if (failures.length) console.log(`\nfailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(status || (failed > 0 ? 1 : 0));
