// The Cloud API send client: how answers are sorted, and the real calls against the fake Graph API.
import { type FakeGraphApi, listen, startFakeGraphApi } from '@hablabot/fakes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OutboundResult } from '../http/outbound';
import { type CloudApiAccount, classifySend, createCloudApiClient, templateContent } from './cloud-api';

const answer = (status: number, json: unknown): OutboundResult => ({
  kind: 'answer',
  status,
  json,
  text: JSON.stringify(json),
  headers: new Headers(),
});
const graphError = (code: number, status = 400, message = `(#${code}) error`) =>
  answer(status, { error: { message, type: 'OAuthException', code, fbtrace_id: 'x' } });

describe('classifySend', () => {
  it('reads the wamid of a 200', () => {
    expect(
      classifySend(answer(200, { messaging_product: 'whatsapp', messages: [{ id: 'wamid.A' }] })),
    ).toEqual({
      ok: true,
      wamid: 'wamid.A',
    });
  });

  it('marks rate limits, pair limits, generic and service errors transient, by code whatever the status', () => {
    for (const [code, status] of [
      [130429, 429],
      [130429, 400],
      [131056, 400],
      [131000, 500],
      [2, 503],
      [131057, 503],
    ]) {
      const result = classifySend(graphError(code, status));
      expect(result, String(code)).toMatchObject({ ok: false, code, transient: true });
    }
  });

  it('marks every other Graph error permanent, even on a 5xx', () => {
    for (const code of [131047, 131026, 132000, 132001, 190, 100, 131051, 368]) {
      expect(classifySend(graphError(code, 500)), String(code)).toMatchObject({
        ok: false,
        code,
        transient: false,
      });
    }
    expect(classifySend(graphError(190, 401, 'Session has expired'))).toEqual({
      ok: false,
      code: 190,
      message: 'Session has expired',
      transient: false,
    });
  });

  it('retries what never reached WhatsApp and 5xx without a code; a timeout is transient but unconfirmed', () => {
    expect(classifySend({ kind: 'unreachable', code: 'ECONNREFUSED' })).toMatchObject({
      ok: false,
      code: 0,
      transient: true,
    });
    expect(classifySend({ kind: 'unreachable', code: 'ECONNREFUSED' })).not.toHaveProperty('unconfirmed');
    expect(classifySend({ kind: 'timeout' })).toMatchObject({
      ok: false,
      transient: true,
      unconfirmed: true,
    });
    // A connection cut after the request was written: maybe delivered, so never repeated automatically.
    expect(classifySend({ kind: 'unreachable', code: 'ECONNRESET' })).toMatchObject({ unconfirmed: true });
    expect(classifySend({ kind: 'unreachable', code: 'UNKNOWN' })).toMatchObject({ unconfirmed: true });
    expect(classifySend(answer(502, undefined))).toMatchObject({ ok: false, code: 0, transient: true });
    expect(classifySend(answer(400, { nope: 1 }))).toMatchObject({ ok: false, code: 0, transient: false });
    expect(classifySend(answer(200, { messages: [] }))).toMatchObject({ ok: false, transient: false });
  });
});

