import { z } from 'zod';
import { ZTimestamp, zText } from './common.schema';

// --- what the library accepts: the files WhatsApp can send, with its size limit per kind ---

export const MEDIA_KINDS = ['image', 'video', 'audio', 'document'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

const MB = 1024 * 1024;

/** The largest file of each kind, in bytes (WhatsApp Cloud API's limits for media sent by link or id). */
export const MEDIA_MAX_BYTES: Readonly<Record<MediaKind, number>> = {
  image: 5 * MB,
  video: 16 * MB,
  audio: 16 * MB,
  document: 100 * MB,
};

/** The largest upload of any kind. */
export const MEDIA_UPLOAD_MAX_BYTES = Math.max(...Object.values(MEDIA_MAX_BYTES));

/**
 * The formats accepted, by the extension the stored file gets (its real type decides it, not the name
 * the file came with). `mime` is the content type the file is served with.
 */
export const MEDIA_FORMATS = {
  jpg: { kind: 'image', mime: 'image/jpeg' },
  png: { kind: 'image', mime: 'image/png' },
  mp4: { kind: 'video', mime: 'video/mp4' },
  '3gp': { kind: 'video', mime: 'video/3gpp' },
  aac: { kind: 'audio', mime: 'audio/aac' },
  amr: { kind: 'audio', mime: 'audio/amr' },
  mp3: { kind: 'audio', mime: 'audio/mpeg' },
  m4a: { kind: 'audio', mime: 'audio/mp4' },
  ogg: { kind: 'audio', mime: 'audio/ogg' },
  pdf: { kind: 'document', mime: 'application/pdf' },
  doc: { kind: 'document', mime: 'application/msword' },
  docx: {
    kind: 'document',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  },
  xls: { kind: 'document', mime: 'application/vnd.ms-excel' },
  xlsx: { kind: 'document', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  ppt: { kind: 'document', mime: 'application/vnd.ms-powerpoint' },
  pptx: {
    kind: 'document',
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  },
  txt: { kind: 'document', mime: 'text/plain' },
} as const satisfies Record<string, { kind: MediaKind; mime: string }>;
export type MediaExtension = keyof typeof MEDIA_FORMATS;

/** For a file input's `accept`: the extensions a person may pick (jpeg as well as jpg). */
export const MEDIA_ACCEPT = ['.jpeg', ...Object.keys(MEDIA_FORMATS).map((ext) => `.${ext}`)].join(',');

/** The kind a file name's extension suggests, for the screens' icons (the server decides from the bytes). */
export function mediaKindOfName(name: string): MediaKind | undefined {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  if (ext === 'jpeg') return 'image';
  return (MEDIA_FORMATS as Record<string, { kind: MediaKind }>)[ext]?.kind;
}

/** The longest original name kept (longer names are shortened, keeping their extension). */
export const MEDIA_NAME_MAX = 200;
/** Most items one page of GET /admin/media/user may carry (also the size of a page when none is asked). */
export const MEDIA_PER_PAGE_MAX = 1000;

// --- schemas ---

/**
 * A library file. `file_name` is the name it was uploaded with (for display and search); `file_path` is
 * where it is served, under `/storage/`; `url` is the same as an absolute address (what WhatsApp fetches).
 */
export const ZMediaItem = z.object({
  id: z.number().int(),
  file_name: z.string(),
  file_path: z.string(),
  url: z.string(),
  mime_type: z.string(),
  kind: z.enum(MEDIA_KINDS),
  size: z.number().int(),
  created_at: ZTimestamp,
});
export type MediaItem = z.infer<typeof ZMediaItem>;

/** POST /api/v1/media/upload and /api/v1/admin/media/upload (multipart field `file`) → 201. */
export const ZMediaUploadResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  media: ZMediaItem,
});
export type MediaUploadResponse = z.infer<typeof ZMediaUploadResponse>;

/**
 * GET /api/v1/admin/media/user query (added by us, all optional): newest first; `search` matches part of
 * the original name, ignoring case and accents; `page` from 1 and `per_page` up to MEDIA_PER_PAGE_MAX.
 */
export const ZMediaListQuery = z.object({
  search: zText({ max: 100 }).optional(),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(MEDIA_PER_PAGE_MAX).default(MEDIA_PER_PAGE_MAX),
});
export type MediaListQuery = z.input<typeof ZMediaListQuery>;

export const ZMediaListResponse = z.object({
  media: z.array(ZMediaItem),
  pagination: z.object({
    current_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    last_page: z.number().int(),
  }),
});
export type MediaListResponse = z.infer<typeof ZMediaListResponse>;
