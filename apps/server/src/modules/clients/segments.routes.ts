import {
  ZIdParams,
  ZMessageResponse,
  ZSegmentMutationResponse,
  ZSegmentRequest,
  ZSegmentsResponse,
} from '@hablabot/contract';
import type { FastifyInstance } from 'fastify';
import { type Guards, companyIdOf } from '../../platform/auth';
import { errorResponses, typed } from '../../platform/http';
import { translate } from '../../platform/locale';
import type { SegmentsService } from './segments.service';

const errors = errorResponses;

export function segmentsRoutes(deps: { segments: SegmentsService; guards: Guards }) {
  const { segments, guards } = deps;
  return async (instance: FastifyInstance) => {
    const app = typed(instance);
    app.addHook('onRequest', guards.requireCompanyAdmin);
    const tags = ['segments'];

    app.get(
      '/admin/segment',
      { schema: { tags, response: { 200: ZSegmentsResponse, ...errors } } },
      async (request) => ({
        segments: await segments.list(companyIdOf(request)),
        message: translate(request.lang, 'segments.listed'),
      }),
    );

    app.post(
      '/admin/segment',
      { schema: { tags, body: ZSegmentRequest, response: { 201: ZSegmentMutationResponse, ...errors } } },
      async (request, reply) => {
        const segment = await segments.create(companyIdOf(request), request.body);
        return reply.status(201).send({ segment, message: translate(request.lang, 'segments.created') });
      },
    );

    app.put(
      '/admin/segment/:id',
      {
        schema: {
          tags,
          params: ZIdParams,
          body: ZSegmentRequest,
          response: { 200: ZSegmentMutationResponse, ...errors },
        },
      },
      async (request) => ({
        segment: await segments.update(companyIdOf(request), request.params.id, request.body),
        message: translate(request.lang, 'segments.updated'),
      }),
    );

    app.delete(
      '/admin/segment/:id',
      { schema: { tags, params: ZIdParams, response: { 200: ZMessageResponse, ...errors } } },
      async (request) => {
        await segments.remove(companyIdOf(request), request.params.id);
        return { message: translate(request.lang, 'segments.deleted') };
      },
    );
  };
}
