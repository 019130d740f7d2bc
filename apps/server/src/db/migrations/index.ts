import type { Migration } from 'kysely';
import * as m20261122000000 from './20261122000000_identity';
import * as m20261122010000 from './20261122010000_clients';
import * as m20261122010100 from './20261122010100_clients_chat_order';
import * as m20261122030000 from './20261122030000_settings';
import * as m20261123010000 from './20261123010000_bots';
import * as m20261123000000 from './20261123000000_clients_list';
import * as m20261122031500 from './20261122031500_media';
import * as m20261124000000 from './20261124000000_jobs';
import * as m20261124010000 from './20261124010000_messages';
import * as m20261124020000 from './20261124020000_messages_outbound';
import * as m20261124050000 from './20261124050000_messages_pending';
import * as m20261124060000 from './20261124060000_messages_company_client';
import * as m20261124070000 from './20261124070000_messages_customer_last';
import * as m20261124080000 from './20261124080000_jobs_request_id';
import * as m20261124030000 from './20261124030000_message_templates';
import * as m20261125000000 from './20261125000000_mass_messages';
import * as m20261125100000 from './20261125100000_messages_by_day';
import * as m20261126000000 from './20261126000000_clients_messages_count';
import * as m20261126100000 from './20261126100000_settings_whatsapp_owner';
import * as m20261126200000 from './20261126200000_clients_unread_idx';
import * as m20261127000000 from './20261127000000_outbox';
import * as m20261127010000 from './20261127010000_conversations';
import * as m20261127010100 from './20261127010100_channels';
import * as m20261127020000 from './20261127020000_message_authorship';
import * as m20261128000000 from './20261128000000_team_inbox';
import * as m20261128010000 from './20261128010000_inbox_views';
import * as m20261128020000 from './20261128020000_templates_review';
import * as m20261129000000 from './20261129000000_clients_phone_key';
import * as m20261129010000 from './20261129010000_clients_search_index';
import * as m20261130203000 from './20261130203000_message_media_status';
import * as m20261130194500 from './20261130194500_consent';
import * as m20261130201000 from './20261130201000_webhook_deliveries';
import * as m20261130210500 from './20261130210500_business_hours';
import * as m20261130202500 from './20261130202500_mass_limits';
import * as m20261130200000 from './20261130200000_scheduled_messages';
import * as m20261130200500 from './20261130200500_mass_message_buttons';
import * as m20261130204500 from './20261130204500_channel_token_status';
import * as m20261130212000 from './20261130212000_inbox_counts_lock_order';
import * as m20261130213500 from './20261130213500_scheduled_messages_idx';

/** Every migration, by name; names sort in the order they run. A merged migration is never edited. */
export const migrations: Record<string, Migration> = {
  '20261122000000_identity': m20261122000000,
  '20261122010000_clients': m20261122010000,
  '20261122010100_clients_chat_order': m20261122010100,
  '20261122030000_settings': m20261122030000,
  '20261123000000_clients_list': m20261123000000,
  '20261123010000_bots': m20261123010000,
  '20261122031500_media': m20261122031500,
  '20261124000000_jobs': m20261124000000,
  '20261124010000_messages': m20261124010000,
  '20261124020000_messages_outbound': m20261124020000,
  '20261124030000_message_templates': m20261124030000,
  '20261124050000_messages_pending': m20261124050000,
  '20261124060000_messages_company_client': m20261124060000,
  '20261124070000_messages_customer_last': m20261124070000,
  '20261124080000_jobs_request_id': m20261124080000,
  '20261125000000_mass_messages': m20261125000000,
  '20261125100000_messages_by_day': m20261125100000,
  '20261126000000_clients_messages_count': m20261126000000,
  '20261126100000_settings_whatsapp_owner': m20261126100000,
  '20261126200000_clients_unread_idx': m20261126200000,
  '20261127000000_outbox': m20261127000000,
  '20261127010000_conversations': m20261127010000,
  '20261127010100_channels': m20261127010100,
  '20261127020000_message_authorship': m20261127020000,
  '20261128000000_team_inbox': m20261128000000,
  '20261128010000_inbox_views': m20261128010000,
  '20261128020000_templates_review': m20261128020000,
  '20261129000000_clients_phone_key': m20261129000000,
  '20261129010000_clients_search_index': m20261129010000,
  '20261130203000_message_media_status': m20261130203000,
  '20261130194500_consent': m20261130194500,
  '20261130201000_webhook_deliveries': m20261130201000,
  '20261130210500_business_hours': m20261130210500,
  '20261130202500_mass_limits': m20261130202500,
  '20261130200000_scheduled_messages': m20261130200000,
  '20261130200500_mass_message_buttons': m20261130200500,
  '20261130204500_channel_token_status': m20261130204500,
  '20261130212000_inbox_counts_lock_order': m20261130212000,
  '20261130213500_scheduled_messages_idx': m20261130213500,
};
