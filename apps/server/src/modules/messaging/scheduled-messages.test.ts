// Scheduled messages ('Programar envío'): POST /admin/message and the template send with `send_at`, the
// edit and cancel routes, and the job that sends at the time — through the fake Graph API, on a faked
// `Date` (the queue's own timers run as usual, so a step of the clock is all a scheduled time needs).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MESSAGE_STATUS, type Message } from '@hablabot/contract';
import { type FakeGraphApi, startFakeGraphApi } from '@hablabot/fakes';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, type TestDatabase, createTestDatabase } from '../../../test/context';
import { type TestUser, createUser } from '../../../test/factories';
import { waitFor } from '../../../test/wait';
import { connectWhatsApp } from '../../../test/whatsapp-company';
import { buildApp } from '../../app';
import { createContainer } from '../../container';
import { migrateToLatest } from '../../db/migrate';
import { createAuthCache } from '../../platform/auth-cache';
import { createDatabaseJobQueue } from '../../platform/jobs/database-jobs';
import { createMemoryRateLimitStore } from '../../platform/rate-limit';
import { createLocalStorage } from '../../platform/storage';

const TOKEN = 'EAAG-scheduled-token';
const PHONE_ID = '106540352200099';
const HOUR = 60 * 60 * 1000;
const MINUTE = 60 * 1000;

/**
 * One process of the app on a database: its own container, job queue (polling often) and HTTP app. Two
 * of them in turn on one database are a restart.
 */
async function openApp(database: TestDatabase['database'], appKey: Buffer, dir: string) {
  const authCache = createAuthCache({ channel: 'test', ttlMs: 0 });
  await authCache.ready();
  const rateLimits = createMemoryRateLimitStore();
  const container = createContainer(
    {
      database,
      rateLimits,
      authCache,
      appKey,
      storage: createLocalStorage(path.join(dir, 'media')),
      privateFiles: createLocalStorage(path.join(dir, 'private')),
      jobs: createDatabaseJobQueue({ db: database.db, engine: database.engine, pollMs: 50 }),
    },
    { cloudApiTimeoutMs: 2000 },
  );
  const app = await buildApp({ container, logger: false });
  await app.ready();
  const ctx = { app, container, engine: database.engine, mediaDir: dir } as unknown as TestContext;
  return {
    ctx,
    /** Stops this process (its database stays). */
    async close() {
      await app.close();
      await authCache.close();
      await container.outbox.stop();
      await container.jobs.stop();
      await container.events.close();
      await rateLimits.close();
    },
  };
}

