import { z } from 'zod';
import { ZTimestamp, requiredText, zId, zIdList, zText } from './common.schema';
import { ZClientListMember } from './client-lists.schema';
import { isScheduleDateTime } from './mass-message-values';
import { TEMPLATE_PARAMETER_MAX } from './templates.schema';
import { ZMessageError } from './messages.schema';

// Client lists (the lists mass messages go to), recipient tokens and schedule texts: their own files,
// exported from here as before.
export * from './client-lists.schema';
export * from './mass-message-values';

// ---------------------------------------------------------------------------------------------------
// Mass messages (`/admin/messages-massive`): one approved template sent to every client of a list.
// ---------------------------------------------------------------------------------------------------

/** A placeholder's number as a key of `bodyParameters`: '1', '2' … */
const PLACEHOLDER_KEY = /^[1-9][0-9]{0,2}$/;

/** Multipart fields arrive as text: `bodyParameters` as JSON text, numbers as digits. */
const jsonText = (v: unknown) => {
  if (typeof v !== 'string') return v;
  if (v.trim() === '') return undefined;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
};
const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/**
 * Body of POST /admin/messages-massive: JSON, or multipart/form-data when a file is attached (then
 * `bodyParameters` is JSON text and the file is the part named `file`).
 *
 * - `name`, `message_template_id` (an APPROVED template of the company) and `list_id` are required.
 * - `bodyParameters`: one value per numbered placeholder of the template's body ({ "1": "{{Nombre}}" }),
 *   checked like a single template send (missing, blank or extra ones refused). Values may hold recipient
 *   tokens (MASS_RECIPIENT_TOKENS).
 * - `message`: the text as the screen previews it; informative, the server fills the template itself.
 * - A template with an IMAGE, VIDEO or DOCUMENT header needs its file: `file` (uploaded now, kept in the
 *   media library) or `media_id` (a file of the company's media library).
 * - `schedule` (optional): when to start. Either a zoned ISO time ('2026-11-25T15:30:00.000Z') or a
 *   datetime-local value ('2026-11-25T10:30') read in `time_zone` (an IANA zone such as
 *   'America/Bogota'; UTC when absent). Stored in UTC. Empty means now. A time more than
 *   MASS_SCHEDULE_PAST_GRACE_MS in the past is refused ('mass.schedule_past'), one more than
 *   MASS_SCHEDULE_MAX_AHEAD_MS ahead too ('mass.schedule_far'); a text that is not a real date and time
 *   (isScheduleDateTime) is refused ('mass.schedule_format').
 */
export const ZMassMessageRequest = z.object({
  name: requiredText(120),
  message_template_id: zId(),
  list_id: zId(),
  message: z.preprocess(emptyToUndefined, zText({ max: 4096, multiline: true }).optional()),
  bodyParameters: z.preprocess(
    jsonText,
    z
      .record(z.string(), zText({ max: TEMPLATE_PARAMETER_MAX }))
      .superRefine((values, ctx) => {
        for (const key of Object.keys(values)) {
          if (!PLACEHOLDER_KEY.test(key))
            ctx.addIssue({ code: 'custom', path: [key], message: 'templates.parameter_key' });
        }
      })
      .default({}),
  ),
  media_id: z.preprocess(emptyToUndefined, zId().optional()),
  schedule: z.preprocess(
    emptyToUndefined,
    z.string().trim().refine(isScheduleDateTime, { message: 'mass.schedule_format' }).optional(),
  ),
  time_zone: z.preprocess(emptyToUndefined, zText({ max: 64 }).optional()),
  /**
   * Send even though the list plus the customers reached today is over the number's daily limit: the
   * sender stops at the limit and goes on by itself as the 24-hour window frees room.
   */
  accept_tier_overflow: formBoolean(),
  /** A recipient refused by Meta's marketing frequency cap (131049) is tried once more 24 hours later. */
  retry_capped: formBoolean(),
});
export type MassMessageRequest = z.input<typeof ZMassMessageRequest>;
export type MassMessageInput = z.output<typeof ZMassMessageRequest>;

