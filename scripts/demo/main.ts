// npm run demo: HablaBot with everything it talks to, on this machine, filled with a demo company.
//
// - the fake WhatsApp Cloud API (Graph API) and the fake OpenAI-compatible API on loopback ports;
// - the server, started the way `npm start` starts it (scripts/start.mjs), on a data folder of its own
//   (data/demo, emptied on each run) with SQLite and in-process jobs, whatever DATABASE_URL or REDIS_URL
//   say, so the demo never touches anyone's data; the server makes the super admin's password itself, as
//   on any first start, and the demo takes it from the first-start box;
// - the fake WhatsApp API reports each message's sent, delivered and read statuses a few seconds after
//   the send (most, not all, are read), so the chat's ticks and the mass message report move;
// - a company seeded through the server's HTTP API: an admin, settings pointing at the fakes, a live bot
//   with instructions, 20 clients in segments, some customer messages;
// - a customer page that writes to the business as any customer (signed webhooks), text or an image or a
//   document, and shows what the business sent back.
//
// Ctrl-C (or SIGTERM/SIGHUP) stops it all: the page, the server (through start.mjs, which passes the
// signal on once) and the fakes. Should this process die without stopping, start.mjs notices its parent
// is gone and stops the server.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  type FakeGraphApi,
  type FakeOpenAi,
  fakeTemplate,
  startFakeGraphApi,
  startFakeOpenAi,
} from '@hablabot/fakes';
import type { DemoPhoneNumber } from './customer';
import { customerPage } from './page';
import { type DemoSecrets, demoPassword, seedDemo } from './seed';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Marks a folder as the demo's own, so a rerun may empty it. */
const MARKER = '.hablabot-demo';
/** After a stop signal, start.mjs is given this long (it kills the server itself after 15 s). */
const KILL_AFTER_MS = 20_000;
const SERVER_START_MS = 120_000;

function envPort(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`${name} must be a port number (0 to 65535), not "${raw}"`);
    process.exit(1);
  }
  return port;
}

const serverPort = envPort('DEMO_PORT', 3100);
const pagePort = envPort('DEMO_PAGE_PORT', 3101);
const dataDir = path.resolve(root, process.env.DEMO_DATA_DIR || 'data/demo');
const logLevel = process.env.DEMO_LOG_LEVEL || 'warn';

const number: DemoPhoneNumber = {
  id: '109876543210123',
  display: '+52 55 5010 0000',
  businessAccountId: '102030405060708',
};
const secrets: DemoSecrets = {
  whatsAppToken: `EAADemo${randomBytes(24).toString('hex')}`,
  appSecret: randomBytes(16).toString('hex'),
  hubVerifyToken: randomBytes(24).toString('base64url'),
  openAiKey: `sk-demo-${randomBytes(20).toString('hex')}`,
  openAiModel: 'gpt-4o-mini',
};
/** The password is the one the server generates on its first start (read from its first-start box). */
const superAdmin = { email: 'superadmin@hablabot.local', password: '' };
const admin = {
  name: 'Ana Aurora',
  email: 'ana@cafe-aurora.example',
  password: demoPassword(),
  company: 'Café Aurora',
};

/** Empties the demo folder, refusing any folder that holds files and is not a demo folder. */
function freshDataDir() {
  if (fs.existsSync(dataDir)) {
    const entries = fs.readdirSync(dataDir);
    if (entries.length > 0 && !entries.includes(MARKER)) {
      throw new Error(`${dataDir} holds files and is not a demo folder; set DEMO_DATA_DIR to another folder`);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dataDir, MARKER), 'Made by npm run demo; emptied on each run.\n');
}

const DEMO_TEMPLATES = [
  fakeTemplate({
    name: 'promo_temporada',
    category: 'MARKETING',
    body: '¡Hola {{1}}! Llegó el café de temporada de Chiapas: 15 % de descuento esta semana con el código OTONO15.',
  }),
  fakeTemplate({
    name: 'pedido_enviado',
    body: 'Hola {{1}}, tu pedido {{2}} ya va en camino. Llegará en unas 48 horas.',
  }),
  fakeTemplate({
    name: 'bienvenida',
    body: 'Hola {{1}}, gracias por escribir a Café Aurora. ¿En qué podemos ayudarte hoy?',
  }),
  fakeTemplate({
    name: 'recordatorio_resena',
    status: 'PENDING',
    body: '¿Nos cuentas qué te pareció tu café?',
  }),
];

