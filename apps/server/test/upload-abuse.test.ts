// Hostile uploads on every route that takes a file: the media library (both paths) and a mass message with
// a header file (multipart). Polyglots, lying names and declared types, path tricks in the name, sizes
// at the edge, and traversal on the routes that serve files back. Each refusal must leave nothing
// behind: no row, no stored file, no staged part. Real multipart over the app's HTTP layer.
import fs from 'node:fs';
import path from 'node:path';
import { MEDIA_MAX_BYTES, MEDIA_NAME_MAX, ZMediaUploadResponse } from '@hablabot/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from './clients-factories';
import { type Cast, type TestApi, createCastApi } from './http';
import * as fx from './media-fixtures';

let ctx: TestApi;
let cast: Cast;
let companyA: number;
let massTemplateId: number;
let massListId: number;

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const UNSUPPORTED = /^El contenido del archivo no es de un tipo admitido\./;

beforeAll(async () => {
  ({ api: ctx, cast, companyA } = await createCastApi());
  // A media-header template and a list, so a mass message can carry a file.
  const at = new Date().toISOString();
  const components = [
    { type: 'HEADER', format: 'IMAGE', text: null, buttons: [] },
    { type: 'BODY', format: null, text: 'Hola {{1}}.', buttons: [] },
  ];
  massTemplateId = (
    await ctx.container.db
      .insertInto('message_templates')
      .values({
        company_id: companyA,
        meta_id: '990001',
        name: 'oferta_imagen',
        language: 'es',
        status: 'APPROVED',
        category: 'MARKETING',
        components: JSON.stringify(components),
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const client = await createClient(ctx, companyA);
  const list = await ctx.post(
    '/admin/list-clients',
    { name: 'Abuso', client_ids: [client.id] },
    { as: cast.admin },
  );
  expect(list.statusCode, list.body).toBe(201);
  massListId = list.json().data.id;
});
afterAll(async () => {
  await ctx.close();
});

// --- the routes ---

type Route = 'library' | 'library (admin path)' | 'mass send';
const ROUTES: Route[] = ['library', 'library (admin path)', 'mass send'];

/** One file to a route, as a browser's form would send it (a mass message carries its own fields too). */
function uploadTo(route: Route, file: fx.FilePart, fields: Record<string, string> = {}) {
  const url =
    route === 'mass send'
      ? '/api/v1/admin/messages-massive'
      : route === 'library'
        ? '/api/v1/media/upload'
        : '/api/v1/admin/media/upload';
  const massFields =
    route === 'mass send'
      ? {
          name: 'Campaña con archivo',
          message_template_id: String(massTemplateId),
          list_id: String(massListId),
          bodyParameters: JSON.stringify({ 1: 'x' }),
          schedule: new Date(Date.now() + 30 * 24 * 60 * 60_000).toISOString(),
          ...fields,
        }
      : fields;
  const body = fx.multipart([file], massFields);
  return ctx.app.inject({
    method: 'POST',
    url,
    headers: { ...cast.admin.headers, ...body.headers },
    payload: body.payload,
  });
}

/** A multipart body written by hand, for headers the fixture cannot express (filename*, raw bytes). */
function rawUpload(partHeaders: string, content: Buffer) {
  const boundary = '----abuse-boundary-Zx81';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\n${partHeaders}\r\n\r\n`, 'latin1'),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/admin/media/upload',
    headers: { ...cast.admin.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

// --- what is left behind ---

const mediaRows = async () =>
  Number(
    (
      await ctx.container.db
        .selectFrom('media')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const massRows = async () =>
  Number(
    (
      await ctx.container.db
        .selectFrom('mass_messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Every file under the storage root, staging included. */
function filesOnDisk(): string[] {
  return fs
    .readdirSync(ctx.mediaDir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => path.join(e.parentPath, e.name));
}

async function snapshot() {
  return { media: await mediaRows(), mass: await massRows(), files: filesOnDisk().sort() };
}

/** The upload was stored: the library item (from the library or from the send's media id). */
async function storedItem(route: Route, res: LightMyRequestResponse) {
  if (route !== 'mass send') return ZMediaUploadResponse.parse(res.json()).media;
  const mediaId = res.json().data.media_id as number;
  const list = await ctx.get('/admin/media/user?per_page=100', { as: cast.admin });
  const item = list.json().media.find((m: { id: number }) => m.id === mediaId);
  expect(item).toBeDefined();
  return item as ReturnType<typeof ZMediaUploadResponse.parse>['media'];
}

/** The real path of a stored file, which must lie inside the storage root. */
function realPathInsideRoot(filePath: string): string {
  const root = fs.realpathSync(ctx.mediaDir);
  const real = fs.realpathSync(path.join(ctx.mediaDir, filePath.slice('media/'.length)));
  expect(path.relative(root, real).startsWith('..')).toBe(false);
  expect(path.isAbsolute(path.relative(root, real))).toBe(false);
  return real;
}

const storage = (filePath: string) => ctx.app.inject({ method: 'GET', url: `/storage/${filePath}` });

/** A Content-Disposition that can neither break out of its header nor its quotes. */
function expectSafeDisposition(header: string | undefined, type: 'inline' | 'attachment') {
  expect(header).toBeDefined();
  const value = String(header);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point
  expect(value).not.toMatch(/[\u0000-\u001F\u007F]/);
  const match =
    /^(inline|attachment); filename="([^"\\]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+.^_`|~%-]*)$/.exec(value);
  expect(match, value).not.toBeNull();
  expect(match?.[1]).toBe(type);
  const shown = decodeURIComponent(match?.[3] ?? '');
  expect(shown).not.toMatch(/[/\\]/);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point
  expect(shown).not.toMatch(/[\u0000-\u001F\u007F\u202A-\u202E\u2066-\u2069]/);
  expect(shown.startsWith('.')).toBe(false);
}

// --- payloads ---

const SCRIPT = '<html><body><script>alert(document.cookie)</script></body></html>';
const PHP = '<?php system($_GET["c"]); ?>';
/** An ELF executable's first bytes (Linux program). */
const elf = () =>
  Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(120)]);
