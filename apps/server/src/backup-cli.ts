// npm run backup [folder]: a copy of the embedded setup's data (SQLite database, app key, media) while the
// server runs; see backup.ts. Without a folder: backups/hablabot-<UTC time> beside the data folder.
import path from 'node:path';
import { backupDataDir, backupName } from './backup';
import { ConfigError, loadConfig } from './config/env';

try {
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new ConfigError(
      'DATABASE_URL is set: back up PostgreSQL with pg_dump (docs/deploy.md, "Backups"); this command copies the embedded SQLite setup',
    );
  }
  const out = process.argv[2] ?? path.join(path.dirname(config.dataDir), 'backups', backupName());
  const result = await backupDataDir(config.dataDir, out);
  const mb = (result.databaseBytes / 1024 / 1024).toFixed(1);
  console.log(
    `Backup written to ${result.folder}: database ${mb} MB, ${result.files} media files, app key ${result.appKey ? 'included' : 'not in the data folder (APP_KEY is set: keep it safe apart)'}.`,
  );
} catch (err) {
  console.error(`backup: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
