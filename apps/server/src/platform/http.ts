import { ZConflictResponse, ZErrorResponse, ZValidationErrorResponse } from '@hablabot/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

export type Api = ReturnType<FastifyInstance['withTypeProvider']> & FastifyInstance;

/** The Fastify instance with zod types for params, bodies and responses. */
export function typed(app: FastifyInstance) {
  return app.withTypeProvider<ZodTypeProvider>();
}

/** The error answers every guarded route may give, in the API's error shapes (documented in /api/v1/docs). */
export const errorResponses = {
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  409: ZConflictResponse,
  422: ZValidationErrorResponse,
};
