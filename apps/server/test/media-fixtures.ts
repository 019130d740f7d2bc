import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';

// Tiny real files of every format the library takes (and a few it refuses), built in code so the tests
// carry no binary fixtures. Each has the structure its format's readers look for, not only a magic number.

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  return Buffer.concat([u32(data.length), body, u32(zlib.crc32(body))]);
}

/** A PNG of `width`×`height` pixels in one colour (8-bit RGB), decodable by any browser. */
export function png(width = 4, height = 4, rgb: [number, number, number] = [0x73, 0x00, 0xff]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 1×1 baseline JPEG (JFIF), the smallest image decoders accept. */
export const jpeg = (): Buffer =>
  Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  );

function box(type: string, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, 'latin1'), body]);
}

/** An ISO base media file (MP4 family): `ftyp` with the major brand, then an empty `moov` and `mdat`. */
export function isoMedia(brand: string, compatible: string[] = ['isom', 'mp41']): Buffer {
  const ftyp = box(
    'ftyp',
    Buffer.from(brand.padEnd(4, ' '), 'latin1'),
    u32(0x200),
    ...compatible.map((b) => Buffer.from(b.padEnd(4, ' '), 'latin1')),
  );
  return Buffer.concat([ftyp, box('moov', box('mvhd', Buffer.alloc(100))), box('mdat', Buffer.alloc(64))]);
}
export const mp4 = () => isoMedia('isom');
export const threeGp = () => isoMedia('3gp4', ['3gp4', 'isom']);
export const m4a = () => isoMedia('M4A ', ['M4A ', 'mp42', 'isom']);
export const mov = () => isoMedia('qt  ', ['qt  ']);

