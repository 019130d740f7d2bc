import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { buildApp, LOG_REDACT } from './app';
import { ensureSuperAdmin } from './bootstrap';
import { ConfigError, loadConfig } from './config/env';
import { trustProxyWarning } from './config/trust-proxy-warning';
import { resealSecrets } from './modules/settings/reseal-secrets';
import { createContainer } from './container';
import { openInfrastructure } from './infrastructure';
import { configureOutbound } from './integrations/http/outbound';
import { createLogDestination } from './platform/log-destination';

/** However the stop goes, the process is gone this long after it began. */
const FORCE_EXIT_MS = 10_000;
/** While stopping, connections that finish their last request are closed this often. */
const IDLE_SWEEP_MS = 100;
/** Requests still unanswered this long after the stop began (a stalled upload) are cut off. */
const GRACE_MS = 3000;

// Output whose reader has gone (a closed terminal, a dead pipe) must never crash the server or its stop:
// such writes are dropped.
const ignoreBrokenPipe = (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE' && err.code !== 'EIO') throw err;
};
process.stdout.on('error', ignoreBrokenPipe);
process.stderr.on('error', ignoreBrokenPipe);

const log = createLogDestination();
let app: FastifyInstance | undefined;
let infra: Awaited<ReturnType<typeof openInfrastructure>> | undefined;
let stopping = false;
/**
 * The first-start box (the first super admin's email and password), printed just before the "running"
 * line so no log line buries it; printed too when the start fails after making that super admin, whose
 * generated password is shown only this once.
 */
let firstStartBox = '';

function exit(code: number): never {
  log.flush();
  process.exit(code);
}

/**
 * Stops the server: the exit timer is armed first (unref'd, so it never keeps the process alive by
 * itself), then the server stops accepting, idle keep-alive connections are closed (and each busy one as
 * soon as its request is answered; whatever is still open after GRACE_MS is cut), the database and Redis
 * are closed, and the process exits. A second signal exits at once.
 */
async function stop(reason: string, code = 0): Promise<void> {
  stopping = true;
  const force = setTimeout(() => {
    process.stderr.write(`HablaBot did not stop within ${FORCE_EXIT_MS / 1000} s; exiting anyway\n`);
    exit(1);
  }, FORCE_EXIT_MS);
  force.unref();
  app?.log.info({ reason }, 'stopping');
  let failed = false;
  if (app) {
    const server = app.server;
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    sweep.unref();
    const cut = setTimeout(() => server.closeAllConnections(), GRACE_MS);
    cut.unref();
    try {
      await app.close();
    } catch (err) {
      failed = true;
      app.log.error({ err }, 'closing the server failed');
    }
    clearInterval(sweep);
    clearTimeout(cut);
  }
  try {
    await infra?.close();
  } catch (err) {
    failed = true;
    app?.log.error({ err }, 'closing the database failed');
  }
  exit(failed ? 1 : code);
}

function onSignal(signal: NodeJS.Signals) {
  if (stopping) exit(128 + (os.constants.signals[signal] ?? 0));
  void stop(signal);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);

// Started by scripts/start.mjs (npm start) with a channel to it: when that parent dies, the channel
// closes and the server stops too, so it never runs on without the process that owns it.
if (process.channel) {
  process.on('disconnect', () => {
    if (!stopping) void stop('parent exited');
  });
  process.channel.unref();
}

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      exit(1);
    }
    throw err;
  }

  configureOutbound(config.outbound);
  infra = await openInfrastructure(config);
  if (stopping) return;
  const container = createContainer(infra, {
    publicUrl: config.publicUrlFromEnv,
    // In production a delivery is only taken once the number's company's app secret verified it.
    webhook: { requireSignature: config.env === 'production' },
    webhookInbox: { leaseMs: config.webhookLeaseMs },
  });
  app = await buildApp({
    container,
    webDist: config.webDist,
    trustProxy: config.trustProxy,
    metricsToken: config.metricsToken,
    logger: {
      level: config.logLevel,
      redact: { paths: LOG_REDACT, censor: '[redacted]' },
      stream: log.stream,
    },
  });
  // The webhook inbox and the outbox dispatcher stop with the server, before the database closes (what
  // is left is processed and dispatched by the next process).
  app.addHook('onClose', async () => {
    await container.webhookInbox.stop();
    await container.outbox.stop();
  });
  const proxyWarning = trustProxyWarning(config.host, config.trustProxy);
  if (proxyWarning) app.log.warn(proxyWarning);
  // The super admin exists before the first request can come; its box waits for the "running" line.
  await ensureSuperAdmin(container.identity, config.superAdmin, app.log, (text) => {
    firstStartBox += text;
  });
  if (infra.previousAppKeys?.length) {
    const { resealed, unreadable } = await resealSecrets(infra.database.db, container.secrets);
    app.log.info({ resealed, unreadable }, 'secrets sealed again under the new APP_KEY');
  }
  await container.identity.deleteExpiredTokens();
  if (stopping) return;
  await app.listen({ port: config.port, host: config.host });
  // Without RUN_JOBS=false this process also runs the background jobs; `npm run worker` runs them apart.
  if (config.runJobs) {
    await container.startBackgroundWork(app.log);
  }
  // Through the log's stream, which writes in order after every line logged so far: the box and the
  // "running" line are the last lines of the start.
  log.stream.write(
    `${firstStartBox}HablaBot is running at ${config.publicUrl} (database: ${infra.database.engine})\n`,
  );
  firstStartBox = '';
}

/** Why the start failed, in one line; a port that cannot be had says which and what to do. */
function startFailure(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
  const where = `port ${e.port} on ${e.address}`;
  if (e.syscall !== 'listen')
    return `HablaBot failed to start: ${e instanceof Error ? e.message : String(e)}`;
  if (e.code === 'EADDRINUSE')
    return `HablaBot could not start: ${where} is already in use (is HablaBot already running?); stop what uses it or set PORT to a free port`;
  if (e.code === 'EACCES')
    return `HablaBot could not start: ${where} needs privileges this user lacks; set PORT to 1024 or above`;
  if (e.code === 'EADDRNOTAVAIL')
    return `HablaBot could not start: ${e.address} is not an address of this machine; check HOST`;
  return `HablaBot failed to start: ${e.message}`;
}

main().catch((err) => {
  if (firstStartBox) log.stream.write(firstStartBox);
  process.stderr.write(`${startFailure(err)}\n`);
  if (stopping) return;
  void stop('failed to start', 1);
});
