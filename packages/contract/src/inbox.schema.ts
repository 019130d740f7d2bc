import { z } from 'zod';
import { ZEmail, ZPassword, withPasswordRules } from './identity.schema';
import { ZPagination } from './clients.schema';
import { ZTimestamp, requiredText, zId, zText } from './common.schema';
import { MESSAGE_TEXT_MAX } from './messages.schema';

// The team inbox: a company's admins and agents, who sees which conversation, and the tools of the
// conversation itself (assignment, status, internal notes, quick replies).

// --- team ---

/** The roles a company gives its own people: `admin` sees and manages everything, `agent` only chats. */
export const TEAM_ROLES = ['admin', 'agent'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** One person of the company's team. `online`: holds an open live stream (the chat screen is open). */
export const ZTeamMember = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(TEAM_ROLES),
  /** Open conversations assigned to this person. */
  open_conversations: z.number().int(),
  online: z.boolean(),
  created_at: ZTimestamp,
});
export type TeamMember = z.infer<typeof ZTeamMember>;

export const ZTeamResponse = z.object({ data: z.array(ZTeamMember) });
export type TeamResponse = z.infer<typeof ZTeamResponse>;

/** POST /admin/team: a new admin or agent of the caller's company. */
export const ZCreateTeamMemberRequest = withPasswordRules(
  z.object({
    name: requiredText(120),
    email: ZEmail,
    password: ZPassword,
    role: z.enum(TEAM_ROLES),
  }),
);
export type CreateTeamMemberRequest = z.infer<typeof ZCreateTeamMemberRequest>;

/** PUT /admin/team/{id}: like creation; an empty or absent password keeps the current one. */
export const ZUpdateTeamMemberRequest = withPasswordRules(
  z.object({
    name: requiredText(120),
    email: ZEmail,
    password: ZPassword.nullish().or(z.literal('')),
    role: z.enum(TEAM_ROLES),
  }),
);
export type UpdateTeamMemberRequest = z.infer<typeof ZUpdateTeamMemberRequest>;

export const ZTeamMemberMutationResponse = z.object({ message: z.string(), data: ZTeamMember });
export type TeamMemberMutationResponse = z.infer<typeof ZTeamMemberMutationResponse>;

// --- inbox settings ---

export const AGENT_CAPACITY_MAX = 1000;
/** The most words of one consent list (opt-out or opt-in) and the longest word. */
export const CONSENT_KEYWORDS_MAX = 20;
export const CONSENT_KEYWORD_LENGTH_MAX = 40;
/** The most hand-off phrases and the longest phrase. */
export const HANDOFF_PHRASES_MAX = 30;
export const HANDOFF_PHRASE_LENGTH_MAX = 60;
/** The longest opt-out confirmation and hand-off message. */
export const INBOX_REPLY_LENGTH_MAX = 1000;

/**
 * A list of words or phrases, one line each: at least one, at most `max`, each trimmed, on one line,
 * not empty and at most `length` characters. Each rule is reported on the list itself (not on an entry),
 * so a form shows it under its one field: `team.list_entry_empty`, `team.list_entry_too_long`
 * ({ max }), `team.list_too_long` ({ max }), `team.list_empty`.
 */
export const zWordList = (max: number, length: number) =>
  z.array(z.string().trim()).superRefine((list, ctx) => {
    if (list.length === 0) ctx.addIssue({ code: 'custom', message: 'team.list_empty' });
    if (list.length > max) ctx.addIssue({ code: 'custom', message: 'team.list_too_long', params: { max } });
    if (list.some((entry) => entry === ''))
      ctx.addIssue({ code: 'custom', message: 'team.list_entry_empty' });
    else if (list.some((entry) => entry.length > length || /[\r\n]/.test(entry)))
      ctx.addIssue({ code: 'custom', message: 'team.list_entry_too_long', params: { max: length } });
    else if (list.some((entry) => !ZWordListEntry.safeParse(entry).success))
      ctx.addIssue({ code: 'custom', message: 'validation.text_characters' });
  });

const ZWordListEntry = zText({ max: HANDOFF_PHRASE_LENGTH_MAX });

