import type { TextKey } from '../i18n';

type Params = Record<string, string | number>;
type Key = TextKey | (string & {});
/** A field's error: a locale key, or a key with numbers or names of its own ({ n: 2 }). */
export type FieldError = Key | { key: Key; params: Params };

/** An error whose message is a locale key; the error handler translates it for the caller. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly key: Key,
    readonly params?: Params,
    /** Field errors as locale keys, for 422 and 409 answers that point at a field. */
    readonly fieldErrors?: Record<string, FieldError[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(key);
    this.name = 'AppError';
  }
}

export const notFound = (key: Key = 'errors.not_found') => new AppError(404, key);
export const forbidden = (key: Key = 'auth.forbidden') => new AppError(403, key);
export const unauthenticated = () => new AppError(401, 'auth.unauthenticated');
export const conflict = (key: Key, field?: string) =>
  new AppError(409, key, undefined, field ? { [field]: [key] } : undefined);
/** A 422 for rules the schema cannot express (a taken email, an unknown role id). */
export const invalid = (field: string, key: Key, params?: Params) =>
  new AppError(422, key, params, { [field]: [key] });
/** A 429 saying when to try again; the wait is also the text's count ('1 segundo', '30 segundos'). */
export const tooManyRequests = (key: Key, retryAfterSeconds: number) =>
  new AppError(429, key, { seconds: retryAfterSeconds, count: retryAfterSeconds }, undefined, {
    'retry-after': String(retryAfterSeconds),
  });
