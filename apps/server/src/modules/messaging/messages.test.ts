import { MESSAGE_STATUS, type Message } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { on } from '../../platform/events/domain-events';
import { createCast } from '../../../test/factories';
import { ADMIN_ONLY, expectRoleMatrix } from '../../../test/role-matrix';
import { inboundBody, signedRequest } from '../../../test/whatsapp-webhook';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const PHONE_ID = '555000111';

describe(`chat messages API (${engine})`, () => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let companyId: number;
  const reads: { companyId: number; clientId: number; lastWamid: string | null }[] = [];

  beforeAll(async () => {
    ctx = await createTestContext({
      subscribers: [
        on('conversation.read', 'test.reads', async ({ companyId, clientId, lastWamid }) => {
          reads.push({ companyId, clientId, lastWamid });
        }),
      ],
    });
    cast = await createCast(ctx);
    companyId = cast.admin.user.company_id!;
    await ctx.container.settingsRepository.upsertSettings(companyId, { whatsapp_phone_id: PHONE_ID });
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** Adds `count` messages to the client in bulk, numbered from 1 (oldest) in `content`. */
  async function seed(clientId: number, phone: string, count: number) {
    const at = new Date().toISOString();
    const rows = Array.from({ length: count }, (_, i) => ({
      company_id: companyId,
      client_id: clientId,
      wamid: `wamid.seed.${clientId}.${i + 1}`,
      sender_type: i % 3 === 0 ? 'admin' : 'client',
      message_type: 'text',
      wa_type: 'text',
      content: `m${i + 1}`,
      phone,
      status: i % 3 === 0 ? MESSAGE_STATUS.sent : MESSAGE_STATUS.delivered,
      created_at: at,
      updated_at: at,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await ctx.container.db
        .insertInto('messages')
        .values(rows.slice(i, i + 500))
        .execute();
  }

  const history = (clientId: number, query = '', headers = cast.admin.headers) =>
    ctx.app.inject({ method: 'GET', url: `/api/v1/admin/client/${clientId}/messages${query}`, headers });

  it('pages 10,000 messages: page 1 newest, oldest first within a page, every message exactly once', async () => {
    const client = await createClient(ctx, companyId);
    await seed(client.id, client.whatsapp_cellphone, 10_000);

    const first = await history(client.id);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.pagination).toEqual({
      current_page: 1,
      per_page: 10,
      total: 10_000,
      has_more_messages: true,
    });
    expect(body.messages.map((m: Message) => m.content)).toEqual(
      Array.from({ length: 10 }, (_, i) => `m${9991 + i}`),
    );
    expect(body.messages[0]).toMatchObject({
      client_id: client.id,
      phone: client.whatsapp_cellphone,
      message_type: 'text',
      media_url: null,
      error_code: null,
    });

    const last = (await history(client.id, '?page=1000&per_page=10')).json();
    expect(last.messages.map((m: Message) => m.content)).toEqual(
      Array.from({ length: 10 }, (_, i) => `m${i + 1}`),
    );
    expect(last.pagination.has_more_messages).toBe(false);
    const beyond = (await history(client.id, '?page=1001')).json();
    expect(beyond).toEqual({
      messages: [],
      scheduled: [],
      pagination: { current_page: 1001, per_page: 10, total: 10_000, has_more_messages: false },
    });

    // Walking back page by page with the largest page size sees each message once, in order.
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const res = (await history(client.id, `?page=${page}&per_page=100`)).json();
      seen.unshift(...res.messages.map((m: Message) => m.content));
      if (!res.pagination.has_more_messages) break;
    }
    expect(seen).toEqual(Array.from({ length: 10_000 }, (_, i) => `m${i + 1}`));
  });

  it('answers an empty conversation with no messages and no more pages', async () => {
    const client = await createClient(ctx, companyId);
    expect((await history(client.id)).json()).toEqual({
      messages: [],
      scheduled: [],
      pagination: { current_page: 1, per_page: 10, total: 0, has_more_messages: false },
    });
  });

  it('refuses bad paging and ids with 422 and field messages', async () => {
    const client = await createClient(ctx, companyId);
    for (const [query, field] of [
      ['?page=0', 'page'],
      ['?page=abc', 'page'],
      ['?per_page=101', 'per_page'],
      ['?per_page=0', 'per_page'],
    ]) {
      const res = await history(client.id, query);
      expect(res.statusCode, query).toBe(422);
      expect(Object.keys(res.json().errors), query).toContain(field);
    }
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/admin/client/abc/messages',
      headers: cast.admin.headers,
    });
    expect(res.statusCode).toBe(422);
    const patch = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/v1/admin/messages/0/mark-as-read',
      headers: cast.admin.headers,
    });
    expect(patch.statusCode).toBe(422);
    expect(Object.keys(patch.json().errors)).toEqual(['clientId']);
  });

  it("marks the customer's messages read and the unread count 0; a second call changes nothing", async () => {
    const client = await createClient(ctx, companyId);
    const texts = ['uno', 'dos', 'tres'];
    for (const text of texts)
      await ctx.app.inject(
        signedRequest(
          inboundBody(
            PHONE_ID,
            client.whatsapp_cellphone,
            'text',
            { text: { body: text } },
            { wamid: `wamid.read.${text}` },
          ),
        ),
      );
    const summary = async () =>
      (await ctx.container.clientsRepository.findClient(companyId, client.id))!.unread_messages_count;
    expect(await summary()).toBe(3);

    const mark = () =>
      ctx.app.inject({
        method: 'PATCH',
        url: `/api/v1/admin/messages/${client.id}/mark-as-read`,
        headers: cast.admin.headers,
      });
    const res = await mark();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Mensajes marcados como leídos.', updated: 3 });
    expect(await summary()).toBe(0);
    const messages = (await history(client.id)).json().messages as Message[];
    expect(messages.map((m) => m.status)).toEqual([2, 2, 2]);
    await ctx.container.outbox.idle();
    expect(reads).toEqual([{ companyId, clientId: client.id, lastWamid: 'wamid.read.tres' }]);

    expect((await mark()).json().updated).toBe(0);
    await ctx.container.outbox.idle();
    expect(reads).toHaveLength(1);
    // The company's own messages are left as they are.
    await seed(client.id, client.whatsapp_cellphone, 1);
    await mark();
    const own = (await history(client.id)).json().messages.at(-1) as Message;
    expect(own).toMatchObject({ sender_type: 'admin', status: MESSAGE_STATUS.sent });
  });

  it('role matrix: only a company admin; another company gets 404 for the client', async () => {
    const client = await createClient(ctx, companyId);
    await expectRoleMatrix(
      ctx,
      cast,
      { method: 'GET', url: `/api/v1/admin/client/${client.id}/messages` },
      {
        ...ADMIN_ONLY,
        admin: 200,
        otherAdmin: 404,
      },
    );
    await expectRoleMatrix(
      ctx,
      cast,
      { method: 'PATCH', url: `/api/v1/admin/messages/${client.id}/mark-as-read` },
      { ...ADMIN_ONLY, admin: 200, otherAdmin: 404 },
    );
    // A client id that exists nowhere: 404 too.
    expect((await history(2_000_000_000)).statusCode).toBe(404);
  });

  it("another company's admin cannot read or mark the conversation, and its unread count stays", async () => {
    const client = await createClient(ctx, companyId);
    await ctx.app.inject(
      signedRequest(inboundBody(PHONE_ID, client.whatsapp_cellphone, 'text', { text: { body: 'secreto' } })),
    );
    const other = cast.otherAdmin.headers;
    const read = await history(client.id, '', other);
    expect(read.statusCode).toBe(404);
    expect(read.body).not.toContain('secreto');
    const mark = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v1/admin/messages/${client.id}/mark-as-read`,
      headers: other,
    });
    expect(mark.statusCode).toBe(404);
    expect(
      (await ctx.container.clientsRepository.findClient(companyId, client.id))!.unread_messages_count,
    ).toBe(1);
  });
});
