// `npm run demo` (scripts/demo/main.ts) end to end: it starts the fakes, the server (through
// scripts/start.mjs) and the customer page, seeds a company; the printed admin signs in through the API;
// a message written on the customer page lands in that client's chat history and the live bot's answer
// comes back to the page; an image and a document sent from the page reach the chat with their files; the admin's message climbs to delivered as the fake WhatsApp API reports it;
// the super admin's password the demo prints is the one the server generated and showed in its first-start
// box; the web app's CSV template imports cleanly into the demo company; SIGTERM stops the demo and every
// process it started. The demo always runs on SQLite in its own folder, whatever the test's database is.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { afterEach, expect, it } from 'vitest';
import { waitFor } from './wait';
import { pdf, png } from './media-fixtures';

const root = path.resolve(import.meta.dirname, '../../..');
const DEMO = path.join(root, 'scripts/demo/main.ts');

const started: ChildProcess[] = [];
const dirs: string[] = [];
let descendants: number[] = [];

afterEach(() => {
  for (const p of started.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (const pid of descendants.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Whether a process still runs (a zombie waiting for its parent counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Every process below `pid`, read from ps. */
function descendantsOf(pid: number): number[] {
  const rows = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number));
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const [child, ppid] of rows) {
      if (ppid === parent && !found.includes(child)) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

async function json<T>(url: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...init.headers },
  });
  return { status: response.status, body: (await response.json()) as T };
}

it('npm run demo starts, seeds, delivers a customer message to the chat, and stops with everything it started', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hb-demo-'));
  dirs.push(dataDir);
  const demo = spawn(process.execPath, ['--import', 'tsx', DEMO], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      DEMO_PORT: '0',
      DEMO_PAGE_PORT: '0',
      DEMO_DATA_DIR: dataDir,
      HABLABOT_SKIP_WEB_BUILD: '1',
      // Never passed on to the demo's server, which keeps to its own SQLite file.
      ...(process.env.TEST_DATABASE_URL ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}),
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(demo);
  let output = '';
  demo.stdout?.on('data', (d) => {
    output += d;
  });
  demo.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => demo.on('exit', (code) => resolve(code)));

  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (output.includes('Ctrl-C stops everything.')) {
        clearInterval(check);
        resolve();
      } else if (demo.exitCode !== null) {
        clearInterval(check);
        reject(new Error(`The demo exited early:\n${output}`));
      }
    }, 50);
  });
  descendants = descendantsOf(demo.pid as number);
  expect(descendants.length).toBeGreaterThanOrEqual(2); // start.mjs and the server

  const field = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(output)?.[1] ?? '';
  const app = field('Demo app');
  const pageUrl = field('Customer page');
  const email = field('Admin email');
  const password = field('Admin password');
  expect(app).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(pageUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(fs.existsSync(path.join(dataDir, 'hablabot.db'))).toBe(true);

  const login = await json<{ token: string }>(`${app}/api/v1/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ email, password }),
  });
  expect(login.status).toBe(200);
  const auth = { authorization: `Bearer ${login.body.token}` };

  const clients = await json<{ clients: { id: number; whatsapp_cellphone: string; segments: unknown[] }[] }>(
    `${app}/api/v1/admin/client`,
    { headers: auth },
  );
  expect(clients.body.clients).toHaveLength(20);
  expect(clients.body.clients.every((c) => c.segments.length > 0)).toBe(true);
  const bots = await json<{ live_bot_id: number | null; bots: { instructions_count: number }[] }>(
    `${app}/api/v1/admin/bot`,
    { headers: auth },
  );
  expect(bots.body.live_bot_id).not.toBeNull();
  expect(bots.body.bots[0].instructions_count).toBe(2);

  // The page lists the seeded customers; one of them writes.
  const customers = await json<{ customers: { name: string; phone: string }[] }>(`${pageUrl}/api/customers`);
  expect(customers.body.customers).toHaveLength(20);
  const customer = customers.body.customers[4];
  const text = `Hola, ¿tienen café descafeinado? ${Date.now()}`;
  const posted = await json<{ wamid: string }>(`${pageUrl}/api/messages`, {
    method: 'POST',
    body: JSON.stringify({ phone: customer.phone, name: customer.name, text }),
  });
  expect(posted.status).toBe(201);
  expect(posted.body.wamid).toMatch(/^wamid\./);

  const client = clients.body.clients.find((c) => c.whatsapp_cellphone === customer.phone);
  expect(client).toBeDefined();
  // The webhook answers once the delivery is kept; the message is stored when the inbox processes it.
  const last = await waitFor(async () => {
    const messages = await json<{ messages: { content: string; sender_type: string }[] }>(
      `${app}/api/v1/admin/client/${client?.id}/messages`,
      { headers: auth },
    );
    const newest = messages.body.messages.at(-1);
    return newest?.content === text ? newest : undefined;
  });
  expect(last).toMatchObject({ content: text, sender_type: 'client' });

  // An image and a document sent from the page reach the chat, their files fetched from the fake WhatsApp.
  const files = [
    { kind: 'image', mime_type: 'image/png', caption: 'Foto del paquete', bytes: png() },
    { kind: 'document', mime_type: 'application/pdf', file_name: 'factura-0042.pdf', bytes: pdf() },
  ];
  for (const { bytes, ...file } of files) {
    const media = await json<{ wamid: string }>(`${pageUrl}/api/media`, {
      method: 'POST',
      body: JSON.stringify({
        phone: customer.phone,
        name: customer.name,
        ...file,
        data: bytes.toString('base64'),
      }),
    });
    expect(media.status).toBe(201);
  }
  type Media = { message_type: string; media_url: string | null; media_caption: string | null };
  const mediaMessages = async () =>
    (
      await json<{ messages: Media[] }>(`${app}/api/v1/admin/client/${client?.id}/messages?per_page=20`, {
        headers: auth,
      })
    ).body.messages.filter((m) => m.message_type !== 'text' && m.media_url);
  const fetched = await waitFor(
    async () => {
      const found = await mediaMessages();
      return found.length >= 2 && found;
    },
    20_000,
    100,
  );
  expect(fetched.map((m) => [m.message_type, m.media_caption])).toEqual([
    ['image', 'Foto del paquete'],
    ['document', 'factura-0042.pdf'],
  ]);
  for (const [n, m] of fetched.entries()) {
    const file = await fetch(new URL(m.media_url as string, app), { headers: auth });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(files[n].bytes)).toBe(true);
  }
  const withMedia = await json<{ lines: { direction: string; text: string }[] }>(
    `${pageUrl}/api/conversation?phone=${customer.phone}`,
  );
  expect(withMedia.body.lines.filter((l) => l.direction === 'in').map((l) => l.text)).toEqual(
    expect.arrayContaining(['[image] Foto del paquete', '[document] factura-0042.pdf']),
  );
  const refusedFile = await json(`${pageUrl}/api/media`, {
    method: 'POST',
    body: JSON.stringify({
      phone: customer.phone,
      kind: 'image',
      mime_type: 'image/svg+xml',
      data: 'PHN2Zy8+',
    }),
  });
  expect(refusedFile.status).toBe(422);

  // The super admin's password is the one the server generated and showed in its first-start box.
  const superAdmin = /Super admin: (\S+) \/ (\S+)\)/.exec(output);
  expect(output).not.toContain('the SUPERADMIN_PASSWORD you set');
  expect(output).toMatch(new RegExp(`│\\s+password:\\s+${superAdmin?.[2]}\\s+│`));
  const superLogin = await json<{ token: string }>(`${app}/api/v1/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ email: superAdmin?.[1], password: superAdmin?.[2] }),
  });
  expect(superLogin.status).toBe(200);

  // The CSV template the web app offers imports into the demo company without an error.
  const template = Papa.parse<Record<string, string>>(
    fs.readFileSync(path.join(root, 'apps/web/public/clientes-plantilla.csv'), 'utf8'),
    { header: true, skipEmptyLines: true },
  );
  const imported = await json<{ data: { error: unknown[]; success: unknown[] } }>(
    `${app}/api/v1/import/clients`,
    { method: 'POST', headers: auth, body: JSON.stringify({ clients: template.data }) },
  );
  expect(imported.status).toBe(200);
  expect(imported.body.data.error).toEqual([]);
  expect(imported.body.data.success).toHaveLength(template.data.length);
  const conversation = await json<{ lines: { direction: string; text: string }[] }>(
    `${pageUrl}/api/conversation?phone=${customer.phone}`,
  );
  expect(conversation.body.lines).toContainEqual(expect.objectContaining({ direction: 'in', text }));

  // The live bot answers through the fake AI and the fake WhatsApp API; the page shows the answer.
  const answered = async () => {
    const page = await json<{ lines: { direction: string; text: string }[] }>(
      `${pageUrl}/api/conversation?phone=${customer.phone}`,
    );
    const at = page.body.lines.findIndex((l) => l.direction === 'in' && l.text === text);
    return page.body.lines.slice(at + 1).find((l) => l.direction === 'out');
  };
  const answer = await waitFor(answered, 20_000, 100);
  expect(answer?.text).toContain('Aurora');
  const after = await json<{ messages: { content: string; sender_type: string }[] }>(
    `${app}/api/v1/admin/client/${client?.id}/messages`,
    { headers: auth },
  );
  expect(after.body.messages.at(-1)).toMatchObject({ content: answer?.text, sender_type: 'bot' });

  // The admin takes over: the message reaches the customer's page and the bot is paused for this client.
  const takeover = `Hola, soy Ana de Café Aurora. ${Date.now()}`;
  const sent = await json<{ data: { sender_type: string; status: number } }>(`${app}/api/v1/admin/message`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ client_id: client?.id, content: takeover }),
  });
  expect(sent.status).toBe(201);
  expect(sent.body.data).toMatchObject({ sender_type: 'admin', status: 1 });
  // The fake WhatsApp API reports it delivered (3), and maybe read (2), a moment later.
  const statusOf = async () => {
    const history = await json<{ messages: { content: string; status: number }[] }>(
      `${app}/api/v1/admin/client/${client?.id}/messages`,
      { headers: auth },
    );
    return history.body.messages.find((m) => m.content === takeover)?.status;
  };
  const status = await waitFor(
    async () => {
      const now = await statusOf();
      return now !== 1 && { now };
    },
    20_000,
    100,
  ).then((s) => s.now);
  expect([2, 3]).toContain(status);
  const page = await json<{ lines: { direction: string; text: string }[] }>(
    `${pageUrl}/api/conversation?phone=${customer.phone}`,
  );
  expect(page.body.lines.at(-1)).toEqual({ direction: 'out', text: takeover });
  const paused = await json<{ clients: { id: number; mode_bot: number }[] }>(`${app}/api/v1/admin/client`, {
    headers: auth,
  });
  expect(paused.body.clients.find((c) => c.id === client?.id)?.mode_bot).toBe(0);

  // The business account's templates were synced in.
  const templates = await json<{ data: { name: string }[] }>(`${app}/api/v1/templates`, { headers: auth });
  expect(templates.body.data.map((t) => t.name)).toEqual(
    expect.arrayContaining(['bienvenida', 'pedido_enviado']),
  );

  // A message the server refuses (a bad phone) is not sent.
  const refused = await json(`${pageUrl}/api/messages`, {
    method: 'POST',
    body: JSON.stringify({ phone: '12', text: 'x' }),
  });
  expect(refused.status).toBe(422);

  demo.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(output).toContain('HablaBot demo stopped.');
  expect(output).not.toContain('killed');
  for (const pid of descendants) expect(alive(pid), `process ${pid} is left`).toBe(false);
  // The stop closed the demo's ports too.
  await expect(fetch(`${pageUrl}/api/customers`)).rejects.toThrow();
  await expect(fetch(`${app}/api/v1/health`)).rejects.toThrow();
}, 60_000);
