import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backupDataDir, backupName } from './backup';
import { openInfrastructure } from './infrastructure';

const root = path.resolve(import.meta.dirname, '../../..');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'hablabot-backup-'));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

async function companyNames(dataDir: string): Promise<string[]> {
  const infra = await openInfrastructure({ dataDir });
  try {
    const rows = await infra.database.db.selectFrom('companies').select('name').orderBy('id').execute();
    return rows.map((r) => r.name);
  } finally {
    await infra.close();
  }
}

describe('backup of the embedded data folder', () => {
  it('copies the database while it is open and written, the app key and the media; the copy starts as a data folder', async () => {
    const dataDir = path.join(temp, 'data');
    const infra = await openInfrastructure({ dataDir });
    const { db } = infra.database;
    const at = new Date().toISOString();
    await db
      .insertInto('companies')
      .values({ name: 'Café Aurora', created_at: at, updated_at: at })
      .execute();
    fs.mkdirSync(path.join(dataDir, 'media', 'ab'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'media', 'ab', 'logo.png'), 'png bytes');
    // The server keeps writing while the backup runs.
    const writing = (async () => {
      for (let i = 0; i < 50; i++)
        await db
          .insertInto('companies')
          .values({ name: `Extra ${i}`, created_at: at, updated_at: at })
          .execute();
    })();
    const result = await backupDataDir(dataDir, path.join(temp, 'copy'));
    await writing;
    await infra.close();

    expect(result.appKey).toBe(true);
    expect(result.files).toBe(1);
    expect(fs.readFileSync(path.join(temp, 'copy', 'app.key'), 'utf8')).toBe(
      fs.readFileSync(path.join(dataDir, 'app.key'), 'utf8'),
    );
    expect(fs.statSync(path.join(temp, 'copy', 'hablabot.db')).mode & 0o077).toBe(0);
    const restored = await companyNames(path.join(temp, 'copy'));
    expect(restored[0]).toBe('Café Aurora');
    // A consistent copy: the first rows in order, whatever number of the later ones made it.
    expect(restored.slice(1)).toEqual(restored.slice(1).map((_, i) => `Extra ${i}`));
  });

  it('refuses a folder that is not empty, and names backups by UTC time', async () => {
    const full = path.join(temp, 'full');
    fs.mkdirSync(full);
    fs.writeFileSync(path.join(full, 'keep.txt'), 'x');
    await expect(backupDataDir(path.join(temp, 'data'), full)).rejects.toThrow(/not empty/);
    expect(fs.readFileSync(path.join(full, 'keep.txt'), 'utf8')).toBe('x');
    expect(backupName(new Date('2026-11-24T15:30:05Z'))).toBe('hablabot-20261124-153005');
  });

  it('npm run backup writes one from the command line, and refuses PostgreSQL setups', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: path.join(temp, 'data') };
    delete env.DATABASE_URL;
    const ok = spawnSync('npm', ['run', '--silent', 'backup', '--', path.join(temp, 'cli')], {
      cwd: root,
      env,
      encoding: 'utf8',
    });
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('Backup written to');
    expect(fs.existsSync(path.join(temp, 'cli', 'hablabot.db'))).toBe(true);
    const pg = spawnSync('npm', ['run', '--silent', 'backup'], {
      cwd: root,
      env: { ...env, DATABASE_URL: 'postgres://127.0.0.1/none' },
      encoding: 'utf8',
    });
    expect(pg.status).toBe(1);
    expect(pg.stderr).toContain('pg_dump');
  });
});
