import { z } from 'zod';
import { ZHexColor, ZTimestamp, cleanText, requiredText, zHttpUrl, zIdList, zText } from './common.schema';

// --- limits and constants of clients, segments and the import ---

/** WhatsApp numbers are stored as digits only, country code included (E.164 without the '+'). */
export const PHONE_MIN_DIGITS = 10;
export const PHONE_MAX_DIGITS = 15;
export const CLIENT_NAME_MAX = 120;
export const CLIENT_PROJECTS_MAX = 5000;
export const SEGMENT_NAME_MAX = 80;
export const SEGMENT_RULES_MAX = 5000;
/** Most rows one POST /import/clients may carry. */
export const IMPORT_MAX_ROWS = 10_000;
export const BOT_MODES = [0, 1] as const;

/**
 * Normalises a phone number as typed ('+34 600-12-34-56', '0034 (600) 12.34.56') to digits with the
 * country code ('34600123456'). Only formatting is removed: letters stay, so validation can reject them.
 */
export function normalizePhone(input: string): string {
  let s = input.trim().replace(/[\s\-.()/]/g, '');
  if (s.startsWith('+')) s = s.slice(1);
  else if (s.startsWith('00')) s = s.slice(2);
  return s;
}

/** A cell or field that may arrive as a number (spreadsheets, typed inputs) is read as text. */
const asText = (v: unknown) => (typeof v === 'number' || typeof v === 'bigint' ? String(v) : v);

export const ZWhatsappCellphone = z.preprocess(
  asText,
  z
    .string()
    .transform(normalizePhone)
    .pipe(
      z
        .string()
        .min(1, { abort: true })
        .regex(/^\d+$/, { message: 'clients.phone_numeric', abort: true })
        .min(PHONE_MIN_DIGITS, { message: 'clients.phone_min' })
        .max(PHONE_MAX_DIGITS, { message: 'clients.phone_max' }),
    ),
);

export const ZClientEmail = z.preprocess(
  asText,
  z.string().trim().toLowerCase().min(1, { abort: true }).max(191).pipe(z.email()),
);

/**
 * Optional text (the shared text rules): absent (undefined) leaves the stored value as it is; null, ''
 * or only invisible characters clear it.
 */
const optionalText = (max: number, options: { multiline?: boolean; url?: boolean } = {}) =>
  z.preprocess(
    (v) => {
      const text = asText(v);
      return typeof text === 'string' && cleanText(text) === '' ? null : text;
    },
    (options.url ? zHttpUrl(max) : zText({ max, multiline: options.multiline }))
      .nullish()
      .transform((v) => (v === undefined ? undefined : v || null)),
  );

// --- segments ---

/** A segment as a client carries it: enough to draw the coloured chip. */
export const ZSegmentChip = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.string(),
});
export type SegmentChip = z.infer<typeof ZSegmentChip>;

export const ZSegment = ZSegmentChip.extend({
  rules: z.string(),
  /** How many clients are in the segment (the delete confirmation can mention it). */
  clients_count: z.number().int(),
  created_at: ZTimestamp,
  updated_at: ZTimestamp,
});
export type Segment = z.infer<typeof ZSegment>;

export const ZSegmentRequest = z.object({
  name: requiredText(SEGMENT_NAME_MAX),
  color: z.string().trim().pipe(ZHexColor),
  rules: requiredText(SEGMENT_RULES_MAX, { multiline: true }),
});
export type SegmentRequest = z.infer<typeof ZSegmentRequest>;

export const ZSegmentsResponse = z.object({ segments: z.array(ZSegment), message: z.string() });
export type SegmentsResponse = z.infer<typeof ZSegmentsResponse>;
export const ZSegmentMutationResponse = z.object({ segment: ZSegment, message: z.string() });
export type SegmentMutationResponse = z.infer<typeof ZSegmentMutationResponse>;

// --- clients ---

export const ZBotMode = z.literal(BOT_MODES);
export type BotMode = z.infer<typeof ZBotMode>;

/**
 * A client as every response carries it. `segments` are chips ({ id, name, color }) so the table can
 * draw them without a second call; a form sends them back as ids (`segments.map((s) => s.id)`).
 * The chat fields live on the client row, so the chat list never scans messages.
 */
