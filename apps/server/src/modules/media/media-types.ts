import { MEDIA_FORMATS, MEDIA_NAME_MAX, type MediaExtension, type MediaKind } from '@hablabot/contract';

/** What the content sniffer (`file-type`) said about the first bytes: its extension, or nothing. */
export interface Detected {
  ext: string;
  mime: string;
}

/**
 * The verdict on a file's first bytes:
 * - `accept`: the format is known for sure (a JPEG, an MP3, a PDF …);
 * - `zip`: a zip archive — an Office document (docx, xlsx, pptx) only if its entries say so, which is
 *   checked on the whole file once it is on disk;
 * - `text`: no format signature and the name says .txt — accepted only if every byte turns out to be
 *   plain UTF-8 text (checked while it streams);
 * - `refuse`: not a format WhatsApp can send.
 */
export type HeadVerdict =
  | { status: 'accept'; ext: MediaExtension }
  | { status: 'zip' }
  | { status: 'text' }
  | { status: 'refuse' };

/** file-type's extension → ours. APNG is a PNG; Opus is stored as .ogg (WhatsApp's audio/ogg). */
const SNIFFED: Record<string, MediaExtension> = {
  jpg: 'jpg',
  png: 'png',
  apng: 'png',
  mp4: 'mp4',
  '3gp': '3gp',
  aac: 'aac',
  amr: 'amr',
  mp3: 'mp3',
  m4a: 'm4a',
  opus: 'ogg',
  pdf: 'pdf',
  docx: 'docx',
  xlsx: 'xlsx',
  pptx: 'pptx',
};

/** Old Office files share one container format (OLE2/CFB); which of the three it is comes from the name. */
const OLE_OFFICE = new Set<MediaExtension>(['doc', 'xls', 'ppt']);

/** The lower-case extension of a file name ('' when it has none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * Decides from the sniffed type of the first bytes (and, only where the bytes cannot tell, the name's
 * extension) what the file is. The type the browser declared is never consulted.
 */
export function judgeHead(detected: Detected | undefined, originalName: string): HeadVerdict {
  const nameExt = extensionOf(originalName);
  if (!detected) return nameExt === 'txt' ? { status: 'text' } : { status: 'refuse' };
  const known = SNIFFED[detected.ext];
  if (known && known !== 'docx' && known !== 'xlsx' && known !== 'pptx')
    return { status: 'accept', ext: known };
  if (known || detected.ext === 'zip') return { status: 'zip' };
  if (detected.ext === 'cfb' && OLE_OFFICE.has(nameExt as MediaExtension)) {
    return { status: 'accept', ext: nameExt as MediaExtension };
  }
  return { status: 'refuse' };
}

/** The verdict on a whole zip archive: an Office document, or refused. */
export function judgeZip(detected: Detected | undefined): MediaExtension | undefined {
  const ext = detected && SNIFFED[detected.ext];
  return ext === 'docx' || ext === 'xlsx' || ext === 'pptx' ? ext : undefined;
}

export function kindOf(ext: MediaExtension): MediaKind {
  return MEDIA_FORMATS[ext].kind;
}

/** The content type a stored file is served with (text is always declared UTF-8: nothing else is accepted). */
export function contentTypeOf(ext: string): string | undefined {
  const format = (MEDIA_FORMATS as Record<string, { mime: string }>)[ext];
  if (!format) return undefined;
  return ext === 'txt' ? 'text/plain; charset=utf-8' : format.mime;
}

// --- text files ---

/**
 * Checks text as it streams: UTF-8 only (a byte order mark is fine), no control characters other than
 * tab, line feed, form feed and carriage return, and no markup at the start — a text file that opens
 * with '<' is HTML, SVG or XML in disguise, which a browser could be tricked into running.
 */
export function createTextCheck() {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let started = false;
  let ok = true;
  const check = (text: string) => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    if (/[\u0000-\u0008\u000B\u000E-\u001F\u007F]/.test(text)) ok = false;
    if (!started) {
      const visible = text.replace(/^[\uFEFF\s]+/, '');
      if (visible !== '') {
        started = true;
        if (visible.startsWith('<')) ok = false;
      }
    }
  };
  return {
    push(chunk: Uint8Array) {
      if (!ok) return;
      try {
        check(decoder.decode(chunk, { stream: true }));
      } catch {
        ok = false;
      }
    },
    /** True when everything pushed was acceptable text (and something visible was in it). */
    end(): boolean {
      if (!ok) return false;
      try {
        check(decoder.decode());
      } catch {
        return false;
      }
      return ok && started;
    },
    get failed() {
      return !ok;
    },
  };
}

// --- names ---

/** The extensions a file name may end in for each kind of file we keep (the first is ours). */
const NAME_EXTENSIONS: Partial<Record<string, string[]>> = {
  jpg: ['jpg', 'jpeg', 'jpe', 'jfif'],
  ogg: ['ogg', 'opus', 'oga'],
  txt: ['txt', 'text'],
};

/**
 * The name shown for an upload: only its last path segment (a name like '../../etc/passwd' or
 * 'C:\\x\\a.pdf' keeps 'passwd' or 'a.pdf'), Unicode-normalised, without control, bidirectional-override
 * or invisible characters, ending in the extension of the real type (added when the name ends in another),
 * at most MEDIA_NAME_MAX characters with its extension kept. A name with nothing left becomes
 * 'archivo.<ext>'.
 */
export function cleanFileName(raw: string | undefined, ext: MediaExtension): string {
  let name = (raw ?? '').normalize('NFC');
  name = name.split(/[/\\]/).pop() ?? '';
  name = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF\uD800-\uDFFF]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
  // Dots alone ('..', '...', '. . .') name nothing; leading dots would make a hidden file of a download.
  name = name.replace(/^[.\s]+/, '').trim();
  if (name === '') return `archivo.${ext}`;
  // The name ends in what the file is: a JPEG sent as 'shell.php' is kept as 'shell.php.jpg', so whoever
  // downloads it gets an image, never a script, whatever the sender called it.
  if (!(NAME_EXTENSIONS[ext] ?? [ext]).includes(extensionOf(name))) name = `${name}.${ext}`;
  if ([...name].length > MEDIA_NAME_MAX) {
    const own = extensionOf(name);
    const suffix = own && own.length <= 10 ? `.${own}` : '';
    const chars = [...name.slice(0, name.length - suffix.length)];
    name =
      chars
        .slice(0, MEDIA_NAME_MAX - suffix.length)
        .join('')
        .trimEnd() + suffix;
  }
  return name;
}