describe('scheduled messages', () => {
  let testDb: TestDatabase;
  let dir: string;
  const appKey = randomBytes(32);
  let running: Awaited<ReturnType<typeof openApp>>;
  let ctx: TestContext;
  let fake: FakeGraphApi;
  let admin: TestUser;
  let agentA: TestUser;
  let agentB: TestUser;
  let companyId: number;

  beforeAll(async () => {
    fake = await startFakeGraphApi({
      tokens: [TOKEN],
      phoneNumbers: [
        {
          id: PHONE_ID,
          display_phone_number: '15550783899',
          verified_name: 'HablaBot',
          quality_rating: 'GREEN',
        },
      ],
    });
    testDb = await createTestDatabase();
    await migrateToLatest(testDb.database.db, testDb.schema);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hablabot-scheduled-'));
    running = await openApp(testDb.database, appKey, dir);
    ctx = running.ctx;
    await ctx.container.jobs.start();
    admin = await createUser(ctx, { role: 'admin' });
    companyId = admin.user.company_id!;
    agentA = await createUser(ctx, { role: 'agent', companyId });
    agentB = await createUser(ctx, { role: 'agent', companyId });
    await ctx.container.inboxSettings.save(companyId, { agents_see_all: false });
    await connectWhatsApp(ctx.container, companyId, {
      phoneId: PHONE_ID,
      token: TOKEN,
      baseUrl: fake.baseUrl,
    });
    const at = new Date().toISOString();
    await ctx.container.db
      .insertInto('message_templates')
      .values({
        company_id: companyId,
        meta_id: '777001',
        name: 'recordatorio',
        language: 'es',
        status: 'APPROVED',
        category: 'UTILITY',
        components: JSON.stringify([{ type: 'BODY', text: 'Te recordamos tu cita de mañana.' }]),
        rejected_reason: null,
        quality: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  });
  afterAll(async () => {
    vi.useRealTimers();
    await running.close();
    await fake.close();
    await testDb.database.destroy();
    await testDb.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    fake.reset();
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Moves the faked clock on. */
  const step = (ms: number) => vi.setSystemTime(Date.now() + ms);
  const later = (ms: number) => new Date(Date.now() + ms).toISOString();

  /** A client who wrote `ago` ms ago, in a conversation assigned to `assignee` (none: unassigned). */
  async function customer(ago = MINUTE, assignee: TestUser | null = null) {
    const client = await createClient(ctx, companyId);
    const written = new Date(Date.now() - ago).toISOString();
    await ctx.container.messagesRepository.insertMessage(companyId, {
      clientId: client.id,
      wamid: `wamid.in.scheduled.${client.id}`,
      sender: 'client',
      messageType: 'text',
      waType: 'text',
      content: '¿Me escribís mañana?',
      phone: client.whatsapp_cellphone,
      status: MESSAGE_STATUS.delivered,
      createdAt: written,
    });
    await ctx.container.db
      .updateTable('conversations')
      .set({ assignee_user_id: assignee?.user.id ?? null })
      .where('client_id', '=', client.id)
      .execute();
    return client;
  }

  const call = (method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, body?: object, who = admin) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers: who.headers, payload: body });

  async function schedule(clientId: number, sendAt: string, content = 'Te escribo a la hora') {
    const res = await call('POST', '/admin/message', { client_id: clientId, content, send_at: sendAt });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as Message;
  }

  async function stored(id: number): Promise<Message | undefined> {
    return ctx.container.messagesRepository.findMessage(companyId, id);
  }

  /** Waits until `n` scheduled sends wait and none runs. */
  const queued = (n: number) =>
    waitFor(async () => {
      const c = (await ctx.container.jobs.counts())['messaging.scheduled-send'];
      return (c?.waiting ?? 0) === n && (c?.running ?? 0) === 0;
    });

  /**
   * Waits until the scheduled message's time came and its send settled: its row is gone and the new row
   * that took its place (the client's newest message of the company) is sent or not sent.
   */
  const settled = (scheduled: Message) =>
    waitFor(async () => {
      if (await stored(scheduled.id)) return undefined;
      const newest = await ctx.container.db
        .selectFrom('messages')
        .select('id')
        .where('client_id', '=', scheduled.client_id)
        .where('sender_type', '=', 'admin')
        .orderBy('id', 'desc')
        .executeTakeFirst();
      const m = newest ? await stored(newest.id) : undefined;
      return m && m.status !== MESSAGE_STATUS.pending ? m : undefined;
    });

  it('stores the message scheduled, sends nothing, and sends it through WhatsApp at its time', async () => {
    const client = await customer();
    const sendAt = later(HOUR);
    const message = await schedule(client.id, sendAt);
    expect(message).toMatchObject({
      status: MESSAGE_STATUS.scheduled,
      status_name: 'scheduled',
      scheduled_at: sendAt,
      content: 'Te escribo a la hora',
    });
    // Listed apart from the conversation's pages, below it.
    const history = (await call('GET', `/admin/client/${client.id}/messages`)).json();
    expect(history.scheduled).toMatchObject([{ id: message.id, status_name: 'scheduled' }]);
    expect(history.messages.map((m: Message) => m.id)).not.toContain(message.id);
    // Not yet part of what the bot reads of the conversation.
    const turns = await ctx.container.messagesRepository.recentConversation(companyId, client.id, 10);
    expect(turns.map((t) => t.id)).not.toContain(message.id);
    step(30 * MINUTE);
    // Half-way: the queue polled many times, nothing went out.
    await queued(1);
    expect(fake.sent).toHaveLength(0);
    expect((await stored(message.id))?.status).toBe(MESSAGE_STATUS.scheduled);

    step(31 * MINUTE);
    const sent = await settled(message);
    expect(sent.status).toBe(MESSAGE_STATUS.sent);
    expect(fake.sent).toHaveLength(1);
    expect(fake.sent[0]).toMatchObject({ to: client.whatsapp_cellphone, type: 'text' });
    expect(fake.sent[0]!.body.text).toMatchObject({ body: 'Te escribo a la hora' });
    // Dated when it went out; the time it was scheduled for stays.
    expect(Date.parse(sent.created_at)).toBeGreaterThanOrEqual(Date.parse(sendAt));
    expect(sent.scheduled_at).toBe(sendAt);
  });

  it('lists scheduled messages below the conversation by time; once sent, one comes after what the customer wrote since', async () => {
    const live: { type: string; data: { message_id?: number; message?: Message } }[] = [];
    await ctx.container.events.subscribe(companyId, (e) => void live.push(e as (typeof live)[number]));
    const client = await customer();
    const second = await schedule(client.id, later(2 * HOUR), 'Segundo');
    const first = await schedule(client.id, later(HOUR), 'Primero');
    step(MINUTE);
    const reply = await ctx.container.messagesRepository.insertMessage(companyId, {
      clientId: client.id,
      wamid: `wamid.in.after.${client.id}`,
      ...{ sender: 'client', messageType: 'text', waType: 'text', content: 'Otra cosa' },
      phone: client.whatsapp_cellphone,
      status: MESSAGE_STATUS.delivered,
      createdAt: new Date().toISOString(),
    });
    const page = async (who = admin) =>
      (await call('GET', `/admin/client/${client.id}/messages`, undefined, who)).json();
    const before = await page();
    expect(before.messages.at(-1)).toMatchObject({ id: reply!.id });
    expect(before.scheduled.map((m: Message) => m.id)).toEqual([first.id, second.id]);
    step(HOUR);
    const sent = await settled(first);
    const again = await createUser(ctx, { role: 'admin', companyId }); // signed in again: an hour went by
    const after = await page(again);
    // In its place at the time it went out, below the customer's message; the other still waits apart.
    expect(after.messages.slice(-2).map((m: Message) => m.id)).toEqual([reply!.id, sent.id]);
    expect(after.messages.at(-1)).toMatchObject({ content: 'Primero', status: MESSAGE_STATUS.sent });
    expect(after.scheduled.map((m: Message) => m.id)).toEqual([second.id]);
    expect(after.pagination.total).toBe(4);
    const detail = (await call('GET', `/admin/messages/${sent.id}`, undefined, again)).json().data;
    expect(detail.statuses.map((x: { status: string }) => x.status).slice(0, 2)).toEqual([
      'scheduled',
      'pending',
    ]);
    // The chat hears the scheduled one leave and the sent one arrive.
    await waitFor(() => live.some((e) => e.type === 'message.deleted' && e.data.message_id === first.id));
    expect(live.some((e) => e.type === 'message.created' && e.data.message?.id === sent.id)).toBe(true);
    expect((await call('DELETE', `/admin/messages/${second.id}`, undefined, again)).statusCode).toBe(200);
  });

  it('marks free text not sent, explaining to use a template, when the 24-hour window closed by then', async () => {
    const client = await customer(23 * HOUR);
    const message = await schedule(client.id, later(2 * HOUR));
    step(2 * HOUR + MINUTE);
    const failed = await settled(message);
    expect(failed).toMatchObject({ status: MESSAGE_STATUS.failed, error_code: 131047 });
    expect(failed.error_message).toMatch(/plantilla/);
    expect(fake.sent).toHaveLength(0);
  });

  it('sends a scheduled template whatever the window', async () => {
    const client = await customer(23 * HOUR);
    const res = await call('POST', '/admin/messages/send-template-message', {
      client_id: client.id,
      templateName: 'recordatorio',
      send_at: later(2 * HOUR),
    });
    expect(res.statusCode, res.body).toBe(201);
    const message = res.json().data as Message;
    expect(message.status).toBe(MESSAGE_STATUS.scheduled);
    expect(fake.sent).toHaveLength(0);
    step(2 * HOUR + MINUTE);
    expect((await settled(message)).status).toBe(MESSAGE_STATUS.sent);
    expect(fake.sent).toHaveLength(1);
    expect(fake.sent[0]).toMatchObject({ type: 'template' });
  });

  it('edits the text and the time: the old time sends nothing, the new one sends the new text', async () => {
    const client = await customer();
    const message = await schedule(client.id, later(HOUR), 'Primera versión');
    const newAt = later(3 * HOUR);
    const res = await call('PUT', `/admin/messages/${message.id}`, {
      content: 'Segunda versión',
      send_at: newAt,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ content: 'Segunda versión', scheduled_at: newAt });
    step(HOUR + MINUTE);
    // The first job runs and finds another time: it leaves the message alone.
    await queued(1);
    expect(fake.sent).toHaveLength(0);
    step(2 * HOUR);
    const sent = await settled(message);
    expect(sent.status).toBe(MESSAGE_STATUS.sent);
    expect(fake.sent).toHaveLength(1);
    expect(fake.sent[0]!.body.text).toMatchObject({ body: 'Segunda versión' });
    // Once sent it can no longer be changed nor cancelled (signed in again: hours went by): the
    // scheduled id is gone, the message that went out is no longer scheduled.
    const again = await createUser(ctx, { role: 'admin', companyId });
    expect((await call('PUT', `/admin/messages/${message.id}`, { content: 'Tarde' }, again)).statusCode).toBe(
      404,
    );
    expect((await call('PUT', `/admin/messages/${sent.id}`, { content: 'Tarde' }, again)).statusCode).toBe(
      409,
    );
    expect((await call('DELETE', `/admin/messages/${sent.id}`, undefined, again)).statusCode).toBe(409);
  });

  it('cancels: the message leaves the conversation and nothing is sent', async () => {
    const live: { type: string; data: { message_id?: number; message?: Message } }[] = [];
    await ctx.container.events.subscribe(companyId, (e) => void live.push(e as (typeof live)[number]));
    const client = await customer();
    const message = await schedule(client.id, later(HOUR));
    await waitFor(() => live.some((e) => e.type === 'message.created' && e.data.message?.id === message.id));
    const res = await call('DELETE', `/admin/messages/${message.id}`);
    expect(res.statusCode, res.body).toBe(200);
    // The chat hears it leave.
    await waitFor(() => live.some((e) => e.type === 'message.deleted' && e.data.message_id === message.id));
    expect(await stored(message.id)).toBeUndefined();
    const history = (await call('GET', `/admin/client/${client.id}/messages`)).json();
    expect(history.messages.map((m: Message) => m.id)).not.toContain(message.id);
    expect(history.pagination.total).toBe(1);
    step(HOUR + MINUTE);
    await queued(0);
    expect(fake.sent).toHaveLength(0);
  });

  it('refuses a time in the past, too far ahead or without its offset, with the field named', async () => {
    const client = await customer();
    for (const sendAt of [later(-MINUTE), later(31 * 24 * HOUR), '2026-12-01T10:00:00', 'mañana']) {
      const res = await call('POST', '/admin/message', {
        client_id: client.id,
        content: 'x',
        send_at: sendAt,
      });
      expect(res.statusCode, sendAt).toBe(422);
      expect(Object.keys(res.json().errors ?? {})).toContain('send_at');
    }
    const message = await schedule(client.id, later(HOUR));
    const bad = await call('PUT', `/admin/messages/${message.id}`, { send_at: later(-HOUR) });
    expect(bad.statusCode).toBe(422);
    expect(fake.sent).toHaveLength(0);
  });

  it("answers 404 to an agent on another agent's scheduled message, and lets the assignee change it", async () => {
    const client = await customer(MINUTE, agentB);
    const message = await schedule(client.id, later(HOUR));
    expect((await call('PUT', `/admin/messages/${message.id}`, { content: 'Mío' }, agentA)).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `/admin/messages/${message.id}`, undefined, agentA)).statusCode).toBe(404);
    expect(
      (
        await call(
          'POST',
          '/admin/message',
          { client_id: client.id, content: 'x', send_at: later(HOUR) },
          agentA,
        )
      ).statusCode,
    ).toBe(404);
    expect((await call('PUT', `/admin/messages/${message.id}`, { content: 'Mío' }, agentB)).statusCode).toBe(
      200,
    );
    expect((await call('DELETE', `/admin/messages/${message.id}`, undefined, agentB)).statusCode).toBe(200);
  });

  it('survives a restart: a new process on the same database sends it at its time', async () => {
    const client = await customer();
    const message = await schedule(client.id, later(HOUR));
    await running.close();
    running = await openApp(testDb.database, appKey, dir);
    ctx = running.ctx;
    await ctx.container.jobs.start();
    step(HOUR + MINUTE);
    expect((await settled(message)).status).toBe(MESSAGE_STATUS.sent);
    expect(fake.sent.filter((s) => s.to === client.whatsapp_cellphone)).toHaveLength(1);
  });
});
