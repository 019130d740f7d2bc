import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { typed } from '../../platform/http';

const ZHealth = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'down']),
  queue: z.enum(['ok', 'down', 'in-process']),
  engine: z.enum(['sqlite', 'postgres']),
});

export interface HealthProbe {
  engine: 'sqlite' | 'postgres';
  pingDatabase(): Promise<void>;
  /** undefined when jobs and events run in-process. */
  pingQueue?: () => Promise<void>;
}

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

export function systemRoutes(deps: { health: HealthProbe }) {
  return async (instance: FastifyInstance) => {
    const app = typed(instance);
    app.get(
      '/health',
      { schema: { tags: ['system'], response: { 200: ZHealth, 503: ZHealth } } },
      async (_request, reply) => {
        const { health } = deps;
        const database = (await probe(health.pingDatabase)) ? 'ok' : 'down';
        const queue = health.pingQueue ? ((await probe(health.pingQueue)) ? 'ok' : 'down') : 'in-process';
        const healthy = database === 'ok' && queue !== 'down';
        return reply
          .status(healthy ? 200 : 503)
          .send({ status: healthy ? 'ok' : 'degraded', database, queue, engine: health.engine });
      },
    );

    app.get('/docs', { schema: { hide: true } }, async () => instance.swagger());
  };
}
