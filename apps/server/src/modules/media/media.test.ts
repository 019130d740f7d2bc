import fs from 'node:fs';
import path from 'node:path';
import { MEDIA_MAX_BYTES, ZMediaListResponse, ZMediaUploadResponse } from '@hablabot/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories';
import { type Cast, type CastApi, createCastApi, type TestApi } from '../../../test/http';
import * as fx from '../../../test/media-fixtures';
import { ADMIN_ONLY, expectRoleMatrix } from '../../../test/role-matrix';

let ctx: TestApi;
let cast: Cast;
let as: CastApi['as'];

beforeAll(async () => {
  ({ api: ctx, cast, as } = await createCastApi());
});
afterAll(async () => {
  await ctx.close();
});

type Caller = 'admin' | 'otherAdmin';
const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const MB = 1024 * 1024;

function upload(
  who: Caller,
  files: fx.FilePart[],
  options: { lang?: string; url?: string; fields?: Record<string, string> } = {},
) {
  const body = fx.multipart(files, options.fields);
  return ctx.app.inject({
    method: 'POST',
    url: options.url ?? '/api/v1/admin/media/upload',
    headers: {
      ...cast[who].headers,
      ...body.headers,
      ...(options.lang ? { 'accept-language': options.lang } : {}),
    },
    payload: body.payload,
  });
}

async function uploaded(who: Caller, filename: string, content: Buffer) {
  const res = await upload(who, [{ filename, content }]);
  expect(res.statusCode, res.body).toBe(201);
  return ZMediaUploadResponse.parse(res.json()).media;
}

const call = (who: Caller, method: 'GET' | 'DELETE', url: string, lang?: string) =>
  as(who, method, url, undefined, lang);

