import type { Generated } from 'kysely';
import type { Timestamp } from './schema';

// The tables of messages, templates and mass messages; db/schema.ts joins them into the database's type.

export interface MessagesTable {
  id: Generated<number>;
  company_id: number;
  client_id: number;
  /** WhatsApp's id of the message; unique in the company, null until WhatsApp accepted an outgoing one. */
  wamid: string | null;
  /** client, admin or bot. */
  sender_type: string;
  /** How the chat shows it: text, image, video, audio, document. */
  message_type: string;
  /** The type WhatsApp gave it (text, sticker, reaction, location…). */
  wa_type: string;
  content: string;
  phone: string;
  context_wamid: string | null;
  media_id: string | null;
  media_mime_type: string | null;
  media_file_name: string | null;
  media_caption: string | null;
  media_sha256: string | null;
  /** Where the fetched bytes are in file storage; null until fetched. */
  media_storage_key: string | null;
  /**
   * A customer's media download: pending, ready or failed (null on a customer's media: pending, its first
   * try not run yet).
   */
  media_status: Generated<string | null>;
  /** Tries of the media download made so far. */
  media_attempts: Generated<number>;
  /** 0 pending, 1 sent, 3 delivered, 2 read, 4 not sent, 5 scheduled. */
  status: number;
  /** When a scheduled message goes (or went) out; null for the others. */
  scheduled_at: Generated<Timestamp | null>;
  error_code: number | null;
  error_message: string | null;
  status_at: Timestamp | null;
  /** What was asked of WhatsApp for an outgoing message (JSON), so it can be sent again; null for customers'. */
  outbound_request: string | null;
  /** Who wrote it: customer, bot, user, campaign or system (see MessageAuthorType; the API calls it `author.type`). */
  author_kind: Generated<string>;
  /** The agent who wrote it (kind user); null when unknown or the user was deleted. */
  author_user_id: number | null;
  /** The mass message it came from (kind campaign). */
  author_mass_message_id: number | null;
  /** The message it answers (quotes). */
  reply_to_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Every status an outgoing message went through, oldest first. */
export interface MessageStatusesTable {
  id: Generated<number>;
  message_id: number;
  /** pending, sent, delivered, read or failed. */
  status: string;
  at: Timestamp;
  /** Meta's error code and title of a failure. */
  error_code: number | null;
  error_title: string | null;
}

/** WhatsApp message templates as the last sync read them (one per company, name and language). */
export interface MessageTemplatesTable {
  id: Generated<number>;
  company_id: number;
  /** WhatsApp's id of the template. */
  meta_id: string;
  name: string;
  language: string;
  /** APPROVED, PENDING, REJECTED … as WhatsApp gives it. */
  status: string;
  /** MARKETING, UTILITY, AUTHENTICATION. */
  category: string;
  /** The template's parts (HEADER, BODY, FOOTER, BUTTONS), JSON text. */
  components: string;
  /** Why Meta rejected, paused or disabled it (its status webhook); null otherwise. */
  rejected_reason: string | null;
  /** Meta's quality rating: GREEN, YELLOW, RED, UNKNOWN; null until rated. */
  quality: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ClientListsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ClientListMembersTable {
  list_id: number;
  client_id: number;
}

/** A mass message (see the mass_messages migration). */
export interface MassMessagesTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  /** scheduled, queued, sending, paused, completed, cancelled. */
  status: string;
  list_id: number | null;
  list_name: string;
  template_id: number | null;
  template_name: string;
  template_language: string;
  /** The template's BODY text as it was when the send was accepted. */
  template_body: string;
  /** The values of the body's placeholders (JSON), recipient tokens still in. */
  body_parameters: string;
  /** The header component sent with every message (JSON), for a template with a media header. */
  header: string | null;
  /** The button components sent with every message (JSON array), for a template with quick replies. */
  buttons: string | null;
  media_id: number | null;
  message: string;
  messages_per_second: number;
  scheduled_at: Timestamp | null;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  lease_owner: string | null;
  lease_until: Timestamp | null;
  /** 1: a recipient refused by Meta's marketing frequency cap (131049) is tried once more 24 h later. */
  retry_capped: Generated<number>;
  /** While the send waits for the number's daily limit to free room: when it resumes. */
  waiting_limit_until: Timestamp | null;
  /** The last count of the recipients by state (JSON). */
  counts: string;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MassMessageRecipientsTable {
  id: Generated<number>;
  mass_message_id: number;
  company_id: number;
  client_id: number | null;
  name: string;
  last_names: string;
  phone: string;
  email: string | null;
  /** queued, sending, sent, delivered, read, failed, unknown, cancelled, skipped. */
  status: string;
  /** Why a `skipped` recipient was not sent: `opted_out`. */
  skip_reason: Generated<string | null>;
  wamid: string | null;
  error_code: number | null;
  error_message: string | null;
  attempts: Generated<number>;
  /** A retry waits until then (pair rate limit, a passing error). */
  not_before: Timestamp | null;
  sent_at: Timestamp | null;
  delivered_at: Timestamp | null;
  read_at: Timestamp | null;
  updated_at: Timestamp;
}
