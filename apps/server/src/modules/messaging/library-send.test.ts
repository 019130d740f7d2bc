// Sending a file of the media library in the chat (POST /admin/message with media_id) and quoting a
// message: over the API to the fake Graph API, which records each send as WhatsApp would receive it.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { MESSAGE_STATUS } from '@hablabot/contract';
import { type FakeGraphApi, startFakeGraphApi } from '@hablabot/fakes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast, createUser } from '../../../test/factories';
import { png } from '../../../test/media-fixtures';
import { connectWhatsApp } from '../../../test/whatsapp-company';

const TOKEN = 'EAAG-library-send-token';
const PHONE_ID = '106540352200077';
const PUBLIC_URL = 'https://hablabot.example.test';

describe('library media and quoted replies in a send', () => {
  let ctx: TestContext;
  let fake: FakeGraphApi;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let companyId: number;

  beforeAll(async () => {
    fake = await startFakeGraphApi({
      tokens: [TOKEN],
      phoneNumbers: [
        {
          id: PHONE_ID,
          display_phone_number: '15550783881',
          verified_name: 'HablaBot',
          quality_rating: 'GREEN',
        },
      ],
    });
    ctx = await createTestContext({ cloudApiTimeoutMs: 2000, publicUrl: PUBLIC_URL });
    cast = await createCast(ctx);
    companyId = cast.admin.user.company_id!;
    await connectWhatsApp(ctx.container, companyId, {
      phoneId: PHONE_ID,
      token: TOKEN,
      baseUrl: fake.baseUrl,
    });
  });
  afterAll(async () => {
    await Promise.all([ctx.close(), fake.close()]);
  });
  beforeEach(() => fake.reset());

  /** A client who wrote a minute ago; the id of their message. */
  async function customer() {
    const client = await createClient(ctx, companyId);
    const wamid = `wamid.in.library.${client.id}`;
    const row = await ctx.container.messagesRepository.insertMessage(companyId, {
      clientId: client.id,
      wamid,
      sender: 'client',
      messageType: 'text',
      waType: 'text',
      content: '¿Tenéis el catálogo?',
      phone: client.whatsapp_cellphone,
      status: MESSAGE_STATUS.delivered,
      createdAt: new Date(Date.now() - 60_000).toISOString(),
    });
    return { client, messageId: row!.id, wamid };
  }

  const libraryFile = (company: number, name = 'catalogo.png') =>
    ctx.container.media.upload(company, null, Readable.from([png()]), name);

  const send = (body: Record<string, unknown>, headers = cast.admin.headers) =>
    ctx.app.inject({ method: 'POST', url: '/api/v1/admin/message', headers, payload: body });

  it('sends a library file by its public link with the caption, and the chat shows it', async () => {
    const { client } = await customer();
    const file = await libraryFile(companyId);
    const res = await send({ client_id: client.id, content: 'Aquí lo tienes', media_id: file.id });
    expect(res.statusCode, res.body).toBe(201);
    expect(fake.sent).toHaveLength(1);
    expect(fake.sent[0]).toMatchObject({ to: client.whatsapp_cellphone, type: 'image' });
    expect(fake.sent[0]!.body.image).toEqual({
      link: `${PUBLIC_URL}${ctx.container.infra.storage.publicUrl(file.storage_key)}`,
      caption: 'Aquí lo tienes',
    });
    const message = res.json().data;
    expect(message).toMatchObject({
      message_type: 'image',
      content: 'Aquí lo tienes',
      media_caption: 'Aquí lo tienes',
      media_mime_type: 'image/png',
      media_file_name: 'catalogo.png',
      status: MESSAGE_STATUS.sent,
      author: { type: 'user', id: cast.admin.user.id },
    });
    // The chat's copy is served to the team, and stays when the library's file is deleted.
    expect(message.media_url).toBe(`/api/v1/admin/files/${message.id}`);
    await ctx.container.media.remove(companyId, file.id);
    const served = await ctx.app.inject({
      method: 'GET',
      url: message.media_url,
      headers: cast.admin.headers,
    });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(png())).toBe(true);
  });

  it('sends a file without a caption when the text is empty', async () => {
    const { client } = await customer();
    const file = await libraryFile(companyId, 'sin-texto.png');
    const res = await send({ client_id: client.id, content: '', media_id: file.id });
    expect(res.statusCode, res.body).toBe(201);
    expect(fake.sent[0]!.body.image).not.toHaveProperty('caption');
    expect(res.json().data.content).toBe('sin-texto.png');
  });

  it("refuses another company's library file with 422 on media_id, sending nothing", async () => {
    const { client } = await customer();
    const theirs = await libraryFile(cast.otherAdmin.user.company_id!);
    const res = await send({ client_id: client.id, content: 'x', media_id: theirs.id }, cast.admin.headers);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty('media_id');
    expect((await send({ client_id: client.id, content: 'x', media_id: 99_999_999 })).statusCode).toBe(422);
    expect(fake.sent).toHaveLength(0);
  });

  /** The files in the chat's private storage (its staging folder left out). */
  function privateFiles(): string[] {
    const root = path.dirname(ctx.container.infra.privateFiles.stagingDir);
    return fs
      .readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !path.relative(root, e.parentPath).startsWith('.staging'))
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
  }

  it('a library send refused before its message is stored leaves no private copy behind', async () => {
    const file = await libraryFile(companyId, 'tarde.png');
    const before = privateFiles();
    // The customer last wrote two days ago: the 24-hour window is closed, WhatsApp would refuse free text.
    const late = await createClient(ctx, companyId);
    await ctx.container.messagesRepository.insertMessage(companyId, {
      clientId: late.id,
      wamid: `wamid.in.late.${late.id}`,
      sender: 'client',
      messageType: 'text',
      waType: 'text',
      content: 'Hola',
      phone: late.whatsapp_cellphone,
      status: MESSAGE_STATUS.delivered,
      createdAt: new Date(Date.now() - 48 * 3600_000).toISOString(),
    });
    const closed = await send({ client_id: late.id, content: 'Tarde', media_id: file.id });
    expect(closed.statusCode, closed.body).toBe(422);
    // A quote of another conversation's message: refused before anything is stored, too.
    const mine = await customer();
    const other = await customer();
    const quoted = await send({
      client_id: mine.client.id,
      content: 'x',
      media_id: file.id,
      reply_to_id: other.messageId,
    });
    expect(quoted.statusCode).toBe(422);
    expect(fake.sent).toHaveLength(0);
    expect(privateFiles()).toEqual(before);
  });

  it('a library send WhatsApp refuses keeps its one copy with the stored message (status 4)', async () => {
    const { client } = await customer();
    const file = await libraryFile(companyId, 'rechazo.png');
    const before = privateFiles();
    fake.failFor(client.whatsapp_cellphone, { code: 131026 });
    const res = await send({ client_id: client.id, content: 'No llegará', media_id: file.id });
    fake.failFor(client.whatsapp_cellphone, null);
    expect(res.statusCode, res.body).toBe(201);
    const message = res.json().data;
    expect(message.status).toBe(MESSAGE_STATUS.failed);
    const added = privateFiles().filter((f) => !before.includes(f));
    const row = await ctx.container.db
      .selectFrom('messages')
      .select('media_storage_key')
      .where('id', '=', message.id)
      .executeTakeFirstOrThrow();
    expect(added).toEqual([row.media_storage_key]);
  });

  it("an agent's reply quotes the customer's message at WhatsApp (context.message_id)", async () => {
    const agent = await createUser(ctx, { role: 'agent', companyId });
    const { client, messageId, wamid } = await customer();
    const res = await send(
      { client_id: client.id, content: 'Sí, te lo paso', reply_to_id: messageId },
      agent.headers,
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(fake.sent[0]!.body.context).toEqual({ message_id: wamid });
    expect(fake.sent[0]!.contextMessageId).toBe(wamid);
    expect(res.json().data.reply_to).toMatchObject({ id: messageId });
  });

  it('refuses a reply to a message of another conversation with 422 on reply_to_id', async () => {
    const mine = await customer();
    const other = await customer();
    const res = await send({ client_id: mine.client.id, content: 'x', reply_to_id: other.messageId });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty('reply_to_id');
    expect(fake.sent).toHaveLength(0);
  });
});