const storage = (filePath: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  ctx.app.inject({ method, url: `/storage/${filePath}`, headers });

/** Files in the staging folder: every refused or broken upload must leave none. */
const staged = () => fs.readdirSync(path.join(ctx.mediaDir, '.staging'));

/** Every stored file under the media folder (staging excluded). */
function storedFiles(): string[] {
  return fs
    .readdirSync(ctx.mediaDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.parentPath.includes('.staging'))
    .map((e) => path.join(e.parentPath, e.name));
}

const FILE_PATH = /^media\/([0-9a-f]{2})\/\1[0-9a-f]{30}\.[a-z0-9]{2,4}$/;
const UNSUPPORTED_ES = /^El contenido del archivo no es de un tipo admitido\./;

describe(`media library uploads (${engine})`, () => {
  const accepted: [string, () => Buffer, string, string, string][] = (
    [
      ['foto.png', () => fx.png(), 'image', 'image/png', 'png'],
      ['foto.jpeg', fx.jpeg, 'image', 'image/jpeg', 'jpg'],
      ['video.mp4', fx.mp4, 'video', 'video/mp4', 'mp4'],
      ['video.3gp', fx.threeGp, 'video', 'video/3gpp', '3gp'],
      ['nota.ogg', fx.oggOpus, 'audio', 'audio/ogg', 'ogg'],
      ['cancion.mp3', () => fx.mp3(), 'audio', 'audio/mpeg', 'mp3'],
      ['audio.m4a', fx.m4a, 'audio', 'audio/mp4', 'm4a'],
      ['audio.aac', () => fx.aac(), 'audio', 'audio/aac', 'aac'],
      ['audio.amr', fx.amr, 'audio', 'audio/amr', 'amr'],
      ['catálogo.pdf', () => fx.pdf(), 'document', 'application/pdf', 'pdf'],
      [
        'contrato.docx',
        () => fx.docx(),
        'document',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'docx',
      ],
      [
        'precios.xlsx',
        fx.xlsx,
        'document',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'xlsx',
      ],
      [
        'charla.pptx',
        fx.pptx,
        'document',
        'application/vnd.openxmlformats-officedocument.presentationml.presentation',
        'pptx',
      ],
      ['antiguo.doc', fx.ole2, 'document', 'application/msword', 'doc'],
      ['antiguo.xls', fx.ole2, 'document', 'application/vnd.ms-excel', 'xls'],
      ['horario.txt', () => fx.txt(), 'document', 'text/plain', 'txt'],
    ] as [string, () => Buffer, string, string, string][]
  ).map(([name, build, kind, mime, ext]) => [name, kind, mime, ext, build] as never);

  it.each(accepted as unknown as [string, string, string, string, () => Buffer][])(
    'accepts %s as %s (%s), stored under a random name with the same bytes',
    async (filename, kind, mime, ext, build) => {
      const content = build();
      const res = await upload('admin', [{ filename, content }]);
      expect(res.statusCode, res.body).toBe(201);
      const body = ZMediaUploadResponse.parse(res.json());
      expect(body.success).toBe(true);
      expect(body.message).toBe('¡Archivo cargado correctamente!');
      expect(body.media).toMatchObject({ file_name: filename, kind, mime_type: mime, size: content.length });
      expect(body.media.file_path).toMatch(FILE_PATH);
      expect(body.media.file_path.endsWith(`.${ext}`)).toBe(true);
      expect(body.media.url).toBe(`http://localhost/storage/${body.media.file_path}`);
      const onDisk = path.join(ctx.mediaDir, body.media.file_path.slice('media/'.length));
      expect(fs.readFileSync(onDisk).equals(content)).toBe(true);
      const served = await storage(body.media.file_path);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(content)).toBe(true);
      expect(served.headers['content-type']).toBe(ext === 'txt' ? 'text/plain; charset=utf-8' : mime);
      expect(staged()).toEqual([]);
    },
  );

  it('answers at both upload paths, in English when asked', async () => {
    const res = await upload('admin', [{ filename: 'a.png', content: fx.png() }], {
      url: '/api/v1/media/upload',
      lang: 'en',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('File uploaded successfully!');
  });

  it('judges by the bytes: a PNG named .pdf and declared as a PDF is stored, named and served as a PNG', async () => {
    const res = await upload('admin', [
      { filename: 'factura.pdf', content: fx.png(), contentType: 'application/pdf' },
    ]);
    expect(res.statusCode).toBe(201);
    expect(res.json().media).toMatchObject({
      // Whoever downloads it gets a name that says what it is.
      file_name: 'factura.pdf.png',
      kind: 'image',
      mime_type: 'image/png',
    });
    expect(res.json().media.file_path).toMatch(/\.png$/);
  });

  it('finds an Office document whose entries lie past the first bytes', async () => {
    const content = fx.zip({
      'docProps/thumbnail.bin': Buffer.alloc(64 * 1024, 7),
      '[Content_Types].xml':
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      'word/document.xml': '<w:document/>',
    });
    const media = await uploaded('admin', 'grande.docx', content);
    expect(media.file_path).toMatch(/\.docx$/);
  });

  const refused: [string, string, () => Buffer, string?][] = [
    ['HTML named .png', 'foto.png', fx.html, 'image/png'],
    ['HTML named .txt', 'pagina.txt', fx.html],
    ['SVG (active content)', 'logo.svg', fx.svg, 'image/svg+xml'],
    ['SVG named .txt', 'logo.txt', fx.svg],
    ['GIF (WhatsApp takes JPEG and PNG only)', 'anim.gif', fx.gif],
    ['a Windows program named .pdf', 'factura.pdf', fx.exe, 'application/pdf'],
    ['QuickTime video', 'clip.mov', fx.mov],
    ['Ogg Vorbis (Opus only)', 'nota.ogg', fx.oggVorbis],
    ['a plain zip', 'fotos.zip', fx.plainZip],
    ['a zip named .docx', 'contrato.docx', fx.plainZip],
    ['an OLE2 file that is not named as Office', 'setup.msi', fx.ole2],
    ['text with NUL bytes', 'datos.txt', () => Buffer.from('hola\u0000mundo')],
    ['text that is not UTF-8', 'latin1.txt', () => Buffer.from([0x68, 0x6f, 0x6c, 0x61, 0xe9, 0x0a])],
    ['text without a .txt name', 'notas.csv', () => fx.txt()],
  ];

  it.each(refused)(
    'refuses %s with a 422 on file, leaving nothing behind',
    async (_label, filename, build, type) => {
      const before = storedFiles().length;
      const res = await upload('admin', [{ filename, content: build(), contentType: type }]);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toMatch(UNSUPPORTED_ES);
      expect(res.json().errors.file[0]).toMatch(UNSUPPORTED_ES);
      expect(staged()).toEqual([]);
      expect(storedFiles().length).toBe(before);
    },
  );

  it("says 'Please select a file' when there is no file, in both languages", async () => {
    const cases: InjectOptions[] = [
      { ...fx.multipart([], { note: 'hola' }) },
      { ...fx.multipart([{ field: 'document', filename: 'a.png', content: fx.png() }]) },
      { ...fx.multipart([{ filename: '', content: Buffer.alloc(0) }]) },
      { payload: { file: 'a.png' } },
      {},
      { headers: { 'content-type': 'multipart/form-data' }, payload: 'no boundary' },
      { headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: 'garbage' },
    ];
    for (const lang of ['es', 'en']) {
      for (const c of cases) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/admin/media/upload',
          ...c,
          headers: { ...(c.headers as object), ...cast.admin.headers, 'accept-language': lang },
        });
        expect(res.statusCode, `${lang} ${JSON.stringify(c.headers)} ${res.body}`).toBe(422);
        expect(res.json()).toEqual({
          message: 'Please select a file',
          errors: { file: ['Please select a file'] },
        });
      }
    }
  });

  it('refuses an empty file', async () => {
    const res = await upload('admin', [{ filename: 'vacio.pdf', content: Buffer.alloc(0) }]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'El archivo está vacío.',
      errors: { file: ['El archivo está vacío.'] },
    });
  });

  it('keeps only the last segment of a name with ../ and strips control characters', async () => {
    const media = await uploaded('admin', '../../../etc/cron.d/x.png', fx.png());
    expect(media.file_name).toBe('x.png');
    const windows = await uploaded('admin', '..\\..\\boot.ini\\foto.png', fx.png());
    expect(windows.file_name).toBe('foto.png');
    const dots = await uploaded('admin', '..', fx.png());
    expect(dots.file_name).toBe('archivo.png');
    const sneaky = await uploaded('admin', 'fac\u202Etura\u0007 gnp.png', fx.png());
    expect(sneaky.file_name).toBe('factura gnp.png');
    const hidden = await uploaded('admin', '.bashrc.txt', fx.txt());
    expect(hidden.file_name).toBe('bashrc.txt');
    const unicode = await uploaded('admin', 'año nuevo 🎉.png', fx.png());
    expect(unicode.file_name).toBe('año nuevo 🎉.png');
    const long = await uploaded('admin', `${'a'.repeat(300)}.pdf`, fx.pdf());
    expect(long.file_name).toBe(`${'a'.repeat(196)}.pdf`);
    // Every stored file is inside the media folder, under a random name.
    for (const file of storedFiles()) {
      expect(path.relative(ctx.mediaDir, file)).toMatch(/^([0-9a-f]{2})\/\1[0-9a-f]{30}\.[a-z0-9]{2,4}$/);
    }
  });

  it('enforces each kind’s limit: an image of exactly 5 MB passes, one byte more does not', async () => {
    const image = fx.png();
    const exact = Buffer.concat([image, Buffer.alloc(MEDIA_MAX_BYTES.image - image.length)]);
    expect((await upload('admin', [{ filename: 'max.png', content: exact }])).statusCode).toBe(201);
    const over = Buffer.concat([exact, Buffer.from([0])]);
    const res = await upload('admin', [{ filename: 'big.png', content: over }]);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file).toEqual(['La imagen supera el tamaño máximo de 5 MB.']);
    const audio = await upload(
      'admin',
      [{ filename: 'big.mp3', content: Buffer.alloc(16 * MB + 1, 0).fill(fx.mp3(), 0, 417 * 8) }],
      { lang: 'en' },
    );
    expect(audio.statusCode).toBe(422);
    expect(audio.json().errors.file).toEqual(['The audio is larger than the 16 MB limit.']);
    const video = await upload('admin', [
      { filename: 'big.mp4', content: Buffer.concat([fx.mp4(), Buffer.alloc(16 * MB)]) },
    ]);
    expect(video.json().errors.file).toEqual(['El video supera el tamaño máximo de 16 MB.']);
    expect(staged()).toEqual([]);
  });

  it('streams a document over 100 MB to a refusal without holding it in memory', async () => {
    const total = MEDIA_MAX_BYTES.document + 1 * MB;
    const body = fx.streamedMultipart({ filename: 'enorme.pdf', head: fx.pdf(), totalBytes: total });
    let peak = process.memoryUsage().rss;
    const start = peak;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/media/upload',
      headers: { ...cast.admin.headers, ...body.headers },
      payload: body.payload,
    });
    clearInterval(sampler);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file).toEqual(['El documento supera el tamaño máximo de 100 MB.']);
    // Holding the upload would cost over 100 MB; streaming costs a few buffers.
    expect(peak - start).toBeLessThan(48 * MB);
    expect(staged()).toEqual([]);
  });

  it('refuses a large upload of the wrong type from its first bytes, reading no more than needed', async () => {
    const body = fx.streamedMultipart({ filename: 'foto.png', head: fx.html(), totalBytes: 40 * MB });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/media/upload',
      headers: { ...cast.admin.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(UNSUPPORTED_ES);
    expect(staged()).toEqual([]);
  });

  it('takes concurrent uploads, each under its own name', async () => {
    const files = Array.from({ length: 8 }, (_, i) => ({
      filename: `lote-${i}.pdf`,
      content: fx.pdf(`doc ${i}`),
    }));
    const results = await Promise.all(files.map((f) => upload('admin', [f])));
    expect(results.map((r) => r.statusCode)).toEqual(files.map(() => 201));
    const paths = new Set(results.map((r) => r.json().media.file_path));
    expect(paths.size).toBe(files.length);
    for (const r of results) {
      const served = await storage(r.json().media.file_path);
      expect(served.body).toContain(`doc ${files.findIndex((f) => f.filename === r.json().media.file_name)}`);
    }
  });

  it('keeps one file per request: a second file part is not stored', async () => {
    const before = storedFiles().length;
    const res = await upload('admin', [
      { filename: 'uno.png', content: fx.png() },
      { filename: 'dos.png', content: fx.png() },
    ]);
    expect(res.statusCode).toBe(201);
    expect(storedFiles().length).toBe(before + 1);
  });
});