/**
 * GET/PUT /admin/inbox-settings. `agents_see_all`: agents see every conversation (otherwise only theirs
 * and the unassigned ones); `auto_assign`: new and reopened unassigned conversations go to an online
 * agent; `agent_capacity`: the most open conversations auto-assign gives one agent.
 *
 * Consent: a customer message that is exactly one of `opt_out_keywords` (the whole message, trimmed,
 * any case, accents ignored) stops the company's campaigns to that customer, one of `opt_in_keywords`
 * allows them again; `opt_out_reply` (null: none) is sent back on an opt-out.
 *
 * Hand-off: a customer message with one of `handoff_phrases` asks for a person; `handoff_message` is
 * what the customer is told then.
 */
export const ZInboxSettings = z.object({
  agents_see_all: z.boolean(),
  auto_assign: z.boolean(),
  agent_capacity: z.number().int().min(1).max(AGENT_CAPACITY_MAX),
  opt_out_keywords: zWordList(CONSENT_KEYWORDS_MAX, CONSENT_KEYWORD_LENGTH_MAX),
  opt_in_keywords: zWordList(CONSENT_KEYWORDS_MAX, CONSENT_KEYWORD_LENGTH_MAX),
  /** An empty text is no reply (null). */
  opt_out_reply: zText({ max: INBOX_REPLY_LENGTH_MAX, multiline: true })
    .nullable()
    .transform((v) => (v === '' ? null : v)),
  handoff_phrases: zWordList(HANDOFF_PHRASES_MAX, HANDOFF_PHRASE_LENGTH_MAX),
  handoff_message: requiredText(INBOX_REPLY_LENGTH_MAX, { multiline: true }),
});
export type InboxSettings = z.output<typeof ZInboxSettings>;

export const DEFAULT_OPT_OUT_KEYWORDS = ['STOP', 'BAJA', 'CANCELAR', 'ALTO'];
export const DEFAULT_OPT_IN_KEYWORDS = ['START', 'ALTA', 'SUSCRIBIR'];
export const DEFAULT_OPT_OUT_REPLY =
  'Listo, ya no te enviaremos mensajes de campañas. Si quieres volver a recibirlos, escribe ALTA.';
export const DEFAULT_HANDOFF_PHRASES = [
  'agente',
  'asesor',
  'humano',
  'persona',
  'hablar con alguien',
  'human',
  'agent',
];
export const DEFAULT_HANDOFF_MESSAGE = 'Te comunico con una persona del equipo.';

export const DEFAULT_INBOX_SETTINGS: InboxSettings = {
  agents_see_all: false,
  auto_assign: false,
  agent_capacity: 20,
  opt_out_keywords: DEFAULT_OPT_OUT_KEYWORDS,
  opt_in_keywords: DEFAULT_OPT_IN_KEYWORDS,
  opt_out_reply: DEFAULT_OPT_OUT_REPLY,
  handoff_phrases: DEFAULT_HANDOFF_PHRASES,
  handoff_message: DEFAULT_HANDOFF_MESSAGE,
};

/** PUT /admin/inbox-settings: any of the fields; the others keep their value. */
export const ZInboxSettingsRequest = ZInboxSettings.partial();
export type InboxSettingsRequest = z.input<typeof ZInboxSettingsRequest>;

export const ZInboxSettingsResponse = z.object({ data: ZInboxSettings });
export const ZInboxSettingsMutationResponse = z.object({ message: z.string(), data: ZInboxSettings });

// --- conversations ---