/** A yes/no of a JSON body or a multipart form ('true', '1', 'on' are yes); false when absent. */
function formBoolean() {
  return z.preprocess(
    (v) => (typeof v === 'string' ? ['true', '1', 'on'].includes(v.trim().toLowerCase()) : v),
    z.boolean().default(false),
  );
}

/** How far in the past a schedule may be and still be taken as "now" (the form's clock, slow typing). */
export const MASS_SCHEDULE_PAST_GRACE_MS = 5 * 60_000;
/** How far ahead a send may be scheduled: a year ('mass.schedule_far' beyond). */
export const MASS_SCHEDULE_MAX_AHEAD_MS = 365 * 24 * 60 * 60_000;

/**
 * A send's life:
 * - `scheduled`: waiting for `scheduled_at`;
 * - `queued`: accepted, the sender has not started yet;
 * - `sending`: the sender is working through the recipients;
 * - `paused`: stopped by an admin, resumable;
 * - `completed`: every recipient has had its try (some may have failed or be unknown);
 * - `cancelled`: stopped for good by an admin; recipients not yet sent stay `cancelled`.
 */
export const MASS_MESSAGE_STATUSES = [
  'scheduled',
  'queued',
  'sending',
  'paused',
  'completed',
  'cancelled',
] as const;
export type MassMessageStatus = (typeof MASS_MESSAGE_STATUSES)[number];

/**
 * A recipient's state:
 * - `queued`: not sent yet;
 * - `sending`: handed to WhatsApp right now;
 * - `sent`, `delivered`, `read`: WhatsApp's answer and its later status updates (never moving back);
 * - `failed`: refused (by WhatsApp, with its code and text in `error_code`/`error_message`, or before
 *   sending: no phone, a placeholder left blank);
 * - `unknown`: the process stopped while the send was in flight, so whether it left is unknown; never
 *   resent by itself, an admin may resend it on purpose;
 * - `cancelled`: the send was cancelled before this recipient's turn;
 * - `skipped`: never sent, for the reason in `skip_reason` (`opted_out`: the customer asked not to
 *   receive campaigns).
 */
export const MASS_RECIPIENT_STATUSES = [
  'queued',
  'sending',
  'sent',
  'delivered',
  'read',
  'failed',
  'unknown',
  'cancelled',
  'skipped',
] as const;
/** Why a recipient was `skipped`. */
export const MASS_SKIP_REASONS = ['opted_out'] as const;
export type MassRecipientStatus = (typeof MASS_RECIPIENT_STATUSES)[number];

/** How many recipients of a send are in each state; `total` is all of them. */
export const ZMassMessageCounts = z.object({
  total: z.number().int(),
  queued: z.number().int(),
  sending: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  failed: z.number().int(),
  unknown: z.number().int(),
  cancelled: z.number().int(),
  /** Recipients never sent (opted out); every answer of the API has it. */
  skipped: z.number().int().optional(),
});
export type MassMessageCounts = z.infer<typeof ZMassMessageCounts>;

/**
 * A mass message. `counts` are by current state (a delivered recipient counts in `delivered`, not in
 * `sent`); "sent so far" is sent + delivered + read. `scheduled_at` is the UTC time it was asked to start
 * (null for "now"); `started_at` when the sender first took it (later than `scheduled_at` when the server
 * was down at that time).
 */
export const ZMassMessage = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(MASS_MESSAGE_STATUSES),
  list_id: z.number().int().nullable(),
  list_name: z.string(),
  message_template_id: z.number().int().nullable(),
  template_name: z.string(),
  template_language: z.string(),
  /** The template body with the send's values in (recipient tokens still as written). */
  message: z.string(),
  bodyParameters: z.record(z.string(), z.string()),
  /** The header file (media library id) for a template with a media header; null otherwise. */
  media_id: z.number().int().nullable(),
  /** Messages per second the sender keeps to for this send. */
  messages_per_second: z.number().int(),
  scheduled_at: ZTimestamp.nullable(),
  started_at: ZTimestamp.nullable(),
  finished_at: ZTimestamp.nullable(),
  /** Whether a recipient refused by Meta's marketing frequency cap (131049) is tried again 24 h later. */
  retry_capped: z.boolean(),
  /**
   * While the send waits for the number's daily limit to free room ('En espera del límite diario'):
   * when it goes on; null otherwise.
   */
  waiting_limit_until: ZTimestamp.nullable(),
  counts: ZMassMessageCounts,
  created_at: ZTimestamp,
  updated_at: ZTimestamp,
});
export type MassMessage = z.infer<typeof ZMassMessage>;

