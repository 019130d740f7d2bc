import type { Language } from '@hablabot/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from './errors';
import { hasMessage, resolveLanguage, translate } from './locale';

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message: string;
  params: Record<string, unknown>;
}

function fieldLabel(lang: Language, field: string): string {
  const leaf =
    field
      .split('.')
      .filter((p) => Number.isNaN(Number(p)))
      .pop() ?? field;
  const key = `fields.${leaf}`;
  return hasMessage(key) ? translate(lang, key) : leaf;
}

/** Turns one zod issue into a sentence in the caller's language. */
export function describeIssue(lang: Language, field: string, issue: ValidationIssue): string {
  const label = fieldLabel(lang, field);
  if (hasMessage(issue.message)) {
    // A custom rule may carry the numbers its message needs ({ min: 10 }).
    const extra = (issue.params?.params ?? {}) as Record<string, string | number>;
    return translate(lang, issue.message, { ...extra, field: label });
  }
  const p = issue.params;
  switch (issue.keyword) {
    case 'invalid_type':
      return translate(
        lang,
        issue.message === 'required' ? 'validation.required' : 'validation.invalid_type',
        {
          field: label,
        },
      );
    case 'too_small': {
      const min = Number(p.minimum);
      if (p.origin === 'string')
        return min <= 1
          ? translate(lang, 'validation.required', { field: label })
          : translate(lang, 'validation.min_string', { field: label, min });
      if (p.origin === 'array') return translate(lang, 'validation.min_array', { field: label, min });
      return translate(lang, 'validation.min_number', { field: label, min });
    }
    case 'too_big': {
      const max = Number(p.maximum);
      if (p.origin === 'string') return translate(lang, 'validation.max_string', { field: label, max });
      if (p.origin === 'array') return translate(lang, 'validation.max_array', { field: label, max });
      return translate(lang, 'validation.max_number', { field: label, max });
    }
    case 'invalid_format':
      return translate(lang, p.format === 'email' ? 'validation.email' : 'validation.format', {
        field: label,
      });
    case 'invalid_value':
      return translate(lang, 'validation.in', {
        field: label,
        values: Array.isArray(p.values) ? p.values.join(', ') : '',
      });
    default:
      return translate(lang, 'validation.format', { field: label });
  }
}

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
            keys.map((k) => translate(lang, k, { field: fieldLabel(lang, field), ...error.params })),
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
