import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

export interface BackupResult {
  folder: string;
  /** Bytes of the copied database file. */
  databaseBytes: number;
  /** Files copied from the media library and the private files (customers' media). */
  files: number;
  appKey: boolean;
}

/** `hablabot-20261124-153000`, in UTC, so backups sort by time. */
export function backupName(at = new Date()): string {
  const iso = at.toISOString();
  return `hablabot-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}`;
}

function countFiles(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let n = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) n++;
  return n;
}

/**
 * A backup of the embedded setup's data folder while the server keeps running: the SQLite database
 * through SQLite's online backup (a consistent copy, writes go on meanwhile), the app key that opens the
 * stored secrets (without it the integration tokens in the copy cannot be read), the media library and
 * the customers' media. The folder made is a data folder itself: to restore, stop the server and start
 * it with DATA_DIR pointing at the copy (or copy it back in place).
 *
 * Media written during the copy may be missing from it, or present without its message; both are
 * harmless (a missing media file shows as unavailable, an extra one is never listed).
 */
export async function backupDataDir(dataDir: string, outDir: string): Promise<BackupResult> {
  const databaseFile = path.join(dataDir, 'hablabot.db');
  if (!fs.existsSync(databaseFile)) throw new Error(`no database at ${databaseFile}`);
  const folder = path.resolve(outDir);
  if (fs.existsSync(folder) && fs.readdirSync(folder).length > 0)
    throw new Error(`${folder} is not empty: a backup goes into a new folder`);
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });

  const source = new SQLite(databaseFile, { readonly: true, fileMustExist: true });
  try {
    await source.backup(path.join(folder, 'hablabot.db'));
  } finally {
    source.close();
  }
  fs.chmodSync(path.join(folder, 'hablabot.db'), 0o600);

  const keyFile = path.join(dataDir, 'app.key');
  const appKey = fs.existsSync(keyFile);
  if (appKey) {
    fs.copyFileSync(keyFile, path.join(folder, 'app.key'));
    fs.chmodSync(path.join(folder, 'app.key'), 0o600);
  }
  for (const sub of ['media', 'private']) {
    const from = path.join(dataDir, sub);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(folder, sub), { recursive: true });
  }
  return {
    folder,
    databaseBytes: fs.statSync(path.join(folder, 'hablabot.db')).size,
    files: countFiles(path.join(folder, 'media')) + countFiles(path.join(folder, 'private')),
    appKey,
  };
}
