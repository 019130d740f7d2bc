import type http from 'node:http';
import type { FakeGraphApi, FakeSentMessage } from '@hablabot/fakes';
import {
  CUSTOMER_MEDIA,
  type CustomerMediaKind,
  type DemoPhoneNumber,
  postCustomerMedia,
  postCustomerMessage,
} from './customer';

// The demo's customer page: write to the business as any customer (a signed webhook, as WhatsApp would
// deliver it), or send it an image or a document, and see what the business sent back (the fake Graph
// API's log of accepted sends).

export interface PageOptions {
  serverUrl: string;
  appSecret: string;
  number: DemoPhoneNumber;
  graph: FakeGraphApi;
  customers: { name: string; phone: string }[];
  /** Messages customers wrote before the page started (the seeded history), oldest first. */
  history?: { phone: string; text: string; sendsBefore: number }[];
}

interface Line {
  direction: 'in' | 'out';
  text: string;
}

const PHONE = /^\d{10,15}$/;
const TEXT_MAX = 4096;
const BODY_MAX = 64 * 1024;
/** A file arrives in base64 (4 characters for 3 bytes), with a little room for the other fields. */
const MEDIA_BODY_MAX = Math.ceil((CUSTOMER_MEDIA.document.maxBytes * 4) / 3) + 64 * 1024;
const FILE_NAME_MAX = 200;

/** What one send to the Graph API carried, in a line a person reads. */
function describeSend(sent: FakeSentMessage): string {
  const part = (sent.body[sent.type] ?? {}) as Record<string, unknown>;
  if (sent.type === 'text') return String(part.body ?? '');
  if (sent.type === 'template') {
    const language = (part.language as { code?: string } | undefined)?.code;
    return `[template ${String(part.name ?? '?')}${language ? ` (${language})` : ''}]`;
  }
  const detail = part.caption ?? part.link ?? part.filename ?? part.id ?? '';
  return `[${sent.type}] ${String(detail)}`.trim();
}

/** The business's sends to one phone as the fake accepted them, with their place in its log. */
export function sendsTo(graph: FakeGraphApi, phone: string): { text: string; index: number }[] {
  const sends: { text: string; index: number }[] = [];
  graph.sent.forEach((sent, index) => {
    if (sent.to.replace(/\D/g, '') === phone) sends.push({ text: describeSend(sent), index });
  });
  return sends;
}

async function readJson(req: http.IncomingMessage, max = BODY_MAX): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) throw new Error('too large');
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function send(res: http.ServerResponse, status: number, body: unknown, type = 'application/json') {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': `${type}; charset=utf-8`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(text);
}

