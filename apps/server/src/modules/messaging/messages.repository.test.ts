import { MESSAGE_STATUS } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createUser } from '../../../test/factories';
import type { NewMessage } from './messages.repository';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

describe(`messages repository (${engine})`, () => {
  let ctx: TestContext;
  let companyId: number;
  let otherCompanyId: number;
  let clientId: number;
  let seq = 0;

  beforeAll(async () => {
    ctx = await createTestContext();
    companyId = (await createUser(ctx)).user.company_id!;
    otherCompanyId = (await createUser(ctx)).user.company_id!;
    clientId = (await createClient(ctx, companyId)).id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const message = (values: Partial<NewMessage> = {}): NewMessage => ({
    clientId,
    wamid: `wamid.repo.${++seq}`,
    sender: 'admin',
    messageType: 'text',
    waType: 'text',
    content: `Mensaje ${seq}`,
    phone: '34600000001',
    status: MESSAGE_STATUS.sent,
    createdAt: new Date().toISOString(),
    ...values,
  });

  it('stores a wamid once per company; another company may hold the same wamid', async () => {
    const repo = ctx.container.messagesRepository;
    const first = await repo.insertMessage(companyId, message({ wamid: 'wamid.same' }));
    expect(first?.content).toMatch(/^Mensaje/);
    expect(
      await repo.insertMessage(companyId, message({ wamid: 'wamid.same', content: 'otro' })),
    ).toBeUndefined();
    expect((await repo.findByWamid(companyId, 'wamid.same'))?.content).toBe(first?.content);
    const otherClient = await createClient(ctx, otherCompanyId);
    expect(
      await repo.insertMessage(otherCompanyId, message({ wamid: 'wamid.same', clientId: otherClient.id })),
    ).toBeDefined();
    // Messages without a wamid yet (not accepted by WhatsApp) are never taken for duplicates.
    expect(await repo.insertMessage(companyId, message({ wamid: null }))).toBeDefined();
    expect(await repo.insertMessage(companyId, message({ wamid: null }))).toBeDefined();
  });

  it('climbs sent → delivered → read and never goes back, whatever order the reports come in', async () => {
    const repo = ctx.container.messagesRepository;
    const m = (await repo.insertMessage(companyId, message({ status: MESSAGE_STATUS.pending })))!;
    const at = new Date().toISOString();
    const apply = (status: number, errorCode?: number) =>
      repo.applyStatus(companyId, `wamid.repo.${seq}`, { status, at, errorCode, errorMessage: 'x' });
    expect((await apply(MESSAGE_STATUS.read))?.status).toBe(MESSAGE_STATUS.read);
    expect(await apply(MESSAGE_STATUS.delivered)).toBeUndefined();
    expect(await apply(MESSAGE_STATUS.sent)).toBeUndefined();
    expect(await apply(MESSAGE_STATUS.failed, 131026)).toBeUndefined();
    expect((await repo.findMessage(companyId, m.id))?.status).toBe(MESSAGE_STATUS.read);
    // Another company cannot touch it.
    expect(
      await repo.applyStatus(otherCompanyId, `wamid.repo.${seq}`, { status: MESSAGE_STATUS.read, at }),
    ).toBeUndefined();
  });

  it('failed replaces sent with the code and text, and a later sent cannot undo it', async () => {
    const repo = ctx.container.messagesRepository;
    const m = (await repo.insertMessage(companyId, message()))!;
    const at = new Date().toISOString();
    const failed = await repo.applyStatus(companyId, `wamid.repo.${seq}`, {
      status: MESSAGE_STATUS.failed,
      at,
      errorCode: 131047,
      errorMessage: 'Re-engagement message',
    });
    expect(failed).toMatchObject({ status: 4, error_code: 131047, error_message: 'Re-engagement message' });
    expect(
      await repo.applyStatus(companyId, `wamid.repo.${seq}`, { status: MESSAGE_STATUS.sent, at }),
    ).toBeUndefined();
    expect((await repo.findMessage(companyId, m.id))?.status).toBe(4);
  });

  it('shows a failed that comes after sent and delivered, with its explanation; a later delivered keeps it failed', async () => {
    const repo = ctx.container.messagesRepository;
    const m = (await repo.insertMessage(companyId, message({ status: MESSAGE_STATUS.pending })))!;
    const wamid = `wamid.repo.${seq}`;
    const at = new Date().toISOString();
    expect((await repo.applyStatus(companyId, wamid, { status: MESSAGE_STATUS.sent, at }))?.status).toBe(
      MESSAGE_STATUS.sent,
    );
    expect((await repo.applyStatus(companyId, wamid, { status: MESSAGE_STATUS.delivered, at }))?.status).toBe(
      MESSAGE_STATUS.delivered,
    );
    const failed = await repo.applyStatus(companyId, wamid, {
      status: MESSAGE_STATUS.failed,
      at,
      errorCode: 131026,
      errorMessage: 'Message undeliverable',
    });
    expect(failed).toMatchObject({
      status: MESSAGE_STATUS.failed,
      status_name: 'failed',
      error_code: 131026,
      error: { code: 131026, title: 'Message undeliverable', resendable: false },
    });
    expect(failed?.error?.explanation).toMatch(/no pudo entregar el mensaje a este número/);
    // Failed is final: a delivered (or sent) that arrives later does not hide it.
    expect(
      await repo.applyStatus(companyId, wamid, { status: MESSAGE_STATUS.delivered, at }),
    ).toBeUndefined();
    expect(await repo.applyStatus(companyId, wamid, { status: MESSAGE_STATUS.sent, at })).toBeUndefined();
    expect(await repo.findMessage(companyId, m.id)).toMatchObject({ status: 4, error_code: 131026 });
    // Only a read proves the customer saw it: it replaces the failure and clears the error.
    const read = await repo.applyStatus(companyId, wamid, { status: MESSAGE_STATUS.read, at });
    expect(read).toMatchObject({ status: MESSAGE_STATUS.read, error_code: null, error: null });
    expect(
      await repo.applyStatus(companyId, wamid, { status: MESSAGE_STATUS.failed, at, errorCode: 131000 }),
    ).toBeUndefined();
  });

  it('takes reports out of order: failed before delivered stays failed, delivered before sent stays delivered', async () => {
    const repo = ctx.container.messagesRepository;
    await repo.insertMessage(companyId, message({ status: MESSAGE_STATUS.pending }));
    const wamid = `wamid.repo.${seq}`;
    const at = new Date().toISOString();
    expect((await repo.applyStatus(companyId, wamid, { status: MESSAGE_STATUS.delivered, at }))?.status).toBe(
      MESSAGE_STATUS.delivered,
    );
    expect(await repo.applyStatus(companyId, wamid, { status: MESSAGE_STATUS.sent, at })).toBeUndefined();
    const failed = await repo.applyStatus(companyId, wamid, {
      status: MESSAGE_STATUS.failed,
      at,
      errorCode: 131049,
    });
    expect(failed).toMatchObject({ status: 4, error: { code: 131049, resendable: true } });
    expect(
      await repo.applyStatus(companyId, wamid, { status: MESSAGE_STATUS.delivered, at }),
    ).toBeUndefined();
  });

  it('pages a conversation from the newest, oldest first within a page', async () => {
    const repo = ctx.container.messagesRepository;
    const client = await createClient(ctx, companyId);
    for (let i = 1; i <= 25; i++)
      await repo.insertMessage(companyId, message({ clientId: client.id, content: `n${i}` }));
    const first = await repo.listPage(companyId, client.id, { page: 1, perPage: 10 });
    expect(first.map((m) => m.content)).toEqual(Array.from({ length: 10 }, (_, i) => `n${i + 16}`));
    const last = await repo.listPage(companyId, client.id, { page: 3, perPage: 10 });
    expect(last.map((m) => m.content)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    expect(await repo.listPage(otherCompanyId, client.id, { page: 1, perPage: 10 })).toEqual([]);
  });

  it('keeps each conversation’s size on its client row, however the message was stored', async () => {
    const repo = ctx.container.messagesRepository;
    const clients = ctx.container.clientsRepository;
    const client = await createClient(ctx, companyId);
    const other = await createClient(ctx, companyId);
    expect(await clients.messagesCount(companyId, client.id)).toBe(0);
    for (let i = 0; i < 3; i++) await repo.insertMessage(companyId, message({ clientId: client.id }));
    // The same wamid again stores nothing, and counts nothing.
    await repo.insertMessage(companyId, message({ clientId: client.id, wamid: `wamid.repo.${seq}` }));
    // Written straight into the table, in one statement of many rows, as imports and seeds do.
    const at = new Date().toISOString();
    await ctx.container.db
      .insertInto('messages')
      .values(
        Array.from({ length: 40 }, (_, i) => ({
          company_id: companyId,
          client_id: i % 4 === 0 ? other.id : client.id,
          sender_type: 'client',
          message_type: 'text',
          wa_type: 'text',
          content: `directo ${i}`,
          phone: client.whatsapp_cellphone,
          status: MESSAGE_STATUS.delivered,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    expect(await clients.messagesCount(companyId, client.id)).toBe(33);
    expect(await clients.messagesCount(companyId, other.id)).toBe(10);
    // Another company never learns about the client.
    expect(await clients.messagesCount(otherCompanyId, client.id)).toBeUndefined();
  });
});
