import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type {
  ClientListMembersTable,
  ClientListsTable,
  MassMessageRecipientsTable,
  MassMessagesTable,
  MessageStatusesTable,
  MessageTemplatesTable,
  MessagesTable,
} from './schema-messaging';

/** Timestamps are ISO 8601 strings in UTC on both engines (see database.ts for PostgreSQL's parser). */
export type Timestamp = string;

// The messages, templates and mass messages tables are in schema-messaging.ts.
export type * from './schema-messaging';

export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  /** The pace of the company's mass messages; null: the default. */
  mass_messages_per_second: Generated<number | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  password_hash: string;
  company_id: number | null;
  language: string;
  /** When an open live stream last showed the user present ("online" is a recent one). */
  stream_seen_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RolesTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  color: string;
  builtin: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
}

export interface AccessTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  expires_at: Timestamp;
}

export interface SegmentsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  /** The name folded (lower case, no accents): unique per company. */
  name_key: string;
  color: string;
  rules: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ClientsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  last_names: Generated<string>;
  /** Digits only, country code included. */
  whatsapp_cellphone: string;
  /**
   * The phone's matching key, computed by the database (platform/phone.ts `phoneKey`): unique per company,
   * so a WhatsApp id and a typed number that differ by a mobile variant are one client.
   */
  phone_key: Generated<string>;
  email: string | null;
  avatar: string | null;
  projects: string | null;
  // mode_bot, last_message_content, last_message_date, unread_messages_count and messages_count are
  // still columns of the table, unused since the chat state moved to conversations (20261127010000).
  wa_user_id: string | null;
  /** Kept by the repository: the name, then the last names, folded (see `derivedColumns`). */
  name_sort: Generated<string>;
  /** Kept by the repository: name, last names and email, folded; what searches match. */
  search_text: Generated<string>;
  /** When the customer asked not to receive campaigns (an opt-out word, Meta's 131050); null: they may. */
  opted_out_at: Generated<Timestamp | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The chat with a client on one of the company's WhatsApp numbers (migration 20261127010000). */