/** The fake Graph API with the demo's number; its webhooks (a send's later failure) reach `serverUrl`. */
async function startGraph(): Promise<FakeGraphApi> {
  const fake = await startFakeGraphApi({
    tokens: [secrets.whatsAppToken],
    phoneNumbers: [
      {
        id: number.id,
        display_phone_number: number.display,
        verified_name: 'Café Aurora',
        quality_rating: 'GREEN',
      },
    ],
  });
  // The business account's templates, as Meta lists them (newest first); the seed syncs them in.
  fake.templates.set(number.businessAccountId, DEMO_TEMPLATES);
  // Statuses as a phone reports them: sent at once, delivered a moment later, read (three in four) later.
  fake.reportStatuses = { sentMs: 500, deliveredMs: 2000, readMs: 6000, readShare: 0.75 };
  return fake;
}

/** The fake AI's answer: short, friendly, in the bot's voice, naming what the customer asked. */
function demoReply(openAi: FakeOpenAi) {
  openAi.reply = (request) => {
    const last = [...(request.messages ?? [])].reverse().find((m) => m.role === 'user');
    const asked = typeof last?.content === 'string' ? last.content.trim().slice(0, 80) : '';
    return asked
      ? `¡Hola! Soy Aurora, de Café Aurora ☕. Sobre «${asked}»: con gusto te ayudo. (Respuesta de la IA de demostración.)`
      : '¡Hola! Soy Aurora, de Café Aurora ☕. ¿En qué te ayudo? (Respuesta de la IA de demostración.)';
  };
}

/** The environment the server gets: this one without anything that could point it at real data. */
function serverEnv(port: number): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'REDIS_URL',
    'APP_KEY',
    'PUBLIC_URL',
    'DATA_DIR',
    'PORT',
    'HOST',
    'SUPERADMIN_EMAIL',
    'SUPERADMIN_PASSWORD',
    'RUN_JOBS',
    'TRUST_PROXY',
    'LOG_LEVEL',
    'OUTBOUND_ALLOW_PRIVATE',
  ]) {
    delete env[name];
  }
  return {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SUPERADMIN_EMAIL: superAdmin.email,
    LOG_LEVEL: logLevel,
    // The fake WhatsApp and OpenAI servers listen on 127.0.0.1 over http: the only private addresses
    // the demo's tenants may reach.
    OUTBOUND_ALLOW_PRIVATE: '127.0.0.1,::1',
  };
}

let server: ChildProcess | undefined;
let page: http.Server | undefined;
let graph: FakeGraphApi | undefined;
let openAi: FakeOpenAi | undefined;
let stopping: Promise<never> | undefined;
let serverExited: Promise<number> = Promise.resolve(0);

