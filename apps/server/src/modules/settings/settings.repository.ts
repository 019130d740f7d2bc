import { DEFAULT_FACEBOOK_MESSAGES_API_URL, DEFAULT_OPENAI_CHAT_ENDPOINT } from '@hablabot/contract';
import type { Kysely, Updateable } from 'kysely';
import { prepared } from '../../db/prepared';
import type { DB, SettingsRow, SettingsTable } from '../../db/schema';

const now = () => new Date().toISOString();

/** The columns a save may change (secrets already sealed, the WordPress key's hash already made). */
export type SettingsValues = Omit<
  Updateable<SettingsTable>,
  'id' | 'company_id' | 'created_at' | 'updated_at'
>;

/** The settings rows: one per company, the only SQL of settings. */
/** The company whose settings name this WhatsApp phone number id: asked on every webhook delivery. */
const ownerOfPhoneId = prepared((db, v: { phoneId: string }) =>
  db
    .selectFrom('settings')
    .select(['company_id', 'whatsapp_phone_id', 'whatsapp_app_secret_enc'])
    .where('whatsapp_phone_id', '=', v.phoneId),
);

/** The columns naming a WhatsApp id that belongs to one company only (unique in the database). */
export type OwnedWhatsAppId = 'whatsapp_phone_id' | 'whatsapp_business_account_id';

/** A company's settings row as the webhook routes by it. */
export interface WebhookOwnerRow {
  company_id: number;
  whatsapp_phone_id: string | null;
  whatsapp_app_secret_enc: string | null;
}

export function createSettingsRepository(db: Kysely<DB>) {
  return {
    async findSettings(companyId: number): Promise<SettingsRow | undefined> {
      return db.selectFrom('settings').selectAll().where('company_id', '=', companyId).executeTakeFirst();
    },

    /**
     * Writes the company's row: creates it (the URLs at their defaults unless given) or changes only the
     * columns in `values`. One statement, so two first saves at once cannot make two rows.
     */
    async upsertSettings(companyId: number, values: SettingsValues): Promise<SettingsRow> {
      const at = now();
      const changes = { ...values, updated_at: at };
      return db
        .insertInto('settings')
        .values({
          facebook_messages_api_url: DEFAULT_FACEBOOK_MESSAGES_API_URL,
          openai_chat_endpoint: DEFAULT_OPENAI_CHAT_ENDPOINT,
          ...values,
          company_id: companyId,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('company_id').doUpdateSet(changes))
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** The company whose hub verify token this is (the webhook's handshake), if any. */
    async findCompanyIdByHubVerifyToken(token: string): Promise<number | undefined> {
      const row = await db
        .selectFrom('settings')
        .select('company_id')
        .where('hub_verify_token', '=', token)
        .executeTakeFirst();
      return row?.company_id;
    },

    /** The company whose settings name this WhatsApp phone number or business account id, if any. */
    async findCompanyIdByWhatsAppId(column: OwnedWhatsAppId, id: string): Promise<number | undefined> {
      const row = await db
        .selectFrom('settings')
        .select('company_id')
        .where(column, '=', id)
        .executeTakeFirst();
      return row?.company_id;
    },

    /**
     * The rows naming these WhatsApp phone number ids (the webhook's routing), with their sealed app
     * secrets: one statement for a whole delivery, at most one row per id (the column is unique).
     */
    async findWebhookOwners(phoneIds: readonly string[]): Promise<WebhookOwnerRow[]> {
      if (phoneIds.length === 0) return [];
      if (phoneIds.length === 1) return (await ownerOfPhoneId(db, { phoneId: phoneIds[0]! })).rows;
      return db
        .selectFrom('settings')
        .select(['company_id', 'whatsapp_phone_id', 'whatsapp_app_secret_enc'])
        .where('whatsapp_phone_id', 'in', phoneIds)
        .execute();
    },

    /** The company holding the WordPress key with this SHA-256, and its sealed secret. */
    async findByWordPressKeyHash(
      hash: string,
    ): Promise<{ company_id: number; wordpress_secret_key_enc: string | null } | undefined> {
      return db
        .selectFrom('settings')
        .select(['company_id', 'wordpress_secret_key_enc'])
        .where('wordpress_api_key_hash', '=', hash)
        .executeTakeFirst();
    },
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