// Ogg pages carry a CRC-32 of their own (polynomial 0x04c11db7, no reflection).
const OGG_CRC = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();
function oggCrc(data: Buffer): number {
  let crc = 0;
  for (const byte of data) crc = ((crc << 8) ^ OGG_CRC[((crc >>> 24) ^ byte) & 0xff]) >>> 0;
  return crc;
}
function oggPage(packet: Buffer, sequence: number, headerType: number): Buffer {
  const segments: number[] = [];
  for (let left = packet.length; ; left -= 255) {
    segments.push(Math.min(left, 255));
    if (left < 255) break;
  }
  const header = Buffer.alloc(27);
  header.write('OggS', 0, 'latin1');
  header[5] = headerType;
  header.writeUInt32LE(0x1234, 14); // stream serial number
  header.writeUInt32LE(sequence, 18);
  header[26] = segments.length;
  const page = Buffer.concat([header, Buffer.from(segments), packet]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

/** An Ogg Opus stream's two header pages (OpusHead, OpusTags): WhatsApp's voice-note format. */
export function oggOpus(): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1; // version
  head[9] = 1; // channels
  head.writeUInt16LE(312, 10); // pre-skip
  head.writeUInt32LE(48_000, 12);
  const vendor = Buffer.from('hablabot-test', 'utf8');
  const tags = Buffer.concat([Buffer.from('OpusTags', 'latin1'), Buffer.alloc(4), vendor, Buffer.alloc(4)]);
  tags.writeUInt32LE(vendor.length, 8);
  return Buffer.concat([oggPage(head, 0, 2), oggPage(tags, 1, 0)]);
}

/** An Ogg Vorbis identification header: Ogg audio WhatsApp does not take (Opus only). */
export function oggVorbis(): Buffer {
  const id = Buffer.alloc(30);
  id[0] = 1;
  id.write('vorbis', 1, 'latin1');
  return oggPage(id, 0, 2);
}

/** MPEG-1 Layer III frames of silence (128 kbit/s, 44.1 kHz: 417 bytes each). */
export function mp3(frames = 8): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x00]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/** ADTS AAC-LC frames (44.1 kHz, stereo), each a 7-byte header and an empty payload. */
export function aac(frames = 8): Buffer {
  const length = 16;
  const frame = Buffer.alloc(length);
  frame.set([
    0xff,
    0xf1,
    0x50,
    0x80 | ((length >> 11) & 0x3),
    (length >> 3) & 0xff,
    ((length & 7) << 5) | 0x1f,
    0xfc,
  ]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/** AMR narrow-band: the '#!AMR' header and a few silence (NO_DATA) frames. */
export const amr = (): Buffer => Buffer.concat([Buffer.from('#!AMR\n', 'latin1'), Buffer.alloc(8, 0x7c)]);

/** A one-page PDF with a line of text, cross-reference table and all. */
export function pdf(text = 'HablaBot'): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    null,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const stream = `BT /F1 18 Tf 20 40 Td (${text}) Tj ET`;
  objects[3] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A zip archive with its entries stored (not compressed): local headers, central directory, end record. */
export function zip(entries: Record<string, string | Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const fileName = Buffer.from(name, 'utf8');
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="PART"/></Relationships>';
function contentTypes(part: string, type: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/${part}" ContentType="${type}"/></Types>`;
}

/** A Word document (docx) with one paragraph. */
export function docx(padding = 0): Buffer {
  return zip({
    '[Content_Types].xml': contentTypes(
      'word/document.xml',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
    ),
    '_rels/.rels': RELS.replace('PART', 'word/document.xml'),
    // Real documents carry fonts and images before the text; `padding` pushes the text past the first bytes.
    ...(padding ? { 'docProps/thumbnail.bin': randomBytes(padding) } : {}),
    'word/document.xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>HablaBot</w:t></w:r></w:p></w:body></w:document>',
  });
}

/** An Excel workbook (xlsx) with one empty sheet. */
export function xlsx(): Buffer {
  return zip({
    '[Content_Types].xml': contentTypes(
      'xl/workbook.xml',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
    ),
    '_rels/.rels': RELS.replace('PART', 'xl/workbook.xml'),
    'xl/workbook.xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets/></workbook>',
  });
}

/** A PowerPoint presentation (pptx) without slides. */
export function pptx(): Buffer {
  return zip({
    '[Content_Types].xml': contentTypes(
      'ppt/presentation.xml',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
    ),
    '_rels/.rels': RELS.replace('PART', 'ppt/presentation.xml'),
    'ppt/presentation.xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>',
  });
}

/** A plain zip of a text file: not a format WhatsApp sends. */
export const plainZip = () => zip({ 'notes.txt': 'hola' });

/** The header sector of an OLE2 compound file, the container of .doc, .xls and .ppt. */
export function ole2(): Buffer {
  const header = Buffer.alloc(1536, 0xff);
  header.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 0);
  header.fill(0, 8, 24);
  header.writeUInt16LE(0x3e, 24); // minor version
  header.writeUInt16LE(3, 26); // major version 3: 512-byte sectors
  header.writeUInt16LE(0xfffe, 28); // little-endian
  header.writeUInt16LE(9, 30);
  header.writeUInt16LE(6, 32);
  return header;
}

export const txt = (text = 'Horario de atención: lunes a viernes, 9:00–18:00.\n') =>
  Buffer.from(text, 'utf8');
export const html = () =>
  Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
export const svg = () =>
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>',
  );
export const gif = () => Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
export const exe = () => Buffer.concat([Buffer.from('MZ', 'latin1'), Buffer.alloc(200)]);

// --- multipart bodies ---

export interface FilePart {
  field?: string;
  filename: string;
  content: Buffer;
  /** What the browser claims the type is (never trusted). */
  contentType?: string;
}

const BOUNDARY = '----hablabot-test-boundary-7MA4YWxkTrZu0gW';

function partHeader(part: Omit<FilePart, 'content'>): Buffer {
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.field ?? 'file'}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
    'utf8',
  );
}

/** A multipart/form-data body with these files (and text fields), and its content type. */
export function multipart(files: FilePart[], fields: Record<string, string> = {}) {
  const pieces: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    pieces.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const file of files) pieces.push(partHeader(file), file.content, Buffer.from('\r\n'));
  pieces.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return {
    payload: Buffer.concat(pieces),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

/**
 * A multipart body of `totalBytes` file bytes, produced as it is read (never held whole): `head` first,
 * then filler. For uploads too big to build in memory.
 */
export function streamedMultipart(part: Omit<FilePart, 'content'> & { head: Buffer; totalBytes: number }) {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  async function* body() {
    yield partHeader(part);
    yield part.head;
    let left = part.totalBytes - part.head.length;
    while (left > 0) {
      const n = Math.min(left, chunk.length);
      yield n === chunk.length ? chunk : chunk.subarray(0, n);
      left -= n;
    }
    yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  }
  return {
    payload: Readable.from(body(), { objectMode: false }),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}
