import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

export type Api = ReturnType<FastifyInstance['withTypeProvider']> & FastifyInstance;

/**
 * The Fastify instance with zod types for params, bodies and responses, for the few routes outside the
 * route contract (webhook, health, metrics). Every other route is registered with route() (./route.ts).
 */
export function typed(app: FastifyInstance) {
  return app.withTypeProvider<ZodTypeProvider>();
}
