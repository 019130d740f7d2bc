import { DEFAULT_FACEBOOK_MESSAGES_API_URL, DEFAULT_OPENAI_CHAT_ENDPOINT } from '@hablabot/contract';
import type { Kysely, Updateable } from 'kysely';
import { prepared } from '../../db/prepared';
import type { ChannelsTable, DB, SettingsRow, SettingsTable } from '../../db/schema';
import { atomically } from '../../db/transactions';

const now = () => new Date().toISOString();

/**
 * A company's settings as the settings screen and the modules read them: the settings row, and its
 * WhatsApp number (the channel) under the names the settings have always used.
 */
export type CompanySettings = Omit<SettingsRow, 'facebook_messages_api_url'> & {
  whatsapp_phone_id: string | null;
  whatsapp_business_account_id: string | null;
  whatsapp_api_key_enc: string | null;
  whatsapp_app_secret_enc: string | null;
  hub_verify_token: string | null;
  facebook_messages_api_url: string;
  /** When WhatsApp last refused the stored token (190); null while it works (token-health.ts). */
  whatsapp_token_refused_at: string | null;
};

/** The WhatsApp settings, by the channel column that holds each. */
const CHANNEL_COLUMNS = {
  whatsapp_phone_id: 'phone_number_id',
  whatsapp_business_account_id: 'business_account_id',
  whatsapp_api_key_enc: 'access_token_enc',
  whatsapp_app_secret_enc: 'app_secret_enc',
  hub_verify_token: 'verify_token',
  facebook_messages_api_url: 'api_url',
} as const satisfies Record<string, keyof ChannelsTable>;

type ChannelSetting = keyof typeof CHANNEL_COLUMNS;

/** The columns a save may change (secrets already sealed, the WordPress key's hash already made). */
export type SettingsValues = Omit<
  Updateable<SettingsTable>,
  'id' | 'company_id' | 'created_at' | 'updated_at' | 'facebook_messages_api_url'
> &
  Partial<Record<Exclude<ChannelSetting, 'facebook_messages_api_url'>, string | null>> & {
    facebook_messages_api_url?: string;
  };

/** The company whose channel has this WhatsApp phone number id: asked on every webhook delivery. */
const ownerOfPhoneId = prepared((db, v: { phoneId: string }) =>
  db
    .selectFrom('channels')
    .select([
      'company_id',
      'phone_number_id as whatsapp_phone_id',
      'app_secret_enc as whatsapp_app_secret_enc',
    ])
    .where('phone_number_id', '=', v.phoneId),
);

/** The settings naming a WhatsApp id that belongs to one company only (unique in the database). */
export type OwnedWhatsAppId = 'whatsapp_phone_id' | 'whatsapp_business_account_id';

/** A company's channel as the webhook routes by it. */
export interface WebhookOwnerRow {
  company_id: number;
  whatsapp_phone_id: string | null;
  whatsapp_app_secret_enc: string | null;
}