describe('cloud API client against the fake Graph API', () => {
  const TOKEN = 'EAAG-cloud-api-test';
  const PHONE_ID = '106540352242922';
  let fake: FakeGraphApi;
  let account: CloudApiAccount | null;

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
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.reset();
    account = { baseUrl: fake.baseUrl, token: TOKEN, phoneNumberId: PHONE_ID };
  });

  const client = (timeoutMs?: number) => createCloudApiClient({ account: async () => account, timeoutMs });

  it('sends text, media by link and by id, and templates as Meta takes them', async () => {
    const api = client();
    const text = await api.sendText(1, '34600111222', 'Hola, mira https://example.test');
    expect(text.ok).toBe(true);
    const image = await api.sendMedia(1, '34600111222', 'image', {
      link: 'https://example.test/a.jpg',
      caption: 'Foto',
    });
    const audio = await api.sendMedia(1, '34600111222', 'audio', {
      id: '1003383421387256',
      caption: 'ignored',
    });
    const doc = await api.sendMedia(1, '34600111222', 'document', { id: '99', filename: 'factura.pdf' });
    const template = await api.sendTemplate(1, '34600111222', { name: 'bienvenida', language: 'es' }, [
      'Ana',
    ]);
    for (const r of [image, audio, doc, template]) expect(r.ok).toBe(true);

    expect(fake.sent.map((s) => s.type)).toEqual(['text', 'image', 'audio', 'document', 'template']);
    expect(fake.sent[0].body).toMatchObject({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '34600111222',
      text: { body: 'Hola, mira https://example.test', preview_url: true },
    });
    expect(fake.sent[1].body.image).toEqual({ link: 'https://example.test/a.jpg', caption: 'Foto' });
    expect(fake.sent[2].body.audio).toEqual({ id: '1003383421387256' });
    expect(fake.sent[3].body.document).toEqual({ id: '99', filename: 'factura.pdf' });
    expect(fake.sent[4].body.template).toEqual({
      name: 'bienvenida',
      language: { code: 'es' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }],
    });
    expect(templateContent({ name: 'a', language: 'en' }, [])).toEqual({
      type: 'template',
      template: { name: 'a', language: { code: 'en' } },
    });
    expect(text.ok && text.wamid).toBe(fake.sent[0].wamid);
  });

  it('marks a message read', async () => {
    expect(await client().markRead(1, 'wamid.IN')).toEqual({ ok: true });
    expect(fake.reads).toEqual([{ phoneNumberId: PHONE_ID, messageId: 'wamid.IN' }]);
  });

  it("answers Meta's errors: a wrong token (190), scripted failures, the throughput limit", async () => {
    account = { baseUrl: fake.baseUrl, token: 'wrong', phoneNumberId: PHONE_ID };
    expect(await client().sendText(1, '34600111222', 'x')).toMatchObject({
      ok: false,
      code: 190,
      transient: false,
    });

    account = { baseUrl: fake.baseUrl, token: TOKEN, phoneNumberId: PHONE_ID };
    fake.failSends({ code: 131026 });
    expect(await client().sendText(1, '34600111222', 'x')).toMatchObject({
      ok: false,
      code: 131026,
      message: '(#131026) Message undeliverable',
      transient: false,
    });

    fake.reset();
    fake.throughputPerSecond = 2;
    const results = await Promise.all(
      Array.from({ length: 6 }, () => client().sendText(1, '34600111222', 'x')),
    );
    fake.throughputPerSecond = 80;
    expect(results.some((r) => !r.ok && r.code === 130429 && r.transient)).toBe(true);
    // At most two per second pass; six at once may straddle two seconds.
    const passed = results.filter((r) => r.ok).length;
    expect(passed).toBeGreaterThanOrEqual(2);
    expect(passed).toBeLessThanOrEqual(4);
  });

  it('is unconfirmed on a timeout and transient when nothing listens; refuses without settings', async () => {
    fake.delayMs = 300;
    expect(await client(50).sendText(1, '34600111222', 'x')).toMatchObject({ ok: false, unconfirmed: true });
    fake.delayMs = 0;

    const closed = await listen(() => undefined);
    const url = closed.url;
    await closed.close();
    account = { baseUrl: `${url}/v23.0`, token: TOKEN, phoneNumberId: PHONE_ID };
    const down = await client().sendText(1, '34600111222', 'x');
    expect(down).toMatchObject({ ok: false, code: 0, transient: true });
    expect(down).not.toHaveProperty('unconfirmed');

    account = null;
    expect(await client().sendText(1, '34600111222', 'x')).toMatchObject({
      ok: false,
      code: 0,
      transient: false,
    });
  });
});