export function customerPage(options: PageOptions): http.RequestListener {
  /** What customers wrote through this page, by phone, with the length of the fake's send log at that moment. */
  const written = new Map<string, { text: string; sendsBefore: number }[]>();
  const remember = (phone: string, text: string, sendsBefore: number) => {
    const list = written.get(phone) ?? [];
    list.push({ text, sendsBefore });
    written.set(phone, list);
  };
  for (const message of options.history ?? []) remember(message.phone, message.text, message.sendsBefore);

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://demo');
    if (req.method === 'GET' && url.pathname === '/') return send(res, 200, PAGE_HTML, 'text/html');
    if (req.method === 'GET' && url.pathname === '/api/customers') {
      return send(res, 200, { customers: options.customers, business: options.number.display });
    }
    if (req.method === 'GET' && url.pathname === '/api/conversation') {
      const phone = url.searchParams.get('phone') ?? '';
      if (!PHONE.test(phone)) return send(res, 422, { message: 'phone: 10 to 15 digits' });
      // The page's own messages and the business's sends, in the order they happened.
      const lines: (Line & { order: number })[] = [];
      for (const [n, message] of (written.get(phone) ?? []).entries()) {
        lines.push({
          direction: 'in',
          text: message.text,
          order: message.sendsBefore - 0.5 + n * 1e-6,
        });
      }
      for (const sent of sendsTo(options.graph, phone)) {
        lines.push({ direction: 'out', text: sent.text, order: sent.index });
      }
      lines.sort((a, b) => a.order - b.order);
      return send(res, 200, { lines: lines.map(({ order: _order, ...line }) => line) });
    }
    if (req.method === 'POST' && url.pathname === '/api/messages') {
      let body: { phone?: unknown; name?: unknown; text?: unknown };
      try {
        body = (await readJson(req)) as typeof body;
      } catch {
        return send(res, 400, { message: 'A JSON body is expected' });
      }
      const phone = String(body?.phone ?? '').replace(/\D/g, '');
      const name = String(body?.name ?? '').trim() || 'Cliente WhatsApp';
      const text = String(body?.text ?? '').trim();
      if (!PHONE.test(phone)) return send(res, 422, { message: 'phone: 10 to 15 digits' });
      if (!text || text.length > TEXT_MAX) return send(res, 422, { message: 'text: 1 to 4096 characters' });
      const sendsBefore = options.graph.sent.length;
      const delivered = await postCustomerMessage(
        { serverUrl: options.serverUrl, appSecret: options.appSecret, number: options.number },
        { phone, name, text },
      );
      if (delivered.status === 200) remember(phone, text, sendsBefore);
      return send(res, delivered.status === 200 ? 201 : 502, {
        webhook_status: delivered.status,
        wamid: delivered.wamid,
      });
    }
    if (req.method === 'POST' && url.pathname === '/api/media') {
      let body: Record<string, unknown>;
      try {
        body = (await readJson(req, MEDIA_BODY_MAX)) as Record<string, unknown>;
      } catch {
        return send(res, 400, { message: `A JSON body of at most ${MEDIA_BODY_MAX} bytes is expected` });
      }
      const phone = String(body?.phone ?? '').replace(/\D/g, '');
      const name = String(body?.name ?? '').trim() || 'Cliente WhatsApp';
      const kind = String(body?.kind ?? '') as CustomerMediaKind;
      const mimeType = String(body?.mime_type ?? '').toLowerCase();
      const fileName =
        String(body?.file_name ?? '')
          .trim()
          .slice(0, FILE_NAME_MAX) || undefined;
      const caption =
        String(body?.caption ?? '')
          .trim()
          .slice(0, 1024) || undefined;
      const bytes = Buffer.from(String(body?.data ?? ''), 'base64');
      if (!PHONE.test(phone)) return send(res, 422, { message: 'phone: 10 to 15 digits' });
      const rules = CUSTOMER_MEDIA[kind];
      if (!rules) return send(res, 422, { message: 'kind: image or document' });
      if (!(rules.types as readonly string[]).includes(mimeType)) {
        return send(res, 422, { message: `mime_type: one of ${rules.types.join(', ')}` });
      }
      if (bytes.length === 0 || bytes.length > rules.maxBytes) {
        return send(res, 422, {
          message: `data: a ${kind} of 1 byte to ${rules.maxBytes / 1024 / 1024} MB, in base64`,
        });
      }
      const sendsBefore = options.graph.sent.length;
      const delivered = await postCustomerMedia(
        {
          serverUrl: options.serverUrl,
          appSecret: options.appSecret,
          number: options.number,
          graph: options.graph,
        },
        { phone, name, kind, bytes, mimeType, fileName, caption },
      );
      const line = `[${kind}] ${caption ?? fileName ?? ''}`.trim();
      if (delivered.status === 200) remember(phone, line, sendsBefore);
      return send(res, delivered.status === 200 ? 201 : 502, {
        webhook_status: delivered.status,
        wamid: delivered.wamid,
      });
    }
    return send(res, 404, { message: 'Not found' });
  }

  return (req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) send(res, 500, { message: err instanceof Error ? err.message : String(err) });
      else res.destroy();
    });
  };
}

