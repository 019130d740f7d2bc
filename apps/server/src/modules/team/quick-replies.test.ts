// Quick replies (GET/POST/PUT/DELETE /admin/quick-replies): agents read, admins write, each company its
// own; the shortcut unique per company (409 on `shortcut`, on update too), a file only of the company's
// own library (422 on `media_id`), at most QUICK_REPLIES_MAX per company, listed by shortcut.
import { createHash } from 'node:crypto';
import { QUICK_REPLIES_MAX } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CastApi, type TestUser, createCastApi } from '../../../test/http';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

let t: CastApi;
let agent: TestUser;

/** A library file of the company (a row only: the quick replies read its name, type and storage key). */
async function libraryFile(companyId: number, name: string) {
  return t.api.container.mediaRepository.createMedia(companyId, {
    userId: null,
    fileName: name,
    storageKey: `qr/${createHash('sha256').update(name).digest('hex').slice(0, 32)}.png`,
    mimeType: 'image/png',
    kind: 'image',
    size: 10,
    sha256: createHash('sha256').update(name).digest('hex'),
  });
}

beforeAll(async () => {
  t = await createCastApi();
  agent = await t.api.user({ role: 'agent', companyId: t.companyA });
});
afterAll(async () => {
  await t?.api.close();
});

describe(`quick replies access (${engine})`, () => {
  it('agents and admins of the company read them; client, super admin and anonymous do not', async () => {
    expect((await t.api.get('/admin/quick-replies', { as: agent })).statusCode).toBe(200);
    expect((await t.as('admin', 'GET', '/admin/quick-replies')).statusCode).toBe(200);
    expect((await t.as('client', 'GET', '/admin/quick-replies')).statusCode).toBe(403);
    expect((await t.as('superAdmin', 'GET', '/admin/quick-replies')).statusCode).toBe(403);
    expect((await t.api.get('/admin/quick-replies')).statusCode).toBe(401);
  });

  it('agents cannot create, change or delete them (403, nothing written)', async () => {
    const created = await t.as('admin', 'POST', '/admin/quick-replies', {
      shortcut: 'agent-ro',
      text: 'Hola',
    });
    const id = created.json().data.id;
    const body = { shortcut: 'agent-write', text: 'Escrito por un agente' };
    expect((await t.api.post('/admin/quick-replies', body, { as: agent })).statusCode).toBe(403);
    expect((await t.api.put(`/admin/quick-replies/${id}`, body, { as: agent })).statusCode).toBe(403);
    expect((await t.api.delete(`/admin/quick-replies/${id}`, undefined, { as: agent })).statusCode).toBe(403);
    const list = (await t.api.get('/admin/quick-replies', { as: agent })).json().data;
    expect(list.map((q: { shortcut: string }) => q.shortcut)).toContain('agent-ro');
    expect(list.map((q: { shortcut: string }) => q.shortcut)).not.toContain('agent-write');
  });

  it("another company's admin neither sees nor changes company A's quick replies", async () => {
    const created = await t.as('admin', 'POST', '/admin/quick-replies', {
      shortcut: 'solo-a',
      text: 'Solo A',
    });
    const id = created.json().data.id;
    const list = (await t.as('otherAdmin', 'GET', '/admin/quick-replies')).json().data;
    expect(list.map((q: { id: number }) => q.id)).not.toContain(id);
    const body = { shortcut: 'robado', text: 'x' };
    expect((await t.as('otherAdmin', 'PUT', `/admin/quick-replies/${id}`, body)).statusCode).toBe(404);
    expect((await t.as('otherAdmin', 'DELETE', `/admin/quick-replies/${id}`)).statusCode).toBe(404);
    const again = (await t.as('admin', 'GET', '/admin/quick-replies')).json().data;
    expect(again.find((q: { id: number }) => q.id === id)).toMatchObject({
      shortcut: 'solo-a',
      text: 'Solo A',
    });
  });
});

