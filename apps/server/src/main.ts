import { buildApp, LOG_REDACT } from './app';
import { ensureSuperAdmin } from './bootstrap';
import { ConfigError, loadConfig } from './config/env';
import { createContainer } from './container';
import { openInfrastructure } from './infrastructure';

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

  const infra = await openInfrastructure(config);
  const container = createContainer(infra, { publicUrl: config.publicUrlFromEnv });
  const app = await buildApp({
    container,
    webDist: config.webDist,
    trustProxy: config.trustProxy,
    logger: {
      level: config.logLevel,
      redact: { paths: LOG_REDACT, censor: '[redacted]' },
    },
  });
  await ensureSuperAdmin(container.identity, config.superAdmin, app.log);
  await container.identity.deleteExpiredTokens();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await infra.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // Without RUN_JOBS=false this process also runs the background jobs; `npm run worker` runs them apart.
  if (config.runJobs) await container.jobs.start({ logger: app.log });
  process.stdout.write(`HablaBot is running at ${config.publicUrl} (database: ${infra.database.engine})\n`);
}

main().catch((err) => {
  process.stderr.write(`HablaBot failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
