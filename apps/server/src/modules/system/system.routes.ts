import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { typed } from '../../platform/http';
import { type Metrics, metricsTokenMatches } from '../../platform/metrics';

const ZHealth = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'down']),
  queue: z.enum(['ok', 'down', 'in-process']),
  engine: z.enum(['sqlite', 'postgres']),
  /** Seconds since the oldest WhatsApp delivery not processed yet arrived (0: none waits); unset when the database is down. */
  webhook_lag_seconds: z.number().min(0).optional(),
});

export interface HealthProbe {
  engine: 'sqlite' | 'postgres';
  pingDatabase(): Promise<void>;
  /** undefined when jobs and events run in-process. */
  pingQueue?: () => Promise<void>;
  /** The webhook inbox's lag (modules/messaging/webhook-inbox.ts). */
  webhookLagSeconds?: () => Promise<number>;
}

/** True when `fn` succeeds within 2 s. */
async function probe(fn: () => Promise<void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), 2000);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Callers that ask while a probe is running share its answer instead of starting another: a burst of
 * health checks costs one database (and one Redis) round trip, and each answer is still from a probe that
 * was running when the caller asked.
 */
function shared(fn: () => Promise<void>): () => Promise<boolean> {
  return sharedValue(() => probe(fn));
}

function sharedValue<T>(fn: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= fn().finally(() => {
      running = undefined;
    });
    return running;
  };
}

export function systemRoutes(deps: {
  health: HealthProbe;
  /** With `metricsToken`, GET /metrics; without, no such route (404), so nothing is readable by default. */
  metrics?: Pick<Metrics, 'render'>;
  metricsToken?: string;
}) {
  const { health } = deps;
  const database = shared(health.pingDatabase);
  const queue = health.pingQueue ? shared(health.pingQueue) : undefined;
  /**
   * The whole answer, shared the same way (one inbox lag read for a burst) and serialised once: an
   * answer already serialised is sent as it is. Every answer still comes from a probe that started
   * after its caller asked.
   */
  const check = sharedValue(async () => {
    // Started on the next turn of the event loop: the requests read in this turn share it too.
    await new Promise((resolve) => setImmediate(resolve));
    const [databaseUp, queueUp] = await Promise.all([database(), queue?.()]);
    const healthy = databaseUp && queueUp !== false;
    const lag =
      databaseUp && health.webhookLagSeconds
        ? await health.webhookLagSeconds().catch(() => undefined)
        : undefined;
    const body = ZHealth.parse({
      status: healthy ? 'ok' : 'degraded',
      database: databaseUp ? 'ok' : 'down',
      queue: queueUp === undefined ? 'in-process' : queueUp ? 'ok' : 'down',
      engine: health.engine,
      ...(lag === undefined ? {} : { webhook_lag_seconds: Math.round(lag * 10) / 10 }),
    });
    return { healthy, body: JSON.stringify(body) };
  });
  return async (instance: FastifyInstance) => {
    const app = typed(instance);
    app.get(
      '/health',
      { schema: { tags: ['system'], response: { 200: ZHealth, 503: ZHealth } } },
      async (_request, reply) => {
        const { healthy, body } = await check();
        return (
          reply
            .status(healthy ? 200 : 503)
            .type('application/json; charset=utf-8')
            // Already serialised: Fastify sends a string with a JSON type as it is.
            .send(body as never)
        );
      },
    );

    app.get('/docs', { schema: { hide: true } }, async () => instance.swagger());

    const { metrics, metricsToken } = deps;
    if (metrics && metricsToken) {
      // Prometheus' text format; only for the scraper holding METRICS_TOKEN.
      app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
        if (!metricsTokenMatches(request.headers.authorization, metricsToken))
          throw new AppError(401, 'auth.unauthenticated');
        const { contentType, body } = await metrics.render();
        return reply.type(contentType).header('cache-control', 'no-store').send(body);
      });
    }
  };
}
