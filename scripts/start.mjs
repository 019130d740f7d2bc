#!/usr/bin/env node
// npm start: build the web app and the server when their builds are missing or older than their sources,
// then run the server's built JavaScript (apps/server/dist/main.js, with source maps for stack traces): the
// API under /api/v1 and the web app on the same port. `npm run dev` runs the TypeScript through tsx instead.
//
// This process only watches the server, and never outlives it:
// - SIGINT, SIGTERM and SIGHUP are passed on to the server, which stops (a second one: at once); the
//   server runs in a process group of its own, so a Ctrl-C in the terminal reaches it once, through here;
// - when the server exits, this process exits with its code;
// - if the server has not exited some time after a signal, it is killed;
// - if this process dies, the channel between the two closes and the server stops by itself;
// - if this process's own parent goes (npm killed: npm's shell dies without passing the signal on), the
//   server is stopped as on SIGTERM.
// HABLABOT_SKIP_WEB_BUILD=1 skips the web build check (the server process tests use it); the server's own
// build check always runs (about a second when it builds, a few milliseconds when it is current).
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServerBuild, serverBuildFile } from './server-build.mjs';
import { ensureWebBuild } from './web-build.mjs';

/** Longer than the server's own limit for stopping (10 s). */
const KILL_AFTER_MS = 15_000;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!process.env.HABLABOT_SKIP_WEB_BUILD) {
  try {
    ensureWebBuild(root, { label: 'start' });
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
try {
  await ensureServerBuild(root, { label: 'start' });
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
const env = { NODE_ENV: 'production', ...process.env };
const server = spawn(process.execPath, ['--enable-source-maps', serverBuildFile(root, 'main')], {
  cwd: root,
  env,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  detached: true,
});

let killer;
function stopServer(signal) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  server.kill(signal);
  killer ??= setTimeout(() => server.kill('SIGKILL'), KILL_AFTER_MS);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stopServer(signal));
const parentPid = process.ppid;
const orphaned = setInterval(() => {
  if (process.ppid !== parentPid) {
    clearInterval(orphaned);
    stopServer('SIGTERM');
  }
}, 500);
orphaned.unref();
// Should this process end any other way (an error), the server goes with it.
process.on('exit', () => {
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
});
server.on('error', (err) => {
  console.error(`Could not start the server: ${err.message}`);
  process.exit(1);
});
server.on('exit', (code, signal) => {
  clearTimeout(killer);
  process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0));
});
