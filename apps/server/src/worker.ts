import pino from 'pino';
import { ConfigError, loadConfig } from './config/env';
import { createContainer } from './container';
import { LOG_REDACT } from './app';
import { openInfrastructure } from './infrastructure';
import { configureOutbound } from './integrations/http/outbound';

/**
 * `npm run worker`: runs the background jobs without the HTTP server, from the same configuration. With
 * REDIS_URL any number of workers share the queue; without it they share the database's `jobs` table.
 * Start the web process with RUN_JOBS=false to leave the jobs to the workers.
 */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = pino({ level: config.logLevel, redact: { paths: LOG_REDACT, censor: '[redacted]' } });
  configureOutbound(config.outbound);
  const infra = await openInfrastructure(config);
  const container = createContainer(infra, {
    publicUrl: config.publicUrlFromEnv,
    webhookInbox: { leaseMs: config.webhookLeaseMs },
  });

  // No HTTP server holds this process up, and the job queue's timers do not either (they let the app
  // process exit when its server closes): without this the worker would exit as soon as its queue is
  // idle — at once on the SQLite default. It runs until a stop signal.
  const alive = setInterval(() => undefined, 1 << 30);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    clearInterval(alive);
    log.info({ signal }, 'worker shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // Hands no more events to subscribers (what is left is dispatched by the next process), stops taking
    // jobs, waits a few seconds for the running ones, then closes the connections.
    await container.webhookInbox.stop();
    await container.outbox.stop();
    await infra.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await container.startBackgroundWork(log);
  log.info({ jobs: container.jobs.kind, database: infra.database.engine }, 'worker running');
  if (container.jobs.kind === 'database')
    // The jobs are shared through the database, but live events only through Redis.
    log.warn(
      'no REDIS_URL: the jobs this worker runs are shared with the app through the database, but their live events (bot replies, mass message progress, downloaded media) reach the app’s open chats only after a reload; set REDIS_URL, or let the app run the jobs (RUN_JOBS=true)',
    );
}

main().catch((err) => {
  process.stderr.write(
    `HablaBot worker failed to start: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
});