export const ZClient = z.object({
  id: z.number().int(),
  name: z.string(),
  last_names: z.string(),
  /** Digits only, country code included: '34600123456'. */
  whatsapp_cellphone: z.string(),
  /** Null for clients that first wrote through WhatsApp and were never completed. */
  email: z.string().nullable(),
  avatar: z.string().nullable(),
  projects: z.string().nullable(),
  segments: z.array(ZSegmentChip),
  mode_bot: ZBotMode,
  last_message_content: z.string().nullable(),
  last_message_date: ZTimestamp.nullable(),
  unread_messages_count: z.number().int(),
  /**
   * When the customer asked not to receive campaigns (an opt-out word, or Meta's 131050); null: they may.
   * Every answer of the API has it.
   */
  opted_out_at: ZTimestamp.nullable().optional(),
  created_at: ZTimestamp,
  updated_at: ZTimestamp,
});
export type Client = z.infer<typeof ZClient>;

/** The chat list's row: the client with its last-message data, which ZClient already holds. */
export const ZChatClient = ZClient;
export type ChatClient = Client;

/**
 * Body of POST /admin/client and PUT /admin/client/{id} (the client form). `avatar` and
 * `projects` may be left out: on update that keeps what the client has (an avatar from WhatsApp, say).
 */
export const ZClientRequest = z.object({
  name: requiredText(CLIENT_NAME_MAX),
  last_names: requiredText(CLIENT_NAME_MAX),
  whatsapp_cellphone: ZWhatsappCellphone,
  email: ZClientEmail,
  /** An http(s) address of the picture; any other scheme (javascript:, data:) is refused. */
  avatar: optionalText(2048, { url: true }),
  projects: optionalText(CLIENT_PROJECTS_MAX, { multiline: true }),
  /** Segment ids of the caller's company; at least one. */
  segments: zIdList({ max: 200 }).min(1, { message: 'clients.segments_required' }),
});
export type ClientRequest = z.input<typeof ZClientRequest>;
export type ClientInput = z.output<typeof ZClientRequest>;

/** The most clients one answer of GET /admin/client or messages-summary holds: bounded work per request. */
export const CLIENTS_PER_PAGE_MAX = 1000;

/** Columns GET /admin/client can sort by; `name` sorts by name, then last names. */
export const CLIENT_SORT_FIELDS = ['id', 'name', 'whatsapp_cellphone', 'email', 'created_at'] as const;
export type ClientSortField = (typeof CLIENT_SORT_FIELDS)[number];

/**
 * GET /admin/client query (added by us, all optional). Without it the answer is the first
 * CLIENTS_PER_PAGE_MAX clients, oldest first, and `pagination` says whether there are more.
 * `search` ignores case and accents ('ANGEL' finds 'Ángel') and matches part of the name and last
 * names, the email, or the phone's digits.
 */
