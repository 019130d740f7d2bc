// Keeping a mass message's accepted recipients in their conversations, on the real database: recipients
// accepted together are written as one batch per company, and every rule of one recipient holds for each
// of them — the campaign's message, its status history, the conversation's last message, `message.sent`,
// and a status WhatsApp reported before the message was kept.
import { MESSAGE_STATUS } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';
import { on } from '../../platform/events/domain-events';
import { keepInConversation } from './in-conversation';
import type { MassMessageRow, RecipientRow } from './mass-messages.repository';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

let ctx: TestContext;
let companyA: number;
let companyB: number;
const sent: { companyId: number; clientId: number; messageId: number }[] = [];

beforeAll(async () => {
  ctx = await createTestContext({
    subscribers: [on('message.sent', 'test.sent', async (e) => void sent.push(e))],
  });
  const cast = await createCast(ctx);
  companyA = cast.admin.user.company_id!;
  companyB = cast.otherAdmin.user.company_id!;
});

afterAll(async () => {
  await ctx.close();
});

/** A send of the company, as the sender hands it over, with a recipient row per client. */
async function sendTo(companyId: number, clientIds: number[]) {
  const { db } = ctx.container;
  const at = new Date().toISOString();
  const send = (await db
    .insertInto('mass_messages')
    .values({
      company_id: companyId,
      name: 'Aviso',
      status: 'sending',
      list_id: null,
      list_name: 'Lista',
      template_id: null,
      template_name: 'aviso',
      template_language: 'es',
      template_body: 'Hola {{1}}.',
      body_parameters: '{}',
      header: null,
      media_id: null,
      message: 'Hola.',
      messages_per_second: 80,
      counts: '{}',
      created_by: null,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow()) as MassMessageRow;
  const recipients = (await db
    .insertInto('mass_message_recipients')
    .values(
      clientIds.map((clientId, i) => ({
        mass_message_id: send.id,
        company_id: companyId,
        client_id: clientId,
        name: `Cliente ${i}`,
        last_names: '',
        phone: String(573100000000 + clientId),
        email: null,
        status: 'sent',
        updated_at: at,
      })),
    )
    .returningAll()
    .execute()) as RecipientRow[];
  return { send, recipients };
}

const content = { type: 'template', template: { name: 'aviso', language: { code: 'es' } } } as const;

describe(`a mass send's recipients in their conversations (${engine})`, () => {
  it('are kept together, each with every rule of one, per company', async () => {
    const { db, outbox, massMessagesRepository } = ctx.container;
    const [a1, a2] = [await createClient(ctx, companyA), await createClient(ctx, companyA)];
    const b1 = await createClient(ctx, companyB);
    const first = await sendTo(companyA, [a1.id, a2.id]);
    const second = await sendTo(companyA, [a1.id]);
    const other = await sendTo(companyB, [b1.id]);
    // WhatsApp reported a2's message delivered before it was kept.
    await db
      .updateTable('mass_message_recipients')
      .set({ status: 'delivered' })
      .where('id', '=', first.recipients[1].id)
      .execute();
    const keep = keepInConversation({ outbox, massMessagesRepository, gatherMs: 0 });
    const wamid = (r: RecipientRow) => `wamid.keep.${r.id}`;
    const batch = [
      [first.send, first.recipients[0], 'Hola Ana (1).'],
      [first.send, first.recipients[1], 'Hola Luis.'],
      [other.send, other.recipients[0], 'Hola Bea.'],
      [second.send, second.recipients[0], 'Hola Ana (2).'],
    ] as const;
    // Accepted in the same turn: one batch for company A, one for B.
    await Promise.all(batch.map(([s, r, text]) => keep(s, r, { wamid: wamid(r), text, content })));

    const messages = await db
      .selectFrom('messages')
      .selectAll()
      .where(
        'wamid',
        'in',
        batch.map(([, r]) => wamid(r)),
      )
      .orderBy('id')
      .execute();
    expect(
      messages.map((m) => [
        m.company_id,
        m.client_id,
        m.content,
        m.sender_type,
        m.wa_type,
        m.author_kind,
        m.author_mass_message_id,
        m.status,
      ]),
    ).toEqual(
      expect.arrayContaining([
        [
          companyA,
          a1.id,
          'Hola Ana (1).',
          'admin',
          'template',
          'campaign',
          first.send.id,
          MESSAGE_STATUS.sent,
        ],
        [
          companyA,
          a2.id,
          'Hola Luis.',
          'admin',
          'template',
          'campaign',
          first.send.id,
          MESSAGE_STATUS.delivered,
        ],
        [companyB, b1.id, 'Hola Bea.', 'admin', 'template', 'campaign', other.send.id, MESSAGE_STATUS.sent],
        [
          companyA,
          a1.id,
          'Hola Ana (2).',
          'admin',
          'template',
          'campaign',
          second.send.id,
          MESSAGE_STATUS.sent,
        ],
      ]),
    );
    expect(messages).toHaveLength(4);
    for (const m of messages) expect(JSON.parse(m.outbound_request!)).toEqual({ content });
    // Each starts its status history at `sent`; a2's went on to `delivered`.
    const history = await db
      .selectFrom('message_statuses')
      .select(['message_id', 'status'])
      .where(
        'message_id',
        'in',
        messages.map((m) => m.id),
      )
      .orderBy('id')
      .execute();
    const a2Message = messages.find((m) => m.client_id === a2.id)!;
    for (const m of messages)
      expect(history.filter((h) => h.message_id === m.id).map((h) => h.status)).toEqual(
        m.id === a2Message.id ? ['sent', 'delivered'] : ['sent'],
      );
    // The conversation shows the client's newest message; each message was announced once, in its company.
    const conversations = await db
      .selectFrom('conversations')
      .select(['client_id', 'company_id', 'last_message_content'])
      .where('client_id', 'in', [a1.id, a2.id, b1.id])
      .execute();
    expect(conversations).toEqual(
      expect.arrayContaining([
        { client_id: a1.id, company_id: companyA, last_message_content: 'Hola Ana (2).' },
        { client_id: a2.id, company_id: companyA, last_message_content: 'Hola Luis.' },
        { client_id: b1.id, company_id: companyB, last_message_content: 'Hola Bea.' },
      ]),
    );
    await outbox.idle();
    expect(sent.filter((e) => messages.some((m) => m.id === e.messageId))).toEqual(
      expect.arrayContaining(
        messages.map((m) => ({ companyId: m.company_id, clientId: m.client_id, messageId: m.id })),
      ),
    );
    expect(sent.filter((e) => messages.some((m) => m.id === e.messageId))).toHaveLength(4);
    // A wamid already kept is not kept twice.
    await keep(first.send, first.recipients[0], {
      wamid: wamid(first.recipients[0]),
      text: 'Otra vez',
      content,
    });
    const again = await db
      .selectFrom('messages')
      .select('id')
      .where('wamid', '=', wamid(first.recipients[0]))
      .execute();
    expect(again).toHaveLength(1);
  });
});