/** A port free right now (the server needs a real port in its own URL, so 0 cannot be passed on). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the server through start.mjs and resolves with its URL once it listens. */
async function startServer(): Promise<string> {
  const port = serverPort === 0 ? await freePort() : serverPort;
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: serverEnv(port),
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own: a Ctrl-C in the terminal reaches it once, through here.
    detached: true,
  });
  server = child;
  serverExited = new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
  readline.createInterface({ input: child.stderr! }).on('line', (line) => console.error(`[server] ${line}`));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('The server did not start in time')), SERVER_START_MS);
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const running = /^HablaBot is running at (\S+)/.exec(line);
      const password = /^│\s+password:\s+(\S+)\s*│$/.exec(line);
      if (password) superAdmin.password = password[1];
      if (running) {
        clearTimeout(timer);
        if (superAdmin.password) resolve(running[1]);
        else reject(new Error("The server did not show the first super admin's password"));
      } else {
        console.log(`[server] ${line}`);
      }
    });
    child.on('error', (err) => reject(err));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The server stopped (exit code ${code})`));
    });
  });
}

/** Stops everything this process started, then exits. A second signal is passed on (the server stops at once). */
function stop(code: number, signal: NodeJS.Signals = 'SIGTERM'): Promise<never> {
  if (stopping) {
    if (server && server.exitCode === null && server.signalCode === null) server.kill(signal);
    return stopping;
  }
  stopping = (async () => {
    page?.closeAllConnections();
    page?.close();
    if (server && server.exitCode === null && server.signalCode === null) {
      server.kill(signal);
      const killer = setTimeout(() => {
        console.error('The server did not stop in time: killed.');
        server?.kill('SIGKILL');
      }, KILL_AFTER_MS);
      await serverExited;
      clearTimeout(killer);
    }
    await Promise.allSettled([graph?.close(), openAi?.close()]);
    console.log('HablaBot demo stopped.');
    process.exit(code);
  })();
  return stopping;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => void stop(0, signal));
}

/** Refuses ports already taken (another demo running on this folder, say) before anything is emptied. */
async function checkPortsFree() {
  for (const [name, port] of [
    ['DEMO_PORT', serverPort],
    ['DEMO_PAGE_PORT', pagePort],
  ] as const) {
    if (port === 0) continue;
    await new Promise<void>((resolve, reject) => {
      const probe = net.createServer().once('error', () => {
        reject(new Error(`port ${port} is taken (is a demo already running?); set ${name} to another port`));
      });
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
    });
  }
}

async function main() {
  await checkPortsFree();
  freshDataDir();
  graph = await startGraph();
  openAi = await startFakeOpenAi({ apiKeys: [secrets.openAiKey], models: [secrets.openAiModel] });
  demoReply(openAi);
  console.log(
    'Starting HablaBot for the demo (the web app is built first when its build is missing or old)…',
  );
  const serverUrl = await startServer();
  graph.webhook = {
    url: `${serverUrl}/api/v1/webhooks/whatsapp`,
    appSecret: secrets.appSecret,
    wabaId: number.businessAccountId,
  };
  // From here on, the server stopping by itself ends the demo.
  void serverExited.then((code) => {
    if (!stopping) {
      console.error(`The server stopped (exit code ${code}); the demo ends.`);
      void stop(code || 1);
    }
  });

  const seeded = await seedDemo({
    serverUrl,
    superAdmin,
    admin,
    number,
    secrets,
    graphApiUrl: graph.baseUrl,
    openAiChatEndpoint: openAi.endpoint,
    sendsSoFar: () => graph?.sent.length ?? 0,
  });

  page = http.createServer(
    customerPage({
      serverUrl,
      appSecret: secrets.appSecret,
      number,
      graph,
      customers: seeded.clients.map(({ name, phone }) => ({ name, phone })),
      history: seeded.history,
    }),
  );
  await new Promise<void>((resolve, reject) => {
    page?.once('error', reject);
    page?.listen(pagePort, '127.0.0.1', resolve);
  });
  const inside = path.relative(root, dataDir);
  const shownDataDir = inside && !inside.startsWith('..') && !path.isAbsolute(inside) ? inside : dataDir;
  const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;

  console.log(`
HablaBot demo is ready (data in ${shownDataDir}, emptied on each run).

  Demo app:       ${serverUrl}
  Admin email:    ${admin.email}
  Admin password: ${admin.password}
  (company "${admin.company}": bot "Aurora" live, ${seeded.clients.length} clients, a few chats.
   Super admin: ${superAdmin.email} / ${superAdmin.password})

  Customer page:  ${pageUrl}
  Write to the business as any customer there (text, or an image or a document): the message reaches
  HablaBot as a signed WhatsApp webhook, and the page shows what the business sends back to that
  phone: the bot's answer, then the admin's once one writes to that client (which pauses the bot for
  that client), e.g.
    curl -s ${serverUrl}/api/v1/admin/message -H 'authorization: Bearer <token from POST /api/v1/auth/login>' \\
      -H 'content-type: application/json' -d '{"client_id":1,"content":"Hola, soy Ana."}'

  Fake WhatsApp Cloud API: ${graph.baseUrl}   Fake OpenAI: ${openAi.url}/v1

Ctrl-C stops everything.`);
}

main().catch((err) => {
  console.error(`The demo could not start: ${err instanceof Error ? err.message : String(err)}`);
  void stop(1);
});
