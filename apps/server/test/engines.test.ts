// The Node.js the project names (package.json `engines`, the README's "Needs Node.js …") is one that every
// locked package accepts, so `npm install` on it prints no EBADENGINE warning; packages that would refuse
// it are pinned by an `overrides` entry (cookie 1.x, whose API @fastify/cookie and light-my-request use).
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface Locked {
  version?: string;
  engines?: { node?: string } | string[];
}

describe('the Node.js version the project names', () => {
  const range = JSON.parse(read('package.json')).engines.node as string;
  const lowest = semver.minVersion(range)!.version;

  it('is the one the README and the deploy guide name', () => {
    const named = `${semver.major(lowest)}.${semver.minor(lowest)}+`;
    expect(read('README.md')).toContain(`Needs Node.js ${named}`);
    expect(read('docs/deploy.md')).toContain(`Node.js ${named}`);
  });

  it('is accepted by every locked package, down to the lowest it allows', () => {
    const packages: Record<string, Locked> = JSON.parse(read('package-lock.json')).packages;
    const refusing = Object.entries(packages)
      .filter(([, p]) => !Array.isArray(p.engines) && p.engines?.node)
      .filter(([, p]) => !semver.satisfies(lowest, (p.engines as { node: string }).node))
      .map(([where, p]) => `${where}@${p.version}`);
    expect(refusing).toEqual([]);
  });
});