/** POST /admin/messages-massive: 201. */
export const ZMassMessageResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: ZMassMessage,
});
export type MassMessageResponse = z.infer<typeof ZMassMessageResponse>;

/** A row of the history 'Todos los envíos': the send itself (id, name, status, list_name, created_at …). */
export const ZHistoryRow = ZMassMessage;
export type HistoryRow = MassMessage;

/** Page sizes the tables offer; any size from 1 to the largest is accepted. */
export const MASS_PAGE_SIZES = [5, 10, 20, 50, 100, 500] as const;

/**
 * GET /admin/mass-message-history?page=&per_page=&status=&search=: newest first. `search` matches part of
 * the send's or the list's name (ignoring case).
 */
export const ZMassMessageHistoryQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(500).default(10),
  status: z.enum(MASS_MESSAGE_STATUSES).optional(),
  search: zText({ max: 100 }).optional(),
});
export type MassMessageHistoryQuery = z.input<typeof ZMassMessageHistoryQuery>;

export const ZMassMessageHistoryResponse = z.object({
  data: z.object({
    data: z.array(ZHistoryRow),
    current_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
  }),
});
export type MassMessageHistoryResponse = z.infer<typeof ZMassMessageHistoryResponse>;

/** GET /admin/messages-massive/{id} (added by us): one send. */
export const ZMassMessageDetailResponse = z.object({ data: ZMassMessage });
export type MassMessageDetailResponse = z.infer<typeof ZMassMessageDetailResponse>;

/** One recipient of a send, as the per-recipient report shows it. */
export const ZMassRecipient = z.object({
  id: z.number().int(),
  client_id: z.number().int().nullable(),
  name: z.string(),
  last_names: z.string(),
  phone: z.string(),
  status: z.enum(MASS_RECIPIENT_STATUSES),
  /** WhatsApp's message id once it accepted the message. */
  wamid: z.string().nullable(),
  /** WhatsApp's error code and text (or our reason when it was not tried) for `failed`. */
  error_code: z.number().int().nullable(),
  error_message: z.string().nullable(),
  /** Why a `skipped` recipient was not sent; null otherwise. Every answer of the API has it. */
  skip_reason: z.enum(MASS_SKIP_REASONS).nullable().optional(),
  /** A recipient WhatsApp refused: the error explained (see ZMessageError); null otherwise. */
  error: ZMessageError.nullable(),
  /** Times the send was tried (rate-limit retries included). */
  attempts: z.number().int(),
  /** A recipient refused by the marketing frequency cap (131049) to be tried again: when ('Reintento programado'). */
  retry_at: ZTimestamp.nullable(),
  sent_at: ZTimestamp.nullable(),
  delivered_at: ZTimestamp.nullable(),
  read_at: ZTimestamp.nullable(),
  updated_at: ZTimestamp,
});
export type MassRecipient = z.infer<typeof ZMassRecipient>;

/**
 * GET /admin/messages-massive/{id}/recipients?status=&search=&page=&per_page= (added by us): the report,
 * by recipient id. `status` filters (several as 'failed,unknown'); `search` matches name, last names or
 * phone digits.
 */
export const ZMassRecipientsQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(500).default(10),
  status: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(',').map((s) => s.trim()) : undefined))
    .pipe(z.array(z.enum(MASS_RECIPIENT_STATUSES)).optional()),
  search: zText({ max: 100 }).optional(),
});
export type MassRecipientsQuery = z.input<typeof ZMassRecipientsQuery>;

export const ZMassRecipientsResponse = z.object({
  data: z.object({
    data: z.array(ZMassRecipient),
    current_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
  }),
});
export type MassRecipientsResponse = z.infer<typeof ZMassRecipientsResponse>;

