import type { RouteDeclaration } from '@hablabot/contract';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** The Fastify schema a declaration stands for (params, query string, body and answers by status). */
export type SchemaOf<R extends RouteDeclaration> = {
  params: R extends { params: infer P } ? P : undefined;
  querystring: R extends { query: infer Q } ? Q : undefined;
  body: R extends { body: infer B } ? B : undefined;
  response: R['responses'];
};

type Options<R extends RouteDeclaration> = Omit<
  RouteShorthandOptions<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    RouteGenericInterface,
    ContextConfigDefault,
    SchemaOf<R> & FastifySchema,
    ZodTypeProvider,
    FastifyBaseLogger
  >,
  'schema'
> & {
  /** What only the documentation says (tags, summary, description, hide…); the shapes come from the contract. */
  schema?: Omit<FastifySchema, 'params' | 'querystring' | 'body' | 'response' | 'headers'> & {
    tags?: string[];
    summary?: string;
    description?: string;
    hide?: boolean;
  };
  handler: RouteHandlerMethod<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    RouteGenericInterface,
    ContextConfigDefault,
    SchemaOf<R> & FastifySchema,
    ZodTypeProvider,
    FastifyBaseLogger
  >;
};

/**
 * Registers one route of the contract: method, path, validation of params, query string and body, and the
 * serialisation of its answers all come from the declaration in packages/contract. The module adds only
 * what is its own: guards (onRequest/preHandler), rate limits, body limits, the documentation and the handler.
 */
export function route<const R extends RouteDeclaration>(
  app: FastifyInstance,
  declaration: R,
  options: Options<R>,
) {
  const { schema: docs, handler, ...rest } = options;
  const schema: FastifySchema = { ...docs };
  // A route that answers a file or a CSV declares no JSON answer, and nothing serialises it.
  if (Object.keys(declaration.responses).length > 0) schema.response = declaration.responses;
  if (declaration.params) schema.params = declaration.params;
  if (declaration.query) schema.querystring = declaration.query;
  if (declaration.body) schema.body = declaration.body;
  app.withTypeProvider<ZodTypeProvider>().route({
    ...(rest as object),
    method: declaration.method,
    url: declaration.path,
    schema,
    handler: handler as RouteHandlerMethod,
  });
}
