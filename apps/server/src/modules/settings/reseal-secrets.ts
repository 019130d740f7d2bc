import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { SecretBox } from '../../platform/secrets';

/** The columns that hold sealed secrets, by table (one row per company in each). */
const SEALED = {
  settings: ['openai_api_key_enc', 'wordpress_secret_key_enc'],
  channels: ['access_token_enc', 'app_secret_enc'],
} as const;

/**
 * After APP_KEY changed (the old one kept in APP_KEY_PREVIOUS): seals again under the new key every
 * secret only an old key opens, so the old key can then be dropped. Run at start-up when old keys are
 * given; idempotent, and safe with several instances at once (a value is replaced only if it is still
 * the one read). Secrets no key opens are left as they are and counted: the settings screen shows
 * them as unreadable until an admin types them again.
 */
export async function resealSecrets(
  db: Kysely<DB>,
  box: SecretBox,
): Promise<{ resealed: number; unreadable: number }> {
  let resealed = 0;
  let unreadable = 0;
  for (const [table, columns] of Object.entries(SEALED) as [keyof typeof SEALED, readonly string[]][]) {
    // biome-ignore lint/suspicious/noExplicitAny: the same loop over two tables' sealed columns
    const loose = db as Kysely<any>;
    const rows: Record<string, string | null | number>[] = await loose
      .selectFrom(table)
      .select(['company_id', ...columns])
      .execute();
    for (const row of rows) {
      for (const column of columns) {
        const sealed = row[column] as string | null;
        if (sealed === null || box.openedByCurrentKey(sealed)) continue;
        let clear: string;
        try {
          clear = box.decrypt(sealed);
        } catch {
          unreadable++;
          continue;
        }
        const done = await loose
          .updateTable(table)
          .set({ [column]: box.encrypt(clear) })
          .where('company_id', '=', row.company_id)
          .where(column, '=', sealed)
          .executeTakeFirst();
        resealed += Number(done.numUpdatedRows);
      }
    }
  }
  return { resealed, unreadable };
}
