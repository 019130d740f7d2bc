import type { Language } from '@hablabot/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from './errors';
import { resolveLanguage, translate } from './locale';
import { type ValidationIssue, describeIssue, fieldLabel } from './validation-text';

function validationBody(lang: Language, issues: ValidationIssue[], context?: string) {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const field = path || context || '_';
    const text = describeIssue(lang, field, issue);
    errors[field] ??= [];
    if (!errors[field].includes(text)) errors[field].push(text);
  }
  const first = Object.values(errors)[0]?.[0] ?? translate(lang, 'errors.bad_request');
  return { message: first, errors };
}

function languageOf(request: FastifyRequest): Language {
  return resolveLanguage(request.headers['accept-language']);
}

export function installErrorHandling(
  app: FastifyInstance,
  fallback?: (request: FastifyRequest, reply: FastifyReply) => boolean,
): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const lang = languageOf(request);
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      const message = translate(lang, error.key, error.params);
      const body: { message: string; errors?: Record<string, string[]> } = { message };
      if (error.fieldErrors) {
        body.errors = Object.fromEntries(
          Object.entries(error.fieldErrors).map(([field, keys]) => [
            field,
            keys.map((k) =>
              typeof k === 'string'
                ? translate(lang, k, { field: fieldLabel(lang, field), ...error.params })
                : translate(lang, k.key, { field: fieldLabel(lang, field), ...error.params, ...k.params }),
            ),
          ]),
        );
      }
      if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      return reply.status(error.statusCode).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const context = (error as { validationContext?: string }).validationContext;
      return reply
        .status(422)
        .send(validationBody(lang, error.validation as unknown as ValidationIssue[], context));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause?.issues }, 'response does not match its schema');
      return reply.status(500).send({ message: translate(lang, 'errors.internal') });
    }
    const status = error.statusCode ?? 500;
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (status === 400 && error instanceof SyntaxError)) {
      return reply.status(400).send({ message: translate(lang, 'errors.invalid_json') });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
      return reply.status(413).send({ message: translate(lang, 'errors.payload_too_large') });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
      return reply.status(415).send({ message: translate(lang, 'errors.unsupported_media_type') });
    }
    if (status === 429) {
      return reply
        .status(429)
        .send({ message: translate(lang, 'errors.too_many_requests', { seconds: 60 }) });
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ message: translate(lang, 'errors.bad_request') });
    }
    // Anything else is our fault: log it whole, tell the caller nothing about the internals.
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: translate(lang, 'errors.internal') });
  });

  app.setNotFoundHandler((request, reply) => {
    if (fallback?.(request, reply)) return;
    reply.status(404).send({ message: translate(languageOf(request), 'errors.route_not_found') });
  });
}