/** `open` until someone resolves it; a customer writing to a resolved conversation opens it again. */
export const CONVERSATION_STATUSES = ['open', 'resolved'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/**
 * The chat list's views: `mine` (open, assigned to the caller), `unassigned` (open, nobody's), `all`
 * (open, everything the caller may see), `resolved` (resolved, everything the caller may see).
 */
export const CONVERSATION_VIEWS = ['mine', 'unassigned', 'all', 'resolved'] as const;
export type ConversationView = (typeof CONVERSATION_VIEWS)[number];

export const CONVERSATIONS_PER_PAGE = 50;
export const CONVERSATIONS_PER_PAGE_MAX = 200;

export const ZConversationAssignee = z.object({ id: z.number().int(), name: z.string() });
export type ConversationAssignee = z.infer<typeof ZConversationAssignee>;

export const ZConversation = z.object({
  id: z.number().int(),
  client: z.object({
    id: z.number().int(),
    name: z.string(),
    last_names: z.string().nullable(),
    whatsapp_cellphone: z.string(),
  }),
  status: z.enum(CONVERSATION_STATUSES),
  assignee: ZConversationAssignee.nullable(),
  unread_count: z.number().int(),
  last_message_content: z.string().nullable(),
  last_message_date: ZTimestamp.nullable(),
  /** 1: the bot answers; 0: paused (a person took over). */
  mode_bot: z.union([z.literal(0), z.literal(1)]),
  /** When the 24-hour window of free messages closes; null when the customer never wrote. */
  window_expires_at: ZTimestamp.nullable(),
});
export type Conversation = z.infer<typeof ZConversation>;

/** GET /admin/conversations: one view, latest activity first; `search` as the chat list's search. */
export const ZConversationsQuery = z.object({
  view: z.enum(CONVERSATION_VIEWS).default('all'),
  search: zText({ max: 100 }).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(CONVERSATIONS_PER_PAGE_MAX).default(CONVERSATIONS_PER_PAGE),
});
export type ConversationsQuery = z.input<typeof ZConversationsQuery>;
export type ConversationsQueryParams = z.output<typeof ZConversationsQuery>;

/** The views' sizes as the caller sees them (the tabs' counts; `resolved` is not counted). */
export const ZConversationCounts = z.object({
  mine: z.number().int(),
  unassigned: z.number().int(),
  all: z.number().int(),
});
export type ConversationCounts = z.infer<typeof ZConversationCounts>;

export const ZConversationsResponse = z.object({
  data: z.array(ZConversation),
  pagination: ZPagination,
  counts: ZConversationCounts,
  /**
   * Whether the caller sees every conversation of the company: an admin, or an agent when the inbox
   * settings say `agents_see_all`. The chat shows 'Todos' and 'Resueltos' then; otherwise 'Míos' and
   * 'Sin asignar' only.
   */
  sees_all: z.boolean(),
});
export type ConversationsResponse = z.infer<typeof ZConversationsResponse>;

export const ZConversationResponse = z.object({ data: ZConversation });
export type ConversationResponse = z.infer<typeof ZConversationResponse>;

/** POST /admin/conversations/{id}/assign: a user of the company (admin or agent), or null for nobody. */
export const ZAssignConversationRequest = z.object({ user_id: zId().nullable() });
export type AssignConversationRequest = z.infer<typeof ZAssignConversationRequest>;

/** POST /admin/conversations/{id}/notes: an internal note, never sent to WhatsApp. */
export const ZConversationNoteRequest = z.object({
  text: requiredText(MESSAGE_TEXT_MAX, { multiline: true }),
});
export type ConversationNoteRequest = z.infer<typeof ZConversationNoteRequest>;

// --- quick replies ---

export const QUICK_REPLY_SHORTCUT = /^[a-z0-9_-]{1,32}$/;
export const QUICK_REPLIES_MAX = 500;

export const ZQuickReply = z.object({
  id: z.number().int(),
  shortcut: z.string(),
  text: z.string(),
  /** A file of the media library sent with the text (its caption), or null. */
  media_id: z.number().int().nullable(),
  media: z
    .object({
      id: z.number().int(),
      name: z.string(),
      mime_type: z.string(),
      url: z.string(),
    })
    .nullable(),
  created_at: ZTimestamp,
  updated_at: ZTimestamp,
});
export type QuickReply = z.infer<typeof ZQuickReply>;

export const ZQuickReplyRequest = z.object({
  shortcut: z
    .string()
    .trim()
    .min(1, { message: 'required' })
    .regex(QUICK_REPLY_SHORTCUT, { message: 'validation.quick_reply_shortcut' }),
  text: requiredText(MESSAGE_TEXT_MAX, { multiline: true }),
  media_id: zId().nullish(),
});
export type QuickReplyRequest = z.infer<typeof ZQuickReplyRequest>;

export const ZQuickRepliesResponse = z.object({ data: z.array(ZQuickReply) });
export const ZQuickReplyMutationResponse = z.object({ message: z.string(), data: ZQuickReply });
export type QuickRepliesResponse = z.infer<typeof ZQuickRepliesResponse>;