describe(`quick replies (${engine})`, () => {
  it('creates one with a library file; the answer carries the file (id, name, type, absolute URL)', async () => {
    const file = await libraryFile(t.companyA, 'catalogo.png');
    const res = await t.as('admin', 'POST', '/admin/quick-replies', {
      shortcut: 'catalogo',
      text: 'Te envío el catálogo.',
      media_id: file.id,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe('Respuesta rápida creada.');
    expect(body.data).toMatchObject({
      shortcut: 'catalogo',
      text: 'Te envío el catálogo.',
      media_id: file.id,
      media: { id: file.id, name: 'catalogo.png', mime_type: 'image/png' },
    });
    expect(body.data.media.url).toMatch(new RegExp(`^https?://[^/]+/storage/.*${file.storage_key}$`));
    // The agent's list shows the same.
    const list = (await t.api.get('/admin/quick-replies', { as: agent })).json().data;
    expect(list.find((q: { id: number }) => q.id === body.data.id)).toEqual(body.data);
  });

  it('lists them by shortcut', async () => {
    const admin = await t.api.user({ role: 'admin' });
    for (const shortcut of ['zeta', 'alfa', 'media-1', 'beta'])
      await t.api.post('/admin/quick-replies', { shortcut, text: shortcut }, { as: admin });
    const list = (await t.api.get('/admin/quick-replies', { as: admin })).json().data;
    expect(list.map((q: { shortcut: string }) => q.shortcut)).toEqual(['alfa', 'beta', 'media-1', 'zeta']);
    expect(list[0]).toMatchObject({ media_id: null, media: null });
  });

  it('a shortcut is unique within the company (409 on create and update), free in another company', async () => {
    const first = await t.as('admin', 'POST', '/admin/quick-replies', { shortcut: 'saludo', text: 'Hola' });
    expect(first.statusCode).toBe(201);
    const dup = await t.as(
      'admin',
      'POST',
      '/admin/quick-replies',
      { shortcut: 'saludo', text: 'Otra' },
      'en',
    );
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({
      message: 'A quick reply with this shortcut already exists.',
      errors: { shortcut: ['A quick reply with this shortcut already exists.'] },
    });
    const other = await t.as('otherAdmin', 'POST', '/admin/quick-replies', {
      shortcut: 'saludo',
      text: 'Hola B',
    });
    expect(other.statusCode).toBe(201);

    const second = await t.as('admin', 'POST', '/admin/quick-replies', {
      shortcut: 'despedida',
      text: 'Adiós',
    });
    const id = second.json().data.id;
    const clash = await t.as('admin', 'PUT', `/admin/quick-replies/${id}`, {
      shortcut: 'saludo',
      text: 'Adiós',
    });
    expect(clash.statusCode).toBe(409);
    expect(Object.keys(clash.json().errors)).toEqual(['shortcut']);
    // Keeping its own shortcut is no clash.
    const same = await t.as('admin', 'PUT', `/admin/quick-replies/${id}`, {
      shortcut: 'despedida',
      text: 'Chao',
    });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ message: 'Respuesta rápida actualizada.', data: { text: 'Chao' } });
  });

  it("refuses a file of another company's library, or one that does not exist (422 on media_id)", async () => {
    const foreign = await libraryFile(t.companyB, 'ajeno.png');
    const res = await t.as('admin', 'POST', '/admin/quick-replies', {
      shortcut: 'ajeno',
      text: 'x',
      media_id: foreign.id,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ media_id: ['El archivo no existe en la biblioteca de medios.'] });
    const created = await t.as('admin', 'POST', '/admin/quick-replies', { shortcut: 'propio', text: 'x' });
    const update = await t.as('admin', 'PUT', `/admin/quick-replies/${created.json().data.id}`, {
      shortcut: 'propio',
      text: 'x',
      media_id: 9_999_999,
    });
    expect(update.statusCode).toBe(422);
    expect(Object.keys(update.json().errors)).toEqual(['media_id']);
  });

  it('refuses a shortcut outside a-z 0-9 _ - or longer than 32, and an empty text (422)', async () => {
    for (const shortcut of ['Hola', 'con espacio', 'ñandú', 'a'.repeat(33)]) {
      const res = await t.as('admin', 'POST', '/admin/quick-replies', { shortcut, text: 'x' });
      expect(res.statusCode, shortcut).toBe(422);
      expect(res.json().errors.shortcut, shortcut).toBeDefined();
    }
    const res = await t.as('admin', 'POST', '/admin/quick-replies', { shortcut: 'vacio', text: '  ' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.text).toBeDefined();
  });

  it('deleting its library file leaves the quick reply without a file', async () => {
    const file = await libraryFile(t.companyA, 'borrable.png');
    const created = await t.as('admin', 'POST', '/admin/quick-replies', {
      shortcut: 'borrable',
      text: 'x',
      media_id: file.id,
    });
    await t.api.container.db.deleteFrom('media').where('id', '=', file.id).execute();
    const list = (await t.as('admin', 'GET', '/admin/quick-replies')).json().data;
    expect(list.find((q: { id: number }) => q.id === created.json().data.id)).toMatchObject({
      media_id: null,
      media: null,
    });
  });

  it('deletes one (200), then it is gone (404)', async () => {
    const created = await t.as('admin', 'POST', '/admin/quick-replies', { shortcut: 'efimera', text: 'x' });
    const id = created.json().data.id;
    const res = await t.as('admin', 'DELETE', `/admin/quick-replies/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Respuesta rápida eliminada.' });
    expect((await t.as('admin', 'DELETE', `/admin/quick-replies/${id}`)).statusCode).toBe(404);
  });

  it(`a company holds at most ${QUICK_REPLIES_MAX} (422 past it)`, async () => {
    const admin = await t.api.user({ role: 'admin' });
    const companyId = admin.user.company_id!;
    const at = new Date().toISOString();
    await t.api.container.db
      .insertInto('quick_replies')
      .values(
        Array.from({ length: QUICK_REPLIES_MAX - 1 }, (_, i) => ({
          company_id: companyId,
          shortcut: `r${i}`,
          text: 'x',
          media_id: null,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    const last = await t.api.post('/admin/quick-replies', { shortcut: 'ultima', text: 'x' }, { as: admin });
    expect(last.statusCode).toBe(201);
    const over = await t.api.post('/admin/quick-replies', { shortcut: 'sobra', text: 'x' }, { as: admin });
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toBe(`Se permiten como máximo ${QUICK_REPLIES_MAX} respuestas rápidas.`);
  });
});
