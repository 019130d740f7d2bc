// The chat's live events (the real-time module's subscribers), end to end: a webhook, a status report, a read and a bot-mode toggle each reach
// the admins of their own company over the real SSE stream, and nobody else's.
import { MESSAGE_STATUS } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { on } from '../../platform/events/domain-events';
import { createCast } from '../../../test/factories';
import { openStream } from '../../../test/sse';
import { inboundBody, signedRequest, statusBody } from '../../../test/whatsapp-webhook';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const PHONE_A = '555000201';
const PHONE_B = '555000202';

describe(`messaging events (${engine})`, () => {
  let ctx: TestContext;
  let base: string;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let companyA: number;
  let companyB: number;
  /** What the test's own subscriber heard: the product's subscribers must not replace it. */
  const heard: { companyId: number; messageId: number }[] = [];

  beforeAll(async () => {
    ctx = await createTestContext({
      eventsHeartbeatMs: 60_000,
      subscribers: [
        on('message.received', 'test.heard', async ({ companyId, messageId }) => {
          heard.push({ companyId, messageId });
        }),
      ],
    });
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    cast = await createCast(ctx);
    companyA = cast.admin.user.company_id!;
    companyB = cast.otherAdmin.user.company_id!;
    await ctx.container.settingsRepository.upsertSettings(companyA, { whatsapp_phone_id: PHONE_A });
    await ctx.container.settingsRepository.upsertSettings(companyB, { whatsapp_phone_id: PHONE_B });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const parsed = (stream: Awaited<ReturnType<typeof openStream>>) =>
    stream.events().map((e) => ({ event: e.event, data: JSON.parse(e.data ?? '{}') }));

  it('sends inbound, status, read and bot-mode events to the company they belong to only', async () => {
    const a = await openStream(base, cast.admin);
    const b = await openStream(base, cast.otherAdmin);
    await expect.poll(() => ctx.container.events.listenerCount(companyA)).toBe(1);
    await expect.poll(() => ctx.container.events.listenerCount(companyB)).toBe(1);

    // A customer writes to company A.
    const inbound = await ctx.app.inject(
      signedRequest(inboundBody(PHONE_A, '34611000001', 'text', { text: { body: 'Hola, ¿abrís hoy?' } })),
    );
    expect(inbound.statusCode).toBe(200);
    await expect.poll(() => a.events().length).toBe(2);
    const [created, unread] = parsed(a);
    expect(created.event).toBe('message.created');
    expect(created.data.message).toMatchObject({
      content: 'Hola, ¿abrís hoy?',
      sender_type: 'client',
      message_type: 'text',
      status: MESSAGE_STATUS.delivered,
      kind: 'message',
      phone: '34611000001',
    });
    const clientId = created.data.client_id as number;
    expect(unread).toEqual({
      event: 'client.unread',
      data: {
        client_id: clientId,
        unread_messages_count: 1,
        last_message_content: 'Hola, ¿abrís hoy?',
        last_message_date: expect.any(String),
      },
    });
    // The test's own subscriber heard it too.
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0]).toEqual({ companyId: companyA, messageId: created.data.message.id });

    // A second message: the count climbs.
    await ctx.app.inject(
      signedRequest(inboundBody(PHONE_A, '34611000001', 'text', { text: { body: '¿Hola?' } })),
    );
    await expect.poll(() => a.events().length).toBe(4);
    expect(parsed(a)[3].data).toMatchObject({ unread_messages_count: 2, last_message_content: '¿Hola?' });

    // A status report on one of company A's sent messages.
    const sent = await ctx.container.messagesRepository.insertMessage(companyA, {
      clientId,
      wamid: 'wamid.events.sent.1',
      sender: 'admin',
      messageType: 'text',
      waType: 'text',
      content: 'Sí, hasta las 20 h',
      phone: '34611000001',
      status: MESSAGE_STATUS.sent,
      createdAt: new Date().toISOString(),
    });
    await ctx.app.inject(signedRequest(statusBody(PHONE_A, 'wamid.events.sent.1', 'delivered')));
    await expect.poll(() => a.events().length).toBe(5);
    expect(parsed(a)[4]).toEqual({
      event: 'message.status',
      data: {
        client_id: clientId,
        message_id: sent!.id,
        status: MESSAGE_STATUS.delivered,
        error: null,
        error_detail: null,
      },
    });

    // The admin reads the chat: unread back to 0.
    const read = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v1/admin/messages/${clientId}/mark-as-read`,
      headers: cast.admin.headers,
    });
    expect(read.statusCode).toBe(200);
    await expect.poll(() => a.events().length).toBe(6);
    expect(parsed(a)[5]).toMatchObject({
      event: 'client.unread',
      data: { client_id: clientId, unread_messages_count: 0, last_message_content: '¿Hola?' },
    });

    // The admin pauses the bot for the client.
    const toggle = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/admin/client/${clientId}/toggle-bot-mode`,
      headers: cast.admin.headers,
      payload: { mode: 0 },
    });
    expect(toggle.statusCode).toBe(200);
    await expect.poll(() => a.events().length).toBe(7);
    expect(parsed(a)[6]).toEqual({ event: 'client.bot_mode', data: { client_id: clientId, mode_bot: 0 } });

    // Company B hears its own customer, and nothing of A's.
    const other = await createClient(ctx, companyB);
    await ctx.app.inject(
      signedRequest(inboundBody(PHONE_B, other.whatsapp_cellphone, 'text', { text: { body: 'Soy de B' } })),
    );
    await expect.poll(() => b.events().length).toBe(2);
    expect(parsed(b).map((e) => e.event)).toEqual(['message.created', 'client.unread']);
    expect(parsed(b)[0].data).toMatchObject({ client_id: other.id, message: { content: 'Soy de B' } });
    expect(parsed(b).every((e) => e.data.client_id === other.id)).toBe(true);
    // A's stream got nothing of B's, and no event for B's client.
    expect(a.events()).toHaveLength(7);
    expect(parsed(a).some((e) => e.data.client_id === other.id)).toBe(false);

    a.close();
    b.close();
  });

  it('does not publish for a redelivered message', async () => {
    const a = await openStream(base, cast.admin);
    await expect.poll(() => ctx.container.events.listenerCount(companyA)).toBe(1);
    const body = inboundBody(PHONE_A, '34611000002', 'text', { text: { body: 'una vez' } });
    await ctx.app.inject(signedRequest(body));
    await expect.poll(() => a.events().length).toBe(2);
    await ctx.app.inject(signedRequest(body));
    // A later message shows the stream moved on without a second copy of the first.
    await ctx.app.inject(
      signedRequest(inboundBody(PHONE_A, '34611000002', 'text', { text: { body: 'dos' } })),
    );
    await expect.poll(() => a.events().length).toBe(4);
    expect(
      parsed(a)
        .filter((e) => e.event === 'message.created')
        .map((e) => e.data.message.content),
    ).toEqual(['una vez', 'dos']);
    a.close();
  });
});
