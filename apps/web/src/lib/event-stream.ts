import { EVENTS_HEARTBEAT_MS, type StreamEvent } from '@hablabot/contract';
import { streamPaths } from '@hablabot/contract/api';
import { createParser } from 'eventsource-parser';
import { apiUrl, endSession } from './api-client';
import { requestLanguage } from './i18n';
import { getToken } from './session';

// The company's live events (GET /api/v1/admin/events) read with fetch rather than EventSource: the
// bearer token goes in the Authorization header, never in the URL (where it would land in server and
// proxy logs), and a 401 can end the session the way every other call does.

/** One frame of a `text/event-stream` body, as the server-sent events format defines it. */
export interface SseFrame {
  /** The last `id:` seen on the stream so far (ids carry over to frames that have none), or null. */
  id: string | null;
  /** `event:`; 'message' when the frame names none. */
  event: string;
  /** The `data:` lines joined with '\n'. */
  data: string;
}

export interface SseParserHandlers {
  onFrame(frame: SseFrame): void;
  /** A `:` comment line (the server's heartbeats). */
  onComment?(text: string): void;
  /** A `retry:` field: how long the server asks a reconnect to wait, in ms. */
  onRetry?(ms: number): void;
}

/**
 * The server-sent events format read incrementally by eventsource-parser: text goes in as it arrives, in
 * chunks cut anywhere (in the middle of a line, between '\r' and '\n'); frames come out when their blank
 * line has. On top of it, a frame without an `id:` line carries the last id seen, as EventSource does.
 */
export function createSseParser(handlers: SseParserHandlers) {
  let lastId: string | null = null;
  const parser = createParser({
    onEvent(message) {
      if (message.id !== undefined) lastId = message.id;
      handlers.onFrame({ id: lastId, event: message.event ?? 'message', data: message.data });
    },
    onComment: (text) => handlers.onComment?.(text.trimStart()),
    onRetry: (ms) => handlers.onRetry?.(ms),
  });
  return {
    push(chunk: string) {
      parser.feed(chunk);
    },
    /** The id a reconnect sends as Last-Event-ID. */
    get lastId() {
      return lastId;
    },
  };
}

/** A live event with the id the server gave it (null for `stream.reset`, which has none). */
export type ReceivedEvent = StreamEvent & { id: number | null };

export type EventStreamState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface EventStreamOptions {
  onEvent(event: ReceivedEvent): void;
  onStateChange?(state: EventStreamState): void;
  /** A frame that is not a known event, or a refusal that ends the stream (403). */
  onError?(error: unknown): void;
  signal?: AbortSignal;
  /** The server's heartbeat interval; a silence of 2.5 times it means the connection is dead. */
  heartbeatMs?: number;
  /** First reconnect wait (the server's `retry:` replaces it), doubled per failed attempt up to maxDelayMs. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Resume after this id (Last-Event-ID) on the first connection. */
  lastEventId?: string | null;
  /** 0 ≤ x < 1; the jitter's source (tests fix it). */
  random?: () => number;
}

type StreamEventSchema = typeof import('./stream-event-schema').ZStreamEvent;
let streamEventSchema: StreamEventSchema | undefined;
let streamEventSchemaLoading: Promise<StreamEventSchema> | undefined;

/**
 * The schema every event is checked against. Building it (zod, with every message, conversation and
 * settings shape) takes a first screen longer than drawing its rows, so it is loaded with the stream's
 * first event instead; a load that fails is tried again with the next event.
 */
function loadStreamEventSchema(): Promise<StreamEventSchema> {
  streamEventSchemaLoading ??= import('./stream-event-schema').then(
    (module) => {
      streamEventSchema = module.ZStreamEvent;
      return module.ZStreamEvent;
    },
    (error: unknown) => {
      streamEventSchemaLoading = undefined;
      throw error;
    },
  );
  return streamEventSchemaLoading;
}

const DEAD_AFTER_HEARTBEATS = 2.5;
const DEFAULT_INITIAL_DELAY_MS = 1000;
const DEFAULT_MAX_DELAY_MS = 30_000;