/**
 * GET /admin/messages-massive/{id}/recipients/export?status= (added by us): the report as CSV
 * (text/csv; UTF-8 with a byte-order mark; file name `envio-{id}.csv`). Columns: id, client_id, name,
 * last_names, phone, status, wamid, error_code, error_message, attempts, sent_at, delivered_at, read_at.
 */
export const MASS_REPORT_CSV_COLUMNS = [
  'id',
  'client_id',
  'name',
  'last_names',
  'phone',
  'status',
  'wamid',
  'error_code',
  'error_message',
  'attempts',
  'sent_at',
  'delivered_at',
  'read_at',
] as const;
export const ZMassRecipientsExportQuery = z.object({
  status: ZMassRecipientsQuery.shape.status,
});

/**
 * POST /admin/messages-massive/{id}/pause | resume | cancel (added by us), no body: 200
 * `{ message, data: MassMessage }`. Pause: a `scheduled`, `queued` or `sending` send stops after the
 * message in flight. Resume: a paused send continues (a scheduled one whose time has not come goes back
 * to `scheduled`). Cancel: any send not finished stops for good; its unsent recipients become
 * `cancelled`. Anything else is 409 'mass.transition'.
 */
export const ZMassMessageActionResponse = z.object({ message: z.string(), data: ZMassMessage });
export type MassMessageActionResponse = z.infer<typeof ZMassMessageActionResponse>;

/**
 * POST /admin/messages-massive/{id}/resend (added by us): sends again, on purpose, recipients whose
 * state is `unknown` (the process stopped mid-send) or `failed`. `recipient_ids` picks some; without it
 * every recipient in `statuses` (default ['unknown']) is queued again. A finished send becomes `queued`
 * again. 200 `{ message, data: MassMessage, requeued }`.
 */
export const ZMassResendRequest = z.object({
  recipient_ids: zIdList({ min: 1, max: 10_000 }).optional(),
  statuses: z
    .array(z.enum(['unknown', 'failed']))
    .min(1)
    .default(['unknown']),
});
export type MassResendRequest = z.input<typeof ZMassResendRequest>;
export const ZMassResendResponse = z.object({
  message: z.string(),
  data: ZMassMessage,
  requeued: z.number().int(),
});
export type MassResendResponse = z.infer<typeof ZMassResendResponse>;

/**
 * POST /admin/messages-massive/preview (added by us): the message one real recipient would get. The
 * recipient is `client_id` when given (a client of the company), else the list's first client.
 * 200 `{ data: { client, text } }`; `text` is the template body with the values and tokens filled.
 */
export const ZMassPreviewRequest = z.object({
  message_template_id: zId(),
  list_id: zId().optional(),
  client_id: zId().optional(),
  bodyParameters: ZMassMessageRequest.shape.bodyParameters,
});
export type MassPreviewRequest = z.input<typeof ZMassPreviewRequest>;
export const ZMassPreviewResponse = z.object({
  data: z.object({ client: ZClientListMember.nullable(), text: z.string() }),
});
export type MassPreviewResponse = z.infer<typeof ZMassPreviewResponse>;

/** Messages per second a company's mass messages keep to, unless it sets another (WhatsApp's default). */
export const MASS_DEFAULT_MESSAGES_PER_SECOND = 80;
/** The most WhatsApp allows one number. */
export const MASS_MAX_MESSAGES_PER_SECOND = 1000;

/**
 * GET and PUT /admin/mass-message-settings (added by us): the company's sending pace.
 * GET → `{ data: { messages_per_second } }`; PUT with the same body → `{ message, data }`.
 */
export const ZMassSettings = z.object({
  messages_per_second: z.coerce.number().int().min(1).max(MASS_MAX_MESSAGES_PER_SECOND),
});
export type MassSettings = z.infer<typeof ZMassSettings>;
export const ZMassSettingsResponse = z.object({ data: ZMassSettings });
export const ZMassSettingsMutationResponse = z.object({ message: z.string(), data: ZMassSettings });
