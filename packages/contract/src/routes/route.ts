import type { z } from 'zod';
import { ZConflictResponse, ZErrorResponse, ZValidationErrorResponse } from '../common.schema';

// One route contract: each HTTP route of /api/v1 is an endpoint (method and path, in ./paths.ts, free of
// zod so the web's bundles carry only these strings) and a declaration of what it takes and answers (the
// area files beside this one). The server registers, validates and serialises from the declaration; the
// web calls the endpoint and gets the declaration's types, never a path or an answer type of its own.

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where a route lives: Fastify's path syntax, `:name` for a path parameter. */
export interface Endpoint {
  readonly method: Method;
  readonly path: string;
}

/** What a route takes and answers, by status code. */
export interface RouteSchemas {
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly responses: Readonly<Record<number, z.ZodType>>;
}

export type RouteDeclaration = Endpoint & RouteSchemas;

/** The endpoints of one area, by name. */
export type Endpoints = Readonly<Record<string, Endpoint>>;

/** The schemas of one area: exactly one entry per endpoint of the area. */
export type AreaSchemas<E extends Endpoints> = { readonly [K in keyof E]: RouteSchemas };

/** An area's endpoints joined with their schemas, one declaration per route. */
export function declareRoutes<const E extends Endpoints, const S extends AreaSchemas<E>>(
  endpoints: E,
  schemas: S & { readonly [K in Exclude<keyof S, keyof E>]: never },
): { readonly [K in keyof E]: E[K] & S[K] } {
  const out: Record<string, RouteDeclaration> = {};
  for (const name of Object.keys(endpoints)) {
    out[name] = { ...endpoints[name], ...(schemas as AreaSchemas<E>)[name] } as RouteDeclaration;
  }
  return out as { readonly [K in keyof E]: E[K] & S[K] };
}

/** The error answers every guarded route may give, in the API's error shapes (documented in /api/v1/docs). */
export const errorResponses = {
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  409: ZConflictResponse,
  422: ZValidationErrorResponse,
} as const;

// ----- The web's view: an endpoint that carries its declaration's types (a type only, never a value). -----

/** An endpoint as the web sees it: method and path at run time, the declaration as a type. */
export interface TypedEndpoint<R extends RouteSchemas = RouteSchemas> extends Endpoint {
  readonly __declaration?: R;
}

/** An area's endpoints typed by its declarations. */
export type TypedEndpoints<A extends Readonly<Record<string, RouteSchemas>>> = {
  readonly [K in keyof A]: TypedEndpoint<A[K]>;
};

type DeclarationOf<E> = E extends TypedEndpoint<infer R> ? R : never;
type Success = 200 | 201 | 202 | 204;
type InputPart<R, K extends 'params' | 'query' | 'body', Optional extends boolean> = R extends {
  readonly [P in K]: infer T extends z.ZodType;
}
  ? Optional extends true
    ? { readonly [P in K]?: z.input<T> }
    : { readonly [P in K]: z.input<T> | (K extends 'body' ? FormData : never) }
  : { readonly [P in K]?: undefined };

/**
 * What a call sends: path parameters and body as the route requires them, the query string optional. A
 * body may also be a FormData carrying the same fields, for a route that takes a file with them (multipart).
 */
export type CallInput<E> = InputPart<DeclarationOf<E>, 'params', false> &
  InputPart<DeclarationOf<E>, 'query', true> &
  InputPart<DeclarationOf<E>, 'body', false>;

/** Whether a call needs an input at all (a route without params, query or body may be called bare). */
export type NeedsInput<E> =
  DeclarationOf<E> extends { readonly params: z.ZodType } | { readonly body: z.ZodType } ? true : false;

/** The answer of a call: the route's success answers, as the server serialises them. */
export type Answer<E> =
  DeclarationOf<E> extends { readonly responses: infer S }
    ? {
        [C in keyof S]: C extends Success ? (S[C] extends z.ZodType ? z.output<S[C]> : never) : never;
      }[keyof S]
    : never;
