import { type MigrationDb, now, sql } from '../migration-helpers';

/** The WhatsApp ids a company names in its settings, each owned by one company at most. */
const OWNED = ['whatsapp_phone_id', 'whatsapp_business_account_id'] as const;

/**
 * A WhatsApp phone number id and a business account id belong to one company: unique across the
 * settings rows (several rows without one are fine, NULLs never collide). The webhook routes a delivery by
 * its phone number id, so a second company naming the same number could take the first one's messages.
 *
 * Ids two or more companies already share are kept by the lowest company id — the company the webhook
 * routed that number's unsigned deliveries to until now — and cleared in the others' rows, whose admins
 * see the field empty and get a 409 if they save it again.
 */
export async function up(db: MigrationDb): Promise<void> {
  for (const column of OWNED) {
    await sql`
      update settings set ${sql.ref(column)} = null, updated_at = ${now()}
      where ${sql.ref(column)} is not null and exists (
        select 1 from settings as earlier
        where ${sql.ref(`earlier.${column}`)} = ${sql.ref(`settings.${column}`)}
          and earlier.company_id < settings.company_id
      )`.execute(db);
  }
  // The unique index answers the webhook's lookup too: the plain one goes.
  await db.schema.dropIndex('settings_whatsapp_phone_id_idx').execute();
  await db.schema
    .createIndex('settings_whatsapp_phone_id_unique')
    .on('settings')
    .column('whatsapp_phone_id')
    .unique()
    .execute();
  await db.schema
    .createIndex('settings_whatsapp_business_account_id_unique')
    .on('settings')
    .column('whatsapp_business_account_id')
    .unique()
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('settings_whatsapp_business_account_id_unique').execute();
  await db.schema.dropIndex('settings_whatsapp_phone_id_unique').execute();
  await db.schema
    .createIndex('settings_whatsapp_phone_id_idx')
    .on('settings')
    .column('whatsapp_phone_id')
    .execute();
}
