import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { SecretBox } from '../../platform/secrets';

/** The settings columns that hold sealed secrets. */
const SEALED_COLUMNS = [
  'whatsapp_api_key_enc',
  'whatsapp_app_secret_enc',
  'openai_api_key_enc',
  'wordpress_secret_key_enc',
] as const;

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
  const rows = await db
    .selectFrom('settings')
    .select(['company_id', ...SEALED_COLUMNS])
    .execute();
  let resealed = 0;
  let unreadable = 0;
  for (const row of rows) {
    for (const column of SEALED_COLUMNS) {
      const sealed = row[column];
      if (sealed === null || box.openedByCurrentKey(sealed)) continue;
      let clear: string;
      try {
        clear = box.decrypt(sealed);
      } catch {
        unreadable++;
        continue;
      }
      const done = await db
        .updateTable('settings')
        .set({ [column]: box.encrypt(clear) })
        .where('company_id', '=', row.company_id)
        .where(column, '=', sealed)
        .executeTakeFirst();
      resealed += Number(done.numUpdatedRows);
    }
  }
  return { resealed, unreadable };
}