/** Statuses that a later attempt may well get past; any other refusal ends the stream. */
function worthRetrying(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** The wait before reconnect attempt `attempt` (0-based): exponential, capped, half of it random. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Follows the signed-in admin's event stream until `close()` (or the signal) stops it, a 401 ends the
 * session, or the server refuses for good (403). Lost connections, 5xx answers and heartbeat silences
 * reconnect after a growing, jittered wait, sending the last id seen as Last-Event-ID so missed events
 * come first (or a `stream.reset` when the server no longer has them).
 */
export function openEventStream(options: EventStreamOptions): { close(): void; done: Promise<void> } {
  const stopper = new AbortController();
  const outer = options.signal;
  const stop = () => stopper.abort();
  if (outer?.aborted) stop();
  else outer?.addEventListener('abort', stop, { once: true });

  const heartbeatMs = options.heartbeatMs ?? EVENTS_HEARTBEAT_MS;
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  const random = options.random ?? Math.random;
  let baseDelayMs = options.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS;
  let lastId = options.lastEventId ?? null;
  let state: EventStreamState | null = null;
  const setState = (next: EventStreamState) => {
    if (next === state) return;
    state = next;
    options.onStateChange?.(next);
  };

  /** Frames that came while the schema was loading, in order: they are delivered once it is there. */
  const waiting: SseFrame[] = [];
  function receive(frame: SseFrame) {
    // Counted as seen at once: a reconnect does not ask again for a frame that is waiting here.
    lastId = frame.id;
    if (streamEventSchema && waiting.length === 0) return deliver(frame, streamEventSchema);
    waiting.push(frame);
    if (waiting.length > 1) return;
    loadStreamEventSchema().then(
      (schema) => {
        for (const next of waiting.splice(0)) if (!stopper.signal.aborted) deliver(next, schema);
      },
      (error: unknown) => {
        waiting.length = 0;
        options.onError?.(error);
      },
    );
  }

  function deliver(frame: SseFrame, schema: StreamEventSchema) {
    let data: unknown;
    try {
      data = JSON.parse(frame.data);
    } catch (error) {
      options.onError?.(error);
      return;
    }
    const parsed = schema.safeParse({ type: frame.event, data });
    if (!parsed.success) {
      options.onError?.(parsed.error);
      return;
    }
    const id = frame.event === 'stream.reset' || frame.id === null ? null : Number(frame.id);
    options.onEvent({ ...parsed.data, id: Number.isFinite(id) ? id : null });
  }

  /** One connection; resolves with whether to reconnect. */
  async function connect(): Promise<'retry' | 'opened' | 'stop'> {
    const token = getToken();
    if (!token) return 'stop';
    const attempt = new AbortController();
    const abortAttempt = () => attempt.abort();
    stopper.signal.addEventListener('abort', abortAttempt, { once: true });
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const armWatchdog = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(abortAttempt, heartbeatMs * DEAD_AFTER_HEARTBEATS);
    };
    try {
      const headers = new Headers({
        Accept: 'text/event-stream',
        'Accept-Language': requestLanguage(),
        Authorization: `Bearer ${token}`,
        'Cache-Control': 'no-cache',
      });
      if (lastId !== null) headers.set('Last-Event-ID', lastId);
      armWatchdog();
      let response: Response;
      try {
        response = await fetch(apiUrl(streamPaths.events.path), {
          headers,
          signal: attempt.signal,
          credentials: 'same-origin',
          cache: 'no-store',
        });
      } catch {
        return 'retry';
      }
      if (response.status === 401) {
        await response.body?.cancel().catch(() => {});
        // Only if the session is still the one this stream was opened with (not a newer sign-in).
        if (getToken() === token) endSession();
        return 'stop';
      }
      const type = response.headers.get('content-type') ?? '';
      if (!response.ok || !type.includes('text/event-stream') || !response.body) {
        await response.body?.cancel().catch(() => {});
        if (response.ok || worthRetrying(response.status)) return 'retry';
        options.onError?.(new Error(`The event stream was refused (HTTP ${response.status})`));
        return 'stop';
      }

      setState('open');
      const parser = createSseParser({
        onFrame: receive,
        onRetry: (ms) => {
          baseDelayMs = ms;
        },
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      // fetch's abort errors the body too, but a cancel here ends the read whatever the body's source.
      const cancel = () => reader.cancel().catch(() => {});
      attempt.signal.addEventListener('abort', cancel, { once: true });
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          armWatchdog();
          parser.push(value);
        }
      } catch {
        // Aborted (closed, or the watchdog found the connection silent) or broken: reconnect or stop below.
      } finally {
        attempt.signal.removeEventListener('abort', cancel);
        cancel();
      }
      return 'opened';
    } finally {
      clearTimeout(watchdog);
      stopper.signal.removeEventListener('abort', abortAttempt);
    }
  }

  async function run() {
    let failures = 0;
    setState('connecting');
    while (!stopper.signal.aborted) {
      const outcome = await connect();
      if (outcome === 'stop' || stopper.signal.aborted) break;
      // A connection that opened starts the count again; one that never did waits longer each time.
      failures = outcome === 'opened' ? 0 : failures + 1;
      setState('reconnecting');
      await sleep(backoffDelay(failures, baseDelayMs, maxDelayMs, random), stopper.signal);
    }
    outer?.removeEventListener('abort', stop);
    setState('closed');
  }

  const done = run();
  return { close: stop, done };
}
