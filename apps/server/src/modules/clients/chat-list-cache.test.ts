// The chat list's kept pages (GET /admin/client/messages-summary, chat-list-cache.ts): served from memory
// until something in them changes, fresh after every kind of change (through the API, through a
// customer's message and what it sets off, from another instance), and never one viewer's page to a
// viewer who may see less.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { createContainer } from '../../container';
import { createAnswerCache } from '../../platform/answer-cache';
import { createAuthCache } from '../../platform/auth-cache';
import { createClient, createSegment, setConversation } from '../../../test/clients-factories';
import { type TestApi, type TestUser, createTestApi } from '../../../test/http';
import { connectWhatsApp } from '../../../test/whatsapp-company';
import { inboundBody, signedRequest } from '../../../test/whatsapp-webhook';

const PHONE_ID = '555000123';
const PAGE = '/admin/client/messages-summary?per_page=50&page=1';

interface Row {
  id: number;
  name: string;
  segments: { name: string }[];
  unread_messages_count: number;
  last_message_content: string | null;
  opted_out_at?: string | null;
}

describe('the chat list page cache', () => {
  let api: TestApi;
  let admin: TestUser;
  let agent: TestUser;
  let otherAgent: TestUser;
  let companyId: number;
  let segmentId: number;
  const clients: Record<'mine' | 'others' | 'free', { id: number; whatsapp_cellphone: string }> = {} as never;

  async function page(as: TestUser = admin, url = PAGE): Promise<Row[]> {
    const res = await api.get(url, { as });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    return res.json().clients as Row[];
  }
  const createClientThroughApi = async () => {
    const res = await api.post(
      '/admin/client',
      {
        name: 'Por la API',
        last_names: 'Nueva',
        whatsapp_cellphone: '34611222333',
        email: 'api@example.test',
        segments: [segmentId],
      },
      { as: admin },
    );
    expect(res.statusCode, res.body).toBe(201);
  };
  const rowOf = async (id: number, as: TestUser = admin) => (await page(as)).find((r) => r.id === id);

  /** Changes a row behind the application's back: only a page built again shows it. */
  const renameBehindItsBack = (id: number, name: string) =>
    api.container.db.updateTable('clients').set({ name }).where('id', '=', id).execute();

  beforeAll(async () => {
    api = await createTestApi();
    admin = await api.user({ role: 'admin' });
    companyId = admin.user.company_id!;
    agent = await api.user({ role: 'agent', companyId });
    otherAgent = await api.user({ role: 'agent', companyId });
    await connectWhatsApp(api.container, companyId, {
      phoneId: PHONE_ID,
      token: 'token',
      baseUrl: 'http://127.0.0.1:9/v21.0',
    });
    segmentId = (await createSegment(api, companyId, { name: 'VIP' })).id;
    for (const [key, assignee] of [
      ['mine', agent],
      ['others', otherAgent],
      ['free', null],
    ] as const) {
      const client = await createClient(api, companyId, { name: `Cliente ${key}`, segments: [segmentId] });
      await setConversation(api, client, {
        unread_count: 1,
        last_message_content: `hola ${key}`,
        last_message_at: new Date(Date.now() - 60_000).toISOString(),
      });
      await api.container.db
        .updateTable('conversations')
        .set({ assignee_user_id: assignee?.user.id ?? null })
        .where('client_id', '=', client.id)
        .execute();
      clients[key] = client;
    }
  });
  afterAll(async () => {
    await api?.close();
  });

  it('serves a kept page until something announced changes it (a change behind its back waits)', async () => {
    const before = await rowOf(clients.free.id);
    expect(before?.name).toBe('Cliente free');
    await renameBehindItsBack(clients.free.id, 'Cambiado a escondidas');
    expect((await rowOf(clients.free.id))?.name).toBe('Cliente free');
    // Any write through the API drops the company's pages; the next read is built again.
    expect(
      (
        await api.put(
          `/admin/segment/${segmentId}`,
          { name: 'VIP', color: '#7300ff', rules: 'x' },
          { as: admin },
        )
      ).statusCode,
    ).toBe(200);
    expect((await rowOf(clients.free.id))?.name).toBe('Cambiado a escondidas');
  });

  it('is fresh after a client is edited', async () => {
    await page();
    const res = await api.put(
      `/admin/client/${clients.free.id}`,
      {
        name: 'Editada',
        last_names: 'Por la ficha',
        whatsapp_cellphone: clients.free.whatsapp_cellphone,
        email: 'editada@example.test',
        segments: [segmentId],
      },
      { as: admin },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect((await rowOf(clients.free.id))?.name).toBe('Editada');
  });

  it('is fresh after a segment is renamed', async () => {
    await page();
    await api.put(
      `/admin/segment/${segmentId}`,
      { name: 'Oro', color: '#7300ff', rules: 'x' },
      { as: admin },
    );
    expect((await rowOf(clients.free.id))?.segments.map((s) => s.name)).toEqual(['Oro']);
  });

  it("is fresh after a customer's message (webhook), after it is read, and after an opt-out word", async () => {
    await page();
    const message = inboundBody(PHONE_ID, clients.free.whatsapp_cellphone, 'text', {
      text: { body: 'Nuevo' },
    });
    expect((await api.app.inject(signedRequest(message))).statusCode).toBe(200);
    await api.container.outbox.idle();
    const row = await rowOf(clients.free.id);
    expect(row?.last_message_content).toBe('Nuevo');
    expect(row?.unread_messages_count).toBe(2);

    const read = await api.call('PATCH', `/admin/messages/${clients.free.id}/mark-as-read`, undefined, {
      as: admin,
    });
    expect(read.statusCode, read.body).toBe(200);
    expect((await rowOf(clients.free.id))?.unread_messages_count).toBe(0);

    // Consent marks the client while handling the message's event: the page shows it once handled.
    const stop = inboundBody(PHONE_ID, clients.free.whatsapp_cellphone, 'text', { text: { body: 'BAJA' } });
    expect((await api.app.inject(signedRequest(stop))).statusCode).toBe(200);
    await api.container.outbox.idle();
    expect((await rowOf(clients.free.id))?.opted_out_at).toBeTruthy();
  });

  it('is fresh after clients are imported and deleted', async () => {
    await page();
    const segment = await api.container.segmentsRepository.findSegment(companyId, segmentId);
    const row = {
      Nombre: 'Importada',
      Apellidos: 'Nueva',
      Teléfono: '+34 699 000 111',
      Correo: 'importada@example.test',
      Segmentos: segment!.name,
    };
    const imported = await api.post('/import/clients', { clients: [row] }, { as: admin });
    expect(imported.statusCode, imported.body).toBe(200);
    const added = (await page()).find((r) => r.name === 'Importada');
    expect(added).toBeTruthy();
    expect((await api.delete('/admin/client', { ids: [added!.id] }, { as: admin })).statusCode).toBe(200);
    expect((await page()).some((r) => r.name === 'Importada')).toBe(false);
  });

  it('keeps the segment list per language, fresh after clients join a segment and after segments change', async () => {
    const count = async (lang = 'es') => {
      const res = await api.get('/admin/segment', { as: admin, lang });
      expect(res.statusCode, res.body).toBe(200);
      const list = res.json() as { segments: { id: number; clients_count: number }[]; message: string };
      return { n: list.segments.find((x) => x.id === segmentId)?.clients_count, message: list.message };
    };
    const before = await count();
    expect((await count('en')).message).not.toBe(before.message);
    await createClientThroughApi();
    expect((await count()).n).toBe(before.n! + 1);
    const made = await api.post(
      '/admin/segment',
      { name: 'Nuevo', color: '#7300ff', rules: 'x' },
      { as: admin },
    );
    expect(made.statusCode).toBe(201);
    const res = await api.get('/admin/segment', { as: admin });
    expect((res.json().segments as { name: string }[]).some((x) => x.name === 'Nuevo')).toBe(true);
  });

  it("never gives an agent an admin's kept page, and follows an assignment", async () => {
    const ids = (rows: Row[]) => rows.map((r) => r.id).sort((a, b) => a - b);
    // The admin's page is kept first; the agent then asks the very same query.
    expect(ids(await page(admin))).toEqual(expect.arrayContaining([clients.others.id]));
    expect(ids(await page(agent))).not.toContain(clients.others.id);
    expect(ids(await page(agent))).toEqual(expect.arrayContaining([clients.mine.id, clients.free.id]));
    // The other agent gives their conversation to this one: it joins this agent's page.
    const assigned = await api.post(
      `/admin/conversations/${clients.others.id}/assign`,
      { user_id: agent.user.id },
      { as: admin },
    );
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(ids(await page(agent))).toContain(clients.others.id);
    expect(ids(await page(otherAgent))).not.toContain(clients.others.id);
    // Once agents may see all, an agent's page is everyone's.
    expect((await api.put('/admin/inbox-settings', { agents_see_all: true }, { as: admin })).statusCode).toBe(
      200,
    );
    expect(ids(await page(otherAgent))).toContain(clients.others.id);
  });
});

describe('the answer cache', () => {
  it('does not keep an answer built while its company was invalidated, and keeps answers for their time', async () => {
    let clock = 1000;
    const cache = createAnswerCache({ ttlMs: 500, now: () => clock });
    let release!: () => void;
    const slow = cache.answer(1, 'k', () => new Promise<string>((r) => (release = () => r('"old"'))));
    await cache.invalidate([1]);
    release();
    expect((await slow).toString()).toBe('"old"');
    expect(cache.size).toBe(0);
    expect((await cache.answer(1, 'k', async () => '"new"')).toString()).toBe('"new"');
    expect((await cache.answer(1, 'k', async () => '"newer"')).toString()).toBe('"new"');
    // Another company's invalidation leaves it; its time running out does not.
    await cache.invalidate([2]);
    expect((await cache.answer(1, 'k', async () => '"newer"')).toString()).toBe('"new"');
    clock += 500;
    expect((await cache.answer(1, 'k', async () => '"newer"')).toString()).toBe('"newer"');
    await cache.close();
  });
});

describe.runIf(process.env.REDIS_URL)('the chat list page cache, two instances (Redis)', () => {
  it("drops a page kept by one instance when another changes it, through the API and through a customer's message", async () => {
    const api = await createTestApi();
    const redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 2 });
    const otherAuth = createAuthCache({ redis, channel: api.container.infra.authCache.channel });
    expect(await otherAuth.ready()).toBe(true);
    const other = await buildApp({
      container: createContainer({ ...api.container.infra, authCache: otherAuth }),
    });
    try {
      const admin = await api.user({ role: 'admin' });
      const companyId = admin.user.company_id!;
      await connectWhatsApp(api.container, companyId, {
        phoneId: '555000124',
        token: 'token',
        baseUrl: 'http://127.0.0.1:9/v21.0',
      });
      const client = await createClient(api, companyId, { name: 'Antes' });
      const headers = { authorization: `Bearer ${admin.token}` };
      const nameHere = async () =>
        ((await api.get(PAGE, { as: admin })).json().clients as Row[]).find((r) => r.id === client.id);
      expect((await nameHere())?.name).toBe('Antes');
      const edit = await other.inject({
        method: 'PUT',
        url: `/api/v1/admin/client/${client.id}`,
        headers,
        payload: { ...client, name: 'Después', segments: client.segments.map((s) => s.id) },
      });
      expect(edit.statusCode, edit.body).toBe(200);
      await expect
        .poll(async () => (await nameHere())?.name, { timeout: 2000, interval: 20 })
        .toBe('Después');
      // A customer's message handled by the other instance (its webhook, its outbox).
      const body = inboundBody('555000124', client.whatsapp_cellphone, 'text', { text: { body: 'Desde B' } });
      expect((await other.inject(signedRequest(body))).statusCode).toBe(200);
      await expect
        .poll(async () => (await nameHere())?.last_message_content, { timeout: 5000, interval: 20 })
        .toBe('Desde B');
    } finally {
      await other.close();
      await otherAuth.close();
      redis.disconnect();
      await api.close();
    }
  });
});
