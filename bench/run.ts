// npm run bench: every benchmark in this folder, one after another, each in its own process; names given
// as arguments run only those (`npm run bench -- webhook`). `npm run bench -- --seed` runs the scale run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
// `--seed`: the scale run alone (it fills a database with 1,000,000 messages: minutes, not seconds), so a
// plain `npm run bench` leaves it out.
const seed = process.argv.includes('--seed');
const only = process.argv.slice(2).filter((a) => a !== '--seed');
const scripts = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.ts') && !['run.ts', 'lib.ts'].includes(f))
  .filter((f) => (f === 'scale.ts') === seed)
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const script of scripts) {
  console.log(`\n== ${script}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, script)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
