// The inbox's privacy rule on the chat's routes (issue 25): an agent sees the conversations assigned to
// them and the unassigned ones, unless the company lets agents see all; any other conversation answers 404
// on every route and is left out of the chat list. Admins see everything. The chat's other routes stay
// admin-only.
import fs from 'node:fs';
import path from 'node:path';
import { MESSAGE_STATUS } from '@hablabot/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newStorageKey } from '../src/platform/storage';
import { createClient } from './clients-factories';
import { type TestApi, type TestUser, createTestApi } from './http';

describe('inbox privacy on the chat routes', () => {
  let api: TestApi;
  let admin: TestUser;
  let agentA: TestUser;
  let agentB: TestUser;
  let companyId: number;
  /** Conversations: assigned to A, to B, unassigned. */
  const chats = { a: 0, b: 0, none: 0 };
  /** A message (with a stored file) of each, and a message of ours WhatsApp did not take (to resend). */
  const messages = { a: 0, b: 0, none: 0 };
  const failed = { a: 0, b: 0, none: 0 };
  /** A client never written to but assigned to B, and one never written to nor assigned. */
  let quietB: number;
  let quietNone: number;

  async function conversation(
    assignee: TestUser | null,
    written = true,
  ): Promise<{ client: number; message: number; failed: number }> {
    const client = await createClient(api, companyId);
    let message = 0;
    let notSent = 0;
    if (written) {
      const row = await api.container.messagesRepository.insertMessage(companyId, {
        clientId: client.id,
        wamid: `wamid.privacy.${client.id}`,
        sender: 'client',
        messageType: 'image',
        waType: 'image',
        content: 'Mira',
        phone: client.whatsapp_cellphone,
        media: { id: null, mimeType: 'image/png', fileName: 'foto.png', caption: null, sha256: null },
        status: MESSAGE_STATUS.delivered,
        createdAt: new Date().toISOString(),
      });
      message = row!.id;
      await api.container.clientsRepository.noteIncomingMessages(companyId, [
        { clientId: client.id, content: 'Mira', date: row!.created_at },
      ]);
      // Its file, as the media download leaves it.
      const key = newStorageKey('png');
      const staged = path.join(api.container.infra.privateFiles.stagingDir, `t-${client.id}`);
      fs.writeFileSync(staged, 'png bytes');
      await api.container.infra.privateFiles.put(key, staged);
      await api.container.messagesRepository.setMediaStored(companyId, message, {
        storageKey: key,
        mimeType: 'image/png',
      });
      const ours = await api.container.messagesRepository.insertMessage(companyId, {
        clientId: client.id,
        wamid: null,
        sender: 'admin',
        messageType: 'text',
        waType: 'text',
        content: 'No salió',
        phone: client.whatsapp_cellphone,
        status: MESSAGE_STATUS.failed,
        createdAt: new Date().toISOString(),
      });
      notSent = ours!.id;
    } else {
      await api.container.clientsRepository.setBotMode(companyId, client.id, 1);
    }
    await api.container.db
      .updateTable('conversations')
      .set({ assignee_user_id: assignee?.user.id ?? null })
      .where('client_id', '=', client.id)
      .execute();
    return { client: client.id, message, failed: notSent };
  }

  beforeAll(async () => {
    api = await createTestApi();
    admin = await api.user({ role: 'admin' });
    companyId = admin.user.company_id!;
    agentA = await api.user({ role: 'agent', companyId });
    agentB = await api.user({ role: 'agent', companyId });
    for (const [key, who] of [
      ['a', agentA],
      ['b', agentB],
      ['none', null],
    ] as const) {
      const made = await conversation(who);
      chats[key] = made.client;
      messages[key] = made.message;
      failed[key] = made.failed;
    }
    quietB = (await conversation(agentB, false)).client;
    quietNone = (await conversation(null, false)).client;
  });
  afterAll(async () => {
    await api?.close();
  });
  beforeEach(async () => {
    await api.container.inboxSettings.save(companyId, { agents_see_all: false });
  });

  /** Every route that reads or touches one conversation: client `c`, its message `m`, our failed `f`. */
  const touching = (c: number, m: number, f: number) =>
    [
      ['GET', `/admin/client/${c}/messages`],
      ['GET', `/admin/messages/${m}`],
      ['PATCH', `/admin/messages/${c}/mark-as-read`],
      ['GET', `/admin/files/${m}`],
      ['GET', `/admin/client/${c}`],
      ['POST', `/admin/client/${c}/toggle-bot-mode`, { mode: 1 }],
      ['POST', '/admin/message', { client_id: c, content: 'Hola' }],
      ['POST', '/admin/message', { client_id: c, id: f, content: 'x' }],
      ['POST', '/admin/messages/send-template-message', { client_id: c, templateName: 'no_such' }],
    ] as const;

  /** The status of each route for `who` on conversation `key`. */
  async function statuses(who: TestUser, key: keyof typeof chats) {
    const out: number[] = [];
    for (const [method, url, body] of touching(chats[key], messages[key], failed[key]))
      out.push((await api.call(method, url, body, { as: who, lang: 'en' })).statusCode);
    return out;
  }

  const hidden = Array(9).fill(404);

  it("answers 404 to an agent on every route of another agent's conversation, both ways", async () => {
    expect(await statuses(agentA, 'b')).toEqual(hidden);
    expect(await statuses(agentB, 'a')).toEqual(hidden);
  });

  it('lets an agent use their own and the unassigned conversations', async () => {
    for (const [who, key] of [
      [agentA, 'a'],
      [agentA, 'none'],
      [agentB, 'b'],
      [agentB, 'none'],
    ] as const) {
      const got = await statuses(who, key);
      // history, message, mark read, file, client, bot switch, send, resend (WhatsApp is not set up here:
      // stored as not sent, answered all the same), a template (422: WhatsApp is not set up).
      expect(got).toEqual([200, 200, 200, 200, 200, 200, 201, 200, 422]);
    }
  });

  it('shows an agent every conversation once the company lets agents see all, and admins always', async () => {
    await api.container.inboxSettings.save(companyId, { agents_see_all: true });
    const open = [200, 200, 200, 200, 200, 200, 201, 200, 422];
    expect(await statuses(agentA, 'b')).toEqual(open);
    await api.container.inboxSettings.save(companyId, { agents_see_all: false });
    expect(await statuses(admin, 'a')).toEqual(open);
    expect(await statuses(admin, 'b')).toEqual(open);
  });

  it('leaves what an agent may not see out of the chat list, written to or not', async () => {
    const list = async (who: TestUser, search?: string) => {
      const res = await api.get(
        `/admin/client/messages-summary?per_page=50${search ? `&search=${search}` : ''}`,
        { as: who },
      );
      expect(res.statusCode).toBe(200);
      return (res.json().clients as { id: number }[]).map((c) => c.id).sort((x, y) => x - y);
    };
    const sorted = (ids: number[]) => [...ids].sort((x, y) => x - y);
    expect(await list(agentA)).toEqual(sorted([chats.a, chats.none, quietNone]));
    expect(await list(agentB)).toEqual(sorted([chats.b, chats.none, quietB, quietNone]));
    const everyone = sorted([chats.a, chats.b, chats.none, quietB, quietNone]);
    expect(await list(admin)).toEqual(everyone);
    await api.container.inboxSettings.save(companyId, { agents_see_all: true });
    expect(await list(agentA)).toEqual(everyone);
  });

  it('pages an agent’s chat list over what they may see only', async () => {
    const all = (await api.get('/admin/client/messages-summary?per_page=50', { as: agentA })).json();
    const ids = all.clients.map((c: { id: number }) => c.id);
    expect(ids).toHaveLength(3);
    const pages = await Promise.all(
      [1, 2, 3, 4].map(async (n) =>
        (await api.get(`/admin/client/messages-summary?per_page=1&page=${n}`, { as: agentA })).json(),
      ),
    );
    expect(pages.map((p) => p.clients.map((c: { id: number }) => c.id))).toEqual([
      [ids[0]],
      [ids[1]],
      [ids[2]],
      [],
    ]);
    expect(pages.map((p) => p.pagination.has_more)).toEqual([true, true, false, false]);
  });

  it('lets agents read templates and the media library, and keeps every other route of those areas for admins', async () => {
    expect((await api.get('/templates', { as: agentA })).statusCode).toBe(200);
    expect((await api.get('/admin/media/user', { as: agentA })).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['GET', '/admin/client', undefined],
      ['POST', '/admin/client', {}],
      ['PUT', `/admin/client/${chats.a}`, {}],
      ['DELETE', '/admin/client', { ids: [chats.a] }],
      ['GET', '/templates/sync', undefined],
      ['POST', '/admin/media/upload', undefined],
      ['DELETE', '/admin/media/1', undefined],
    ] as const)
      expect((await api.call(method, url, body, { as: agentA })).statusCode, `${method} ${url}`).toBe(403);
  });
});