export const ZClientsQuery = z.object({
  search: zText({ max: 100 }).optional(),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(CLIENTS_PER_PAGE_MAX).default(CLIENTS_PER_PAGE_MAX),
  sort: z.enum(CLIENT_SORT_FIELDS).default('id'),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export type ClientsQuery = z.input<typeof ZClientsQuery>;
/** The query as the server reads it, defaults filled in. */
export type ClientsQueryParams = z.output<typeof ZClientsQuery>;

/** Where one page sits in the whole list; `last_page` is at least 1, also for an empty list. */
export const ZPagination = z.object({
  current_page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  last_page: z.number().int(),
});
export type Pagination = z.infer<typeof ZPagination>;

/** GET /admin/client: one page of clients plus the page's heading and subtitle, localised by the server. */
export const ZClientsResponse = z.object({
  clients: z.array(ZClient),
  message: z.string(),
  title: z.string(),
  subtitle: z.string(),
  pagination: ZPagination,
});
export type ClientsResponse = z.infer<typeof ZClientsResponse>;

/**
 * GET /admin/client/messages-summary query (added by us, all optional): one page of the chat list,
 * latest conversation first. Without `per_page` a page holds CLIENTS_PER_PAGE_MAX clients, the most any
 * answer holds, and `pagination.has_more` says whether more follow (ask for `page` 2, 3…). `search`
 * ignores case and accents ('NUÑEZ' finds 'Núñez') and matches part of the name and last names, the
 * email, or the phone's digits.
 */
export const ZMessagesSummaryQuery = z.object({
  search: zText({ max: 100 }).optional(),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(CLIENTS_PER_PAGE_MAX).default(CLIENTS_PER_PAGE_MAX),
});
export type MessagesSummaryQuery = z.input<typeof ZMessagesSummaryQuery>;
/** The query as the server reads it, defaults filled in. */
export type MessagesSummaryQueryParams = z.output<typeof ZMessagesSummaryQuery>;

export const ZMessagesSummaryResponse = z.object({
  clients: z.array(ZChatClient),
  pagination: z.object({
    current_page: z.number().int(),
    /** The page size used: the one asked for, else CLIENTS_PER_PAGE_MAX. */
    per_page: z.number().int(),
    /** True when clients follow this page. */
    has_more: z.boolean(),
  }),
});
export type MessagesSummaryResponse = z.infer<typeof ZMessagesSummaryResponse>;

/** GET /admin/client/{id} (added by us: the chat opens a client by id). */
export const ZClientResponse = z.object({ client: ZClient });
export type ClientResponse = z.infer<typeof ZClientResponse>;

export const ZClientMutationResponse = z.object({ client: ZClient, message: z.string() });
export type ClientMutationResponse = z.infer<typeof ZClientMutationResponse>;

export const ZToggleBotModeRequest = z.object({ mode: ZBotMode });
export type ToggleBotModeRequest = z.infer<typeof ZToggleBotModeRequest>;

// --- import ---

/**
 * Accepted CSV headers, matched without regard to case, accents, spaces or a byte-order mark.
 * Unknown columns (an exported `id`, say) are ignored.
 */
export const IMPORT_COLUMNS = {
  name: ['nombre', 'nombres', 'name', 'first_name', 'firstname'],
  last_names: ['apellidos', 'apellido', 'last_names', 'last_name', 'lastname', 'surname', 'surnames'],
  whatsapp_cellphone: [
    'celular',
    'whatsapp',
    'whatsapp_cellphone',
    'phone',
    'telefono',
    'movil',
    'mobile',
    'cellphone',
  ],
  email: ['correo', 'correo_electronico', 'email', 'e_mail', 'mail'],
  projects: ['proyectos', 'proyecto', 'projects', 'project'],
  segments: ['segmentos', 'segmento', 'segments', 'segment'],
} as const;
export type ImportColumn = keyof typeof IMPORT_COLUMNS;
/**
 * Folds a name for comparisons that ignore case, accents and spacing ('Clientes  VIP' ≈ 'clientés vip'):
 * how segment names are kept unique and how the import matches headers and segment names.
 */
export function foldText(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .trim()
    .replace(/\s+/g, ' ');
}

/** A CSV header as the import matches it: folded, spaces, dashes and dots as underscores. */
export function importHeaderKey(header: string): string {
  return foldText(header).replace(/[\s\-.]+/g, '_');
}

const COLUMN_OF_HEADER = new Map<string, ImportColumn>(
  (Object.entries(IMPORT_COLUMNS) as [ImportColumn, readonly string[]][]).flatMap(([column, aliases]) =>
    aliases.map((alias) => [importHeaderKey(alias), column] as const),
  ),
);

/** The column a file's header stands for ('\uFEFFTeléfono' → 'whatsapp_cellphone'); undefined if none. */
export function importColumnOf(header: string): ImportColumn | undefined {
  return COLUMN_OF_HEADER.get(importHeaderKey(header));
}

/** Separators between segment names inside the segments cell. */
export const IMPORT_SEGMENT_SEPARATORS = /[,;|]/;

/** Body of POST /import/clients: the CSV rows keyed by their header, as Papa Parse gives them. */
export const ZImportClientsRequest = z.object({
  clients: z
    .array(z.record(z.string(), z.unknown()))
    .min(1, { message: 'clients.import_empty' })
    .max(IMPORT_MAX_ROWS, { message: 'clients.import_too_many' }),
});
export type ImportClientsRequest = z.infer<typeof ZImportClientsRequest>;

export const ZImportError = z.object({
  /** 1-based position of the row among the posted rows. */
  row: z.number().int(),
  /** Name and last names, else the phone, else 'Fila n'. */
  name: z.string(),
  /** Every reason the row was refused, in the caller's language. */
  message: z.string(),
});
export type ImportError = z.infer<typeof ZImportError>;

export const ZImportSuccess = z.object({
  row: z.number().int(),
  name: z.string(),
  action: z.enum(['created', 'updated']),
});
export type ImportSuccess = z.infer<typeof ZImportSuccess>;

export const ZImportClientsResponse = z.object({
  data: z.object({ error: z.array(ZImportError), success: z.array(ZImportSuccess) }),
  /** A one-line summary ('Importación completada: 2 creados, 1 actualizado, 1 con errores.'). */
  message: z.string(),
});
export type ImportClientsResponse = z.infer<typeof ZImportClientsResponse>;