/** A Java class file. */
const javaClass = () =>
  Buffer.concat([Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 0x34]), Buffer.alloc(64)]);

describe(`upload abuse (${engine})`, () => {
  const wrongTypes: [string, string, () => Buffer, string][] = [
    ['a Linux program named .jpg', 'foto.jpg', elf, 'image/jpeg'],
    ['a Windows program named .mp3', 'cancion.mp3', fx.exe, 'audio/mpeg'],
    ['a Windows program named .jpg', 'foto.jpg', fx.exe, 'image/jpeg'],
    ['an HTML page named .pdf', 'factura.pdf', () => Buffer.from(SCRIPT), 'application/pdf'],
    ['an HTML page named .mp3', 'nota.mp3', () => Buffer.from(SCRIPT), 'audio/mpeg'],
    ['a PHP script named .jpg', 'avatar.jpg', () => Buffer.from(PHP), 'image/jpeg'],
    ['a PHP script named .txt', 'leeme.txt', () => Buffer.from(PHP), 'text/plain'],
    ['a Java class named .docx', 'contrato.docx', javaClass, 'application/msword'],
    [
      'a GIF with a script after its image',
      'anim.jpg',
      () => Buffer.concat([fx.gif(), Buffer.from(SCRIPT)]),
      'image/jpeg',
    ],
    [
      'an SVG behind a byte order mark and blank lines, named .txt',
      'logo.txt',
      () => Buffer.concat([Buffer.from('\uFEFF\n\n   \t'), fx.svg()]),
      'text/plain',
    ],
    ['an SVG named .png', 'logo.png', fx.svg, 'image/png'],
    [
      'an XML prolog and an SVG named .jpg',
      'logo.jpg',
      () => Buffer.from(`<?xml version="1.0"?>${fx.svg()}`),
      'image/jpeg',
    ],
  ];

  for (const route of ROUTES) {
    it.each(wrongTypes)(
      `${route}: refuses %s under a lying declared type with 422, keeping nothing`,
      async (_label, filename, build, type) => {
        const before = await snapshot();
        const res = await uploadTo(route, { filename, content: build(), contentType: type });
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().message).toMatch(UNSUPPORTED);
        expect(res.json().errors.file[0]).toMatch(UNSUPPORTED);
        expect(await snapshot()).toEqual(before);
      },
    );
  }

  it('stores a polyglot only as the type its bytes prove, under a generated name, served so nothing in it can run', async () => {
    const cases: {
      name: string;
      content: Buffer;
      type: string;
      ext: string;
      mime: string;
      inline: boolean;
    }[] = [
      // An image with a page or a PHP script after it: an image it is, and an image it stays.
      {
        name: 'shell.php',
        content: Buffer.concat([fx.jpeg(), Buffer.from(PHP)]),
        type: 'application/x-php',
        ext: 'jpg',
        mime: 'image/jpeg',
        inline: true,
      },
      {
        name: 'pagina.html',
        content: Buffer.concat([fx.png(), Buffer.from(SCRIPT)]),
        type: 'text/html',
        ext: 'png',
        mime: 'image/png',
        inline: true,
      },
      // A PDF that is also a page and carries a zip: a PDF, only ever downloaded.
      {
        name: 'factura.html',
        content: Buffer.concat([fx.pdf(), Buffer.from(SCRIPT), fx.plainZip()]),
        type: 'text/html',
        ext: 'pdf',
        mime: 'application/pdf',
        inline: false,
      },
      // Text with markup after its first line is text: served as plain text, only ever downloaded.
      {
        name: 'notas.txt',
        content: Buffer.from(`Hola\n${SCRIPT}\n`),
        type: 'text/html',
        ext: 'txt',
        mime: 'text/plain; charset=utf-8',
        inline: false,
      },
    ];
    // (A mass message stores its file through the same library upload; its refusals are checked above.)
    for (const route of ['library', 'library (admin path)'] as const) {
      for (const c of cases) {
        const res = await uploadTo(route, { filename: c.name, content: c.content, contentType: c.type });
        expect(res.statusCode, `${route} ${c.name}: ${res.body}`).toBe(201);
        const item = await storedItem(route, res);
        expect(item.file_path).toMatch(new RegExp(`^media/([0-9a-f]{2})/\\1[0-9a-f]{30}\\.${c.ext}$`));
        // The name shown (and given to a download) ends in what the file is: 'shell.php.jpg'.
        expect(item.file_name).toBe(c.name.endsWith(`.${c.ext}`) ? c.name : `${c.name}.${c.ext}`);
        expect(fs.readFileSync(realPathInsideRoot(item.file_path)).equals(c.content)).toBe(true);
        const served = await storage(item.file_path);
        expect(served.statusCode).toBe(200);
        expect(served.headers['content-type']).toBe(c.mime);
        expect(served.headers['x-content-type-options']).toBe('nosniff');
        expect(served.headers['content-security-policy']).toBe(
          c.inline ? 'sandbox' : "default-src 'none'; sandbox",
        );
        expectSafeDisposition(
          served.headers['content-disposition'] as string,
          c.inline ? 'inline' : 'attachment',
        );
      }
    }
  });

  it('keeps path tricks in a name out of the disk: a generated name inside the root, a harmless name shown', async () => {
    const long = `${'ñ'.repeat(1200)}.png`;
    const names: [string, string | RegExp][] = [
      ['../../etc/passwd', 'passwd.png'],
      ['..\\..\\win.ini', 'win.ini.png'],
      ['/etc/passwd', 'passwd.png'],
      ['C:\\Windows\\System32\\drivers\\etc\\hosts', 'hosts.png'],
      ['%2e%2e%2f%2e%2e%2fetc%2fpasswd', '%2e%2e%2f%2e%2e%2fetc%2fpasswd.png'],
      ['..%5c..%5cboot.ini', '%5c..%5cboot.ini.png'],
      ['foto\u202Egnp.exe', 'fotognp.exe.png'],
      ['\u2067secreto\u2069.png', 'secreto.png'],
      ['....', 'archivo.png'],
      ['. . .', 'archivo.png'],
      ['./.', 'archivo.png'],
      [long, new RegExp(`^ñ{${MEDIA_NAME_MAX - 4}}\\.png$`)],
    ];
    for (const [raw, expected] of names) {
      const res = await uploadTo('library', { filename: raw, content: fx.png() });
      expect(res.statusCode, `${raw}: ${res.body}`).toBe(201);
      const item = ZMediaUploadResponse.parse(res.json()).media;
      if (typeof expected === 'string') expect(item.file_name, raw).toBe(expected);
      else expect(item.file_name, raw).toMatch(expected);
      expect([...item.file_name].length).toBeLessThanOrEqual(MEDIA_NAME_MAX);
      const real = realPathInsideRoot(item.file_path);
      expect(path.basename(real)).toMatch(/^[0-9a-f]{32}\.png$/);
      const served = await storage(item.file_path);
      expect(served.statusCode).toBe(200);
      expectSafeDisposition(served.headers['content-disposition'] as string, 'inline');
    }
    // Nothing was written outside the root: no 'passwd', 'hosts' or 'win.ini' next to it.
    for (const stray of ['passwd', 'hosts', 'win.ini', 'boot.ini']) {
      expect(fs.existsSync(path.join(path.dirname(ctx.mediaDir), stray))).toBe(false);
    }
  });

  it('strips NUL, line breaks and header tricks from an encoded name (filename*), which can carry any byte', async () => {
    // Each header, and the name kept (undefined: the parser dropped the name, so there was no file).
    const attempts: [string, string | undefined][] = [
      // A CR LF would end the Content-Disposition header and start one of the caller's choosing.
      [`form-data; name="file"; filename*=UTF-8''evil%0D%0ASet-Cookie%3A%20a%3Db%0D%0A.png`, undefined],
      [`form-data; name="file"; filename*=UTF-8''foto%00.php.png`, 'foto.php.png'],
      [`form-data; name="file"; filename*=UTF-8''..%2F..%2F..%2Fetc%2Fpasswd`, 'passwd.png'],
      [`form-data; name="file"; filename*=UTF-8''%2E%2E`, 'archivo.png'],
      [`form-data; name="file"; filename="raw\u0000nul.png"`, 'rawnul.png'],
      // Quotes must not end the quoted name of the download.
      [
        `form-data; name="file"; filename*=UTF-8''comillas%22%20dobles%22%3B%20x%3D.png`,
        'comillas" dobles"; x=.png',
      ],
    ];
    for (const [disposition, expected] of attempts) {
      const before = await snapshot();
      const res = await rawUpload(`Content-Disposition: ${disposition}\r\nContent-Type: image/png`, fx.png());
      if (expected === undefined) {
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().errors.file).toEqual(['Please select a file']);
        expect(await snapshot()).toEqual(before);
        continue;
      }
      expect(res.statusCode, `${disposition}: ${res.body}`).toBe(201);
      const item = ZMediaUploadResponse.parse(res.json()).media;
      expect(item.file_name).toBe(expected);
      realPathInsideRoot(item.file_path);
      const served = await storage(item.file_path);
      expect(served.headers['set-cookie']).toBeUndefined();
      expectSafeDisposition(served.headers['content-disposition'] as string, 'inline');
    }
  });

  for (const route of ROUTES) {
    it(`${route}: refuses a file one byte over its kind's limit, and an empty file, keeping nothing`, async () => {
      const before = await snapshot();
      const image = fx.png();
      const over = Buffer.concat([image, Buffer.alloc(MEDIA_MAX_BYTES.image + 1 - image.length)]);
      let res = await uploadTo(route, { filename: 'grande.png', content: over, contentType: 'image/png' });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.file).toEqual([expect.stringMatching(/5 MB/)]);
      expect(await snapshot()).toEqual(before);

      res = await uploadTo(route, {
        filename: 'vacio.png',
        content: Buffer.alloc(0),
        contentType: 'image/png',
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors.file).toBeDefined();
      expect(await snapshot()).toEqual(before);
    });
  }

  it('mass send: a good file with a send that is refused leaves no file in the library', async () => {
    const before = await snapshot();
    const refusals: Record<string, string>[] = [
      { message_template_id: '999999' },
      { list_id: '999999' },
      { name: '' },
      { bodyParameters: 'not json' },
    ];
    for (const fields of refusals) {
      const res = await uploadTo('mass send', { filename: 'oferta.png', content: fx.png() }, fields);
      expect(res.statusCode, `${JSON.stringify(fields)}: ${res.body}`).toBe(422);
      expect(await snapshot(), JSON.stringify(fields)).toEqual(before);
    }
  });

  it('serves nothing outside the root, however the path is written', async () => {
    const SECRET = 'contents-that-must-never-be-served';
    fs.writeFileSync(path.join(path.dirname(ctx.mediaDir), 'secret.txt'), SECRET);
    const good = await uploadTo('library', { filename: 'ok.png', content: fx.png() });
    const item = ZMediaUploadResponse.parse(good.json()).media;
    const attempts = [
      '/storage/media/..;/..;/secret.txt',
      '/storage/media/%c0%ae%c0%ae/%c0%ae%c0%ae/secret.txt',
      '/storage/media/%u002e%u002e/secret.txt',
      '/storage/media/%25%32%65%25%32%65/secret.txt',
      '/storage/media/.%2e/.%2e/secret.txt',
      '/storage/media/..%255c..%255csecret.txt',
      '/storage/media/\\..\\..\\secret.txt',
      `/storage/${item.file_path}/../../../secret.txt`,
      `/storage/${item.file_path}%2f..%2f..%2f..%2fsecret.txt`,
      '/storage/media/.staging/x.part',
    ];
    for (const url of attempts) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect([400, 404], `${url} → ${res.statusCode}`).toContain(res.statusCode);
      expect(res.body).not.toContain(SECRET);
    }
    // A message's file is looked up by id only: a path in its place is refused (an invalid id is a
    // 422, like any invalid parameter), never a file.
    for (const id of ['..%2f..%2fsecret.txt', '1%00', '..', '%2e%2e', '1;2', '-1']) {
      const res = await ctx.get(`/admin/files/${id}`, { as: cast.admin });
      expect([400, 404, 422], `${id} → ${res.statusCode}`).toContain(res.statusCode);
      expect(res.body).not.toContain(SECRET);
    }
  });
});