export interface ConversationsTable {
  id: Generated<number>;
  company_id: number;
  client_id: number;
  channel_id: number | null;
  /** open, resolved. */
  status: Generated<string>;
  assignee_user_id: number | null;
  unread_count: Generated<number>;
  last_message_content: string | null;
  last_message_at: Timestamp | null;
  /** 1 when an admin took the chat over and the bot does not answer. */
  bot_paused: Generated<number>;
  /** The customer's newest message (the 24-hour window), kept by a trigger on messages. */
  customer_last_message_at: Timestamp | null;
  /** Messages of the conversation, kept by a trigger on messages. */
  messages_count: Generated<number>;
  /** When it was last resolved (null while open, or never resolved). */
  resolved_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Who sees which conversation and how they are handed out; one row per company once saved. */
/** A company's business hours (modules/business-hours/business-hours.repository.ts); JSON arrays in `days`, `holidays`. */
export interface BusinessHoursTable {
  company_id: number;
  timezone: string;
  days: string;
  holidays: string;
  away_enabled: Generated<number>;
  away_message: string;
  away_with_bot: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Per client, the closed period whose away message they got (its end, or 'never'). */
export interface AwayRepliesTable {
  client_id: number;
  company_id: number;
  period: string;
  sent_at: Timestamp;
}

export interface InboxSettingsTable {
  company_id: number;
  agents_see_all: Generated<number>;
  auto_assign: Generated<number>;
  agent_capacity: Generated<number>;
  /** JSON arrays of text (see modules/team/inbox-settings.repository.ts). */
  opt_out_keywords: Generated<string>;
  opt_in_keywords: Generated<string>;
  /** The confirmation sent to a customer who opted out; null: none. */
  opt_out_reply: Generated<string | null>;
  handoff_phrases: Generated<string>;
  handoff_message: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Listed conversations (with a message) by company, status and assignee (0: nobody), kept by a trigger. */
export interface InboxCountsTable {
  company_id: number;
  status: string;
  assignee_user_id: number;
  n: number;
}

/** When auto-assign last gave each agent a conversation (agents with the same load take turns). */
export interface InboxAgentTurnsTable {
  user_id: number;
  company_id: number;
  last_assigned_at: Timestamp;
}

/** A company's saved answers, by shortcut (unique within the company). */
export interface QuickRepliesTable {
  id: Generated<number>;
  company_id: number;
  shortcut: string;
  text: string;
  media_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ClientSegmentsTable {
  client_id: number;
  segment_id: number;
}

export interface SettingsTable {
  id: Generated<number>;
  company_id: number;
  /** Columns ending in `_enc` hold secrets sealed with APP_KEY (platform/secrets.ts). */
  // whatsapp_api_key_enc, whatsapp_phone_id, whatsapp_business_account_id, whatsapp_app_secret_enc and
  // hub_verify_token are still columns, empty and unused since the WhatsApp number moved to channels
  // (20261127010100). This one cannot be null: rows are written with the default, channels hold the URL.
  facebook_messages_api_url: string;
  wordpress_api_key: string | null;
  /** SHA-256 (hex) of wordpress_api_key: the WordPress endpoint's lookup. */
  wordpress_api_key_hash: string | null;
  wordpress_secret_key_enc: string | null;
  openai_api_key_enc: string | null;
  openai_model: string | null;
  openai_chat_endpoint: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A company's WhatsApp number, its identity and credentials (migration 20261127010100). */
export interface ChannelsTable {
  id: Generated<number>;
  company_id: number;
  /** whatsapp (the only kind today). */
  kind: Generated<string>;
  phone_number_id: string | null;
  business_account_id: string | null;
  /** The number as people dial it, digits only. */
  display_phone: string | null;
  /** Sealed with APP_KEY (platform/secrets.ts), like every column ending in `_enc`. */
  access_token_enc: string | null;
  app_secret_enc: string | null;
  /** The webhook's verification handshake finds the company by it. */
  verify_token: string | null;
  /** The Graph API address messages are sent to. */
  api_url: string;
  /** What Meta said about the number at the last connection test or daily read (null: never read). */
  throughput_level: string | null;
  messaging_limit_tier: string | null;
  quality_rating: string | null;
  limits_read_at: Timestamp | null;
  /** When WhatsApp last refused the access token (190); null while it works (20261130204500). */
  token_refused_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MediaTable {
  id: Generated<number>;
  company_id: number;
  user_id: number | null;
  /** The name the file was uploaded with (cleaned), for display and search. */
  file_name: string;
  /** file_name folded (lower case, no accents). */
  name_key: string;
  /** Where the bytes are in file storage (a random name). */
  storage_key: string;
  mime_type: string;
  kind: string;
  /** Bytes; bigint on PostgreSQL, which pg returns as text unless cast. */
  size: number | string;
  sha256: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BotsTable {
  id: Generated<number>;
  company_id: number;
  bot_name: string;
  /** The bot's system prompt. */
  personality: string;
  /** 1 active, 0 inactive. */
  state: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InstructionsTable {
  id: Generated<number>;
  bot_id: number;
  /** The instruction's name. */
  ask: string;
  /** The instruction's description. */
  reply: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InstructionSegmentsTable {
  instruction_id: number;
  segment_id: number;
}

/** The in-process job runner's queue (platform/jobs/database-jobs.ts). */
export interface JobsTable {
  id: Generated<number>;
  name: string;
  payload: string;
  state: 'pending' | 'running' | 'failed';
  run_at: Timestamp;
  attempts_made: Generated<number>;
  max_attempts: number;
  backoff_ms: number;
  dedupe_key: string | null;
  locked_by: string | null;
  locked_until: Timestamp | null;
  /** The request that queued it (its X-Request-Id), for the job's log lines. */
  request_id: string | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Domain events waiting for, or handled by, their subscribers (platform/outbox/outbox.ts). */
export interface OutboxTable {
  id: Generated<number>;
  type: string;
  company_id: number;
  payload: string;
  state: 'pending' | 'done' | 'failed';
  attempts: Generated<number>;
  handled: Generated<string>;
  available_at: Timestamp;
  locked_by: string | null;
  locked_until: Timestamp | null;
  last_error: string | null;
  created_at: Timestamp;
  done_at: Timestamp | null;
}

/** WhatsApp deliveries taken by the webhook, processed from here (modules/messaging/webhook-inbox.ts). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  received_at: Timestamp;
  body: string;
  company_ids: Generated<string>;
  status: 'pending' | 'processing' | 'done' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  locked_by: string | null;
  locked_until: Timestamp | null;
  last_error: string | null;
  processed_at: Timestamp | null;
}

export interface DB {
  companies: CompaniesTable;
  users: UsersTable;
  roles: RolesTable;
  user_roles: UserRolesTable;
  access_tokens: AccessTokensTable;
  segments: SegmentsTable;
  clients: ClientsTable;
  client_segments: ClientSegmentsTable;
  conversations: ConversationsTable;
  inbox_settings: InboxSettingsTable;
  business_hours: BusinessHoursTable;
  away_replies: AwayRepliesTable;
  inbox_agent_turns: InboxAgentTurnsTable;
  inbox_counts: InboxCountsTable;
  quick_replies: QuickRepliesTable;
  settings: SettingsTable;
  channels: ChannelsTable;
  bots: BotsTable;
  instructions: InstructionsTable;
  instruction_segments: InstructionSegmentsTable;
  media: MediaTable;
  jobs: JobsTable;
  outbox: OutboxTable;
  webhook_deliveries: WebhookDeliveriesTable;
  messages: MessagesTable;
  message_statuses: MessageStatusesTable;
  message_templates: MessageTemplatesTable;
  client_lists: ClientListsTable;
  client_list_members: ClientListMembersTable;
  mass_messages: MassMessagesTable;
  mass_message_recipients: MassMessageRecipientsTable;
}

export type CompanyRow = Selectable<CompaniesTable>;
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type RoleRow = Selectable<RolesTable>;
export type AccessTokenRow = Selectable<AccessTokensTable>;
export type SegmentRow = Selectable<SegmentsTable>;
export type ClientRow = Selectable<ClientsTable>;
export type SettingsRow = Selectable<SettingsTable>;
export type BotRow = Selectable<BotsTable>;
export type InstructionRow = Selectable<InstructionsTable>;
export type MediaRow = Selectable<MediaTable>;
export type MessageRow = Selectable<MessagesTable>;
export type MessageTemplateRow = Selectable<MessageTemplatesTable>;