/** The settings rows (one per company) and the companies' channels: the only SQL of both tables. */
export function createSettingsRepository(db: Kysely<DB>) {
  async function findSettings(companyId: number): Promise<CompanySettings | undefined> {
    return db
      .selectFrom('settings')
      .leftJoin('channels', 'channels.company_id', 'settings.company_id')
      .select([
        'settings.id',
        'settings.company_id',
        'settings.wordpress_api_key',
        'settings.wordpress_api_key_hash',
        'settings.wordpress_secret_key_enc',
        'settings.openai_api_key_enc',
        'settings.openai_model',
        'settings.openai_chat_endpoint',
        'settings.created_at',
        'settings.updated_at',
        'channels.phone_number_id as whatsapp_phone_id',
        'channels.business_account_id as whatsapp_business_account_id',
        'channels.access_token_enc as whatsapp_api_key_enc',
        'channels.app_secret_enc as whatsapp_app_secret_enc',
        'channels.verify_token as hub_verify_token',
        'channels.token_refused_at as whatsapp_token_refused_at',
        (eb) =>
          eb.fn
            .coalesce('channels.api_url', eb.val(DEFAULT_FACEBOOK_MESSAGES_API_URL))
            .as('facebook_messages_api_url'),
      ])
      .where('settings.company_id', '=', companyId)
      .executeTakeFirst();
  }

  return {
    findSettings,

    /**
     * Writes the company's settings row and channel: creates each (the URLs at their defaults unless
     * given) or changes only the columns in `values`, together. One statement per table, so two first
     * saves at once cannot make two rows.
     */
    async upsertSettings(companyId: number, values: SettingsValues): Promise<CompanySettings> {
      const at = now();
      const own: Updateable<SettingsTable> = {};
      const channel: Updateable<ChannelsTable> = {};
      for (const [key, value] of Object.entries(values)) {
        if (value === undefined) continue;
        if (key in CHANNEL_COLUMNS)
          (channel as Record<string, unknown>)[CHANNEL_COLUMNS[key as ChannelSetting]] = value;
        else (own as Record<string, unknown>)[key] = value;
      }
      return atomically(db, async (trx) => {
        await trx
          .insertInto('settings')
          .values({
            openai_chat_endpoint: DEFAULT_OPENAI_CHAT_ENDPOINT,
            ...own,
            // Unused since channels hold it (migration 20261127010100), but never null.
            facebook_messages_api_url: DEFAULT_FACEBOOK_MESSAGES_API_URL,
            company_id: companyId,
            created_at: at,
            updated_at: at,
          })
          .onConflict((oc) => oc.column('company_id').doUpdateSet({ ...own, updated_at: at }))
          .execute();
        await trx
          .insertInto('channels')
          .values({
            api_url: DEFAULT_FACEBOOK_MESSAGES_API_URL,
            ...channel,
            company_id: companyId,
            created_at: at,
            updated_at: at,
          })
          .onConflict((oc) => oc.column('company_id').doUpdateSet({ ...channel, updated_at: at }))
          .execute();
        return (await createSettingsRepository(trx).findSettings(companyId))!;
      });
    },

    /** The company whose verify token this is (the webhook's handshake), if any. */
    async findCompanyIdByHubVerifyToken(token: string): Promise<number | undefined> {
      const row = await db
        .selectFrom('channels')
        .select('company_id')
        .where('verify_token', '=', token)
        .executeTakeFirst();
      return row?.company_id;
    },

    /** The company whose channel has this WhatsApp phone number or business account id, if any. */
    async findCompanyIdByWhatsAppId(setting: OwnedWhatsAppId, id: string): Promise<number | undefined> {
      const row = await db
        .selectFrom('channels')
        .select('company_id')
        .where(CHANNEL_COLUMNS[setting], '=', id)
        .executeTakeFirst();
      return row?.company_id;
    },

    /**
     * The channels with these WhatsApp phone number ids (the webhook's routing), with their sealed app
     * secrets: one statement for a whole delivery, at most one row per id (the column is unique).
     */
    async findWebhookOwners(phoneIds: readonly string[]): Promise<WebhookOwnerRow[]> {
      if (phoneIds.length === 0) return [];
      if (phoneIds.length === 1) return (await ownerOfPhoneId(db, { phoneId: phoneIds[0]! })).rows;
      return db
        .selectFrom('channels')
        .select([
          'company_id',
          'phone_number_id as whatsapp_phone_id',
          'app_secret_enc as whatsapp_app_secret_enc',
        ])
        .where('phone_number_id', 'in', phoneIds)
        .execute();
    },

    /**
     * The channels of these WhatsApp Business Account ids (a template status webhook names the account,
     * not a phone number), with their sealed app secrets: at most one row per id (the column is unique).
     */
    async findAccountOwners(
      accountIds: readonly string[],
    ): Promise<{ company_id: number; business_account_id: string | null; app_secret_enc: string | null }[]> {
      if (accountIds.length === 0) return [];
      return db
        .selectFrom('channels')
        .select(['company_id', 'business_account_id', 'app_secret_enc'])
        .where('business_account_id', 'in', accountIds)
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
