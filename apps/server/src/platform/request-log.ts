import type { Bindings, ChildLoggerOptions } from 'pino';
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * A file of the web app served as asked (its pages and the scripts, styles and images they load): a
 * GET or HEAD outside /api/ and /storage/ answered below 400. A page load fetches a dozen of them.
 */
function isWebAppFile(request: FastifyRequest, reply: FastifyReply): boolean {
  const url = request.url;
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    reply.statusCode < 400 &&
    !url.startsWith('/api/') &&
    !url.startsWith('/storage/')
  );
}

/**
 * One log line per request, when it is answered (Fastify writes two: one on arrival, one on answer).
 * The line holds only the fields below, none of them secret, so it is written without the redaction the
 * app's other lines go through (redaction would cost three times the line itself). Errors are logged as
 * Fastify logs them, redacted. The web app's files are logged at debug, not info: a line per script and
 * image of every page load would bury what the log is read for (the API's answers, the first-start box).
 */
export class OneLinePerRequest extends LogController {
  #plain: FastifyBaseLogger | undefined;

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    if (error) {
      super.requestCompleted(error, request, reply, metadata);
      return;
    }
    this.#plain ??= request.server.log.child({}, { redact: { paths: [] } });
    this.#plain[isWebAppFile(request, reply) ? 'debug' : 'info'](
      {
        reqId: request.id,
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    );
  }
}

const LOG_METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type Call = (...args: unknown[]) => void;

/**
 * A request's logger, made only when the request logs something of its own: Fastify gives every request
 * a child logger carrying its id, and most requests never use it (the line above is written from the app's
 * logger), so making each one up front is wasted work on every request.
 */
class LazyChildLogger {
  #parent: FastifyBaseLogger;
  #bindings: Bindings;
  #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  real(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  get level(): string {
    return this.#child?.level ?? this.#parent.level;
  }
  set level(level: string) {
    this.real().level = level;
  }
  isLevelEnabled(level: string): boolean {
    const logger = this.real() as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
    return logger.isLevelEnabled?.(level) ?? true;
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
}
// fatal(), error() … each makes the real logger and passes the call on.
for (const method of LOG_METHODS) {
  Object.defineProperty(LazyChildLogger.prototype, method, {
    value(this: LazyChildLogger, ...args: unknown[]) {
      const logger = this.real();
      (logger[method] as Call).apply(logger, args);
    },
  });
}

/** Fastify's childLoggerFactory: each request's logger is a LazyChildLogger. */
export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