const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>HablaBot demo — write as a customer</title>
<style>
  :root { font-family: system-ui, sans-serif; color: #1b1b1b; background: #ece5dd; }
  body { margin: 0; display: flex; justify-content: center; }
  main { width: min(560px, 100%); min-height: 100vh; display: flex; flex-direction: column; background: #f7f3ee; }
  header { background: #075e54; color: #fff; padding: 12px 16px; }
  header h1 { font-size: 1.05rem; margin: 0 0 8px; }
  header p { margin: 0 0 8px; font-size: .85rem; opacity: .9; }
  .who { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
  .who label { font-size: .75rem; display: flex; flex-direction: column; gap: 2px; }
  .who label.wide { grid-column: 1 / -1; }
  select, input, textarea, button { font: inherit; padding: 6px 8px; border-radius: 6px; border: 1px solid #bbb; }
  #log { flex: 1; overflow-y: auto; padding: 12px 16px; display: flex; flex-direction: column; gap: 6px; }
  .line { max-width: 80%; padding: 6px 10px; border-radius: 8px; white-space: pre-wrap; word-wrap: break-word; box-shadow: 0 1px 1px #0002; }
  .in { align-self: flex-end; background: #dcf8c6; }
  .out { align-self: flex-start; background: #fff; }
  .empty { color: #666; text-align: center; font-size: .9rem; }
  form.write { display: flex; gap: 8px; padding: 10px 16px; background: #eee; }
  form.write textarea { flex: 1; resize: vertical; min-height: 2.4em; }
  label.attach { display: flex; align-items: center; padding: 0 10px; border-radius: 6px; background: #fff; color: #075e54; border: 1px solid #bbb; cursor: pointer; font-size: .9rem; }
  label.attach:focus-within { outline: 2px solid #128c7e; }
  label.attach input { position: absolute; width: 1px; height: 1px; opacity: 0; }
  button { background: #128c7e; color: #fff; border: 0; cursor: pointer; }
  #status { font-size: .8rem; padding: 0 16px 8px; background: #eee; min-height: 1em; }
</style>
</head>
<body>
<main>
  <header>
    <h1>Write to the business as a customer</h1>
    <p>Messages go to HablaBot as signed WhatsApp webhooks; Attach sends an image or a document (the text is its caption). Replies are what the business sent to this phone.</p>
    <div class="who">
      <label class="wide">Customer <select id="pick"><option value="">— a new customer —</option></select></label>
      <label>Phone (digits, country code) <input id="phone" inputmode="numeric" autocomplete="off" value="5215550199001"></label>
      <label>Name <input id="name" autocomplete="off" value="Nuevo Cliente"></label>
    </div>
  </header>
  <div id="log" aria-live="polite"></div>
  <form class="write" id="write">
    <label class="attach" title="Send an image (JPEG, PNG) or a document (PDF, Word, Excel, text); the text becomes its caption">Attach<input type="file" id="file" aria-label="Send an image or a document" accept="image/jpeg,image/png,application/pdf,text/plain,.doc,.docx,.xls,.xlsx"></label>
    <textarea id="text" rows="2" placeholder="Escribe un mensaje" aria-label="Message" required></textarea>
    <button type="submit">Send</button>
  </form>
  <div id="status" role="status"></div>
</main>
<script>
const $ = (id) => document.getElementById(id);
let customers = [];
let shown = '';
async function load() {
  const answer = await (await fetch('/api/customers')).json();
  customers = answer.customers;
  for (const c of customers) {
    const o = document.createElement('option');
    o.value = c.phone;
    o.textContent = c.name + ' (+' + c.phone + ')';
    $('pick').append(o);
  }
  refresh();
}
$('pick').addEventListener('change', () => {
  const c = customers.find((x) => x.phone === $('pick').value);
  if (c) { $('phone').value = c.phone; $('name').value = c.name; }
  shown = '';
  refresh();
});
$('phone').addEventListener('change', () => { shown = ''; refresh(); });
async function refresh() {
  const phone = $('phone').value.replace(/\\D/g, '');
  if (!/^\\d{10,15}$/.test(phone)) return;
  const answer = await (await fetch('/api/conversation?phone=' + phone)).json();
  const key = JSON.stringify(answer.lines);
  if (key === shown) return;
  shown = key;
  const log = $('log');
  log.replaceChildren();
  if (answer.lines.length === 0) {
    const p = document.createElement('p');
    p.className = 'empty';
    p.textContent = 'Nothing yet. Write something below.';
    log.append(p);
  }
  for (const line of answer.lines) {
    const div = document.createElement('div');
    div.className = 'line ' + line.direction;
    div.textContent = line.text;
    log.append(div);
  }
  log.scrollTop = log.scrollHeight;
}
$('write').addEventListener('submit', async (event) => {
  event.preventDefault();
  const body = { phone: $('phone').value, name: $('name').value, text: $('text').value };
  $('status').textContent = 'Sending…';
  const response = await fetch('/api/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await response.json();
  $('status').textContent = response.ok ? 'Delivered to HablaBot (' + answer.wamid + ')' : 'Not delivered: ' + (answer.message || 'webhook answered ' + answer.webhook_status);
  if (response.ok) $('text').value = '';
  refresh();
});
$('file').addEventListener('change', async () => {
  const file = $('file').files[0];
  if (!file) return;
  const data = await new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(',')[1] || '');
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
  const kind = file.type.startsWith('image/') ? 'image' : 'document';
  const body = { phone: $('phone').value, name: $('name').value, kind, mime_type: file.type, file_name: file.name, caption: $('text').value, data };
  $('status').textContent = 'Sending ' + file.name + '…';
  const response = await fetch('/api/media', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await response.json();
  $('status').textContent = response.ok ? 'Delivered to HablaBot (' + answer.wamid + ')' : 'Not delivered: ' + (answer.message || 'webhook answered ' + answer.webhook_status);
  if (response.ok) $('text').value = '';
  $('file').value = '';
  refresh();
});
$('text').addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) { event.preventDefault(); $('write').requestSubmit(); }
});
setInterval(refresh, 1500);
load();
</script>
</body>
</html>
`;