describe(`media library list and delete (${engine})`, () => {
  it('lists the company’s files newest first, searches names ignoring case and accents, and pages', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const headers = admin.headers;
    const names = ['Año Nuevo.png', 'menú 50%.pdf', 'menu_del_dia.pdf', 'Promoción.mp4'];
    for (const name of names) {
      const content = name.endsWith('.png') ? fx.png() : name.endsWith('.mp4') ? fx.mp4() : fx.pdf();
      const body = fx.multipart([{ filename: name, content }]);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/admin/media/upload',
        headers: { ...headers, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode).toBe(201);
    }
    const list = async (query = '') => {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/v1/admin/media/user${query}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      return ZMediaListResponse.parse(res.json());
    };
    const all = await list();
    expect(all.media.map((m) => m.file_name)).toEqual([...names].reverse());
    expect(all.pagination).toEqual({ current_page: 1, per_page: 1000, total: 4, last_page: 1 });
    expect((await list('?search=ANO')).media.map((m) => m.file_name)).toEqual(['Año Nuevo.png']);
    expect((await list('?search=men')).media.map((m) => m.file_name)).toEqual([
      'menu_del_dia.pdf',
      'menú 50%.pdf',
    ]);
    // % and _ are letters in a search, not wildcards.
    expect((await list('?search=50%25')).media.map((m) => m.file_name)).toEqual(['menú 50%.pdf']);
    expect((await list('?search=u_d')).media.map((m) => m.file_name)).toEqual(['menu_del_dia.pdf']);
    expect((await list('?search=nada')).media).toEqual([]);
    const page2 = await list('?per_page=3&page=2');
    expect(page2.media.map((m) => m.file_name)).toEqual(['Año Nuevo.png']);
    expect(page2.pagination).toEqual({ current_page: 2, per_page: 3, total: 4, last_page: 2 });
    for (const bad of ['?per_page=0', '?per_page=1001', '?page=0', '?page=x', '?search=%00']) {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/v1/admin/media/user${bad}`, headers });
      expect(res.statusCode, bad).toBe(422);
    }
  });

  it('deletes a file: gone from the list, the disk and /storage; a second delete is a 404', async () => {
    const media = await uploaded('admin', 'borrar.png', fx.png());
    const onDisk = path.join(ctx.mediaDir, media.file_path.slice('media/'.length));
    expect(fs.existsSync(onDisk)).toBe(true);
    const res = await call('admin', 'DELETE', `/admin/media/${media.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Archivo eliminado correctamente.' });
    expect(fs.existsSync(onDisk)).toBe(false);
    expect((await storage(media.file_path)).statusCode).toBe(404);
    const list = await call('admin', 'GET', '/admin/media/user');
    expect(list.json().media.some((m: { id: number }) => m.id === media.id)).toBe(false);
    const again = await call('admin', 'DELETE', `/admin/media/${media.id}`, 'en');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'The file does not exist.' });
    expect((await call('admin', 'DELETE', '/admin/media/abc')).statusCode).toBe(422);
  });

  it('keeps companies apart: another company neither lists nor deletes a file', async () => {
    const mine = await uploaded('admin', 'privado-a.pdf', fx.pdf());
    const theirs = await uploaded('otherAdmin', 'privado-b.pdf', fx.pdf());
    const listA = (await call('admin', 'GET', '/admin/media/user?per_page=1000')).json().media as {
      id: number;
    }[];
    const listB = (await call('otherAdmin', 'GET', '/admin/media/user')).json().media as { id: number }[];
    expect(listA.some((m) => m.id === mine.id)).toBe(true);
    expect(listA.some((m) => m.id === theirs.id)).toBe(false);
    expect(listB.map((m) => m.id)).toEqual([theirs.id]);
    expect((await call('otherAdmin', 'GET', '/admin/media/user?search=privado-a')).json().media).toEqual([]);
    const res = await call('otherAdmin', 'DELETE', `/admin/media/${mine.id}`);
    expect(res.statusCode).toBe(404);
    expect((await storage(mine.file_path)).statusCode).toBe(200);
  });

  it('lets only company admins in, on every route', async () => {
    const png = fx.multipart([{ filename: 'rol.png', content: fx.png() }]);
    for (const url of ['/api/v1/admin/media/upload', '/api/v1/media/upload']) {
      await expectRoleMatrix(
        ctx,
        cast,
        { method: 'POST', url, headers: png.headers, payload: png.payload },
        { ...ADMIN_ONLY, admin: 201, otherAdmin: 201 },
      );
    }
    await expectRoleMatrix(
      ctx,
      cast,
      { method: 'GET', url: '/api/v1/admin/media/user' },
      { ...ADMIN_ONLY, admin: 200, otherAdmin: 200 },
    );
    await expectRoleMatrix(
      ctx,
      cast,
      async () => ({
        method: 'DELETE',
        url: `/api/v1/admin/media/${(await uploaded('admin', 'x.png', fx.png())).id}`,
      }),
      { ...ADMIN_ONLY, otherAdmin: 404, admin: 200 },
    );
    // An admin without a company has no library.
    const loner = await createUser(ctx, { role: 'admin' });
    await ctx.container.db
      .updateTable('users')
      .set({ company_id: null })
      .where('id', '=', loner.user.id)
      .execute();
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/admin/media/user',
      headers: loner.headers,
    });
    expect(res.statusCode).toBe(403);
  });

  it('reads no upload from a caller it refuses', async () => {
    const body = fx.streamedMultipart({ filename: 'x.pdf', head: fx.pdf(), totalBytes: 20 * MB });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/media/upload',
      headers: { ...cast.client.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(403);
    expect(staged()).toEqual([]);
  });
});
