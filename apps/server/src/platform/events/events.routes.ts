import { EVENTS_HEARTBEAT_MS, type Language, ZErrorResponse } from '@hablabot/contract';
import type { FastifyInstance } from 'fastify';
import type { AuthCache } from '../auth-cache';
import { companyIdOf, type Guards, isAgentOnly } from '../auth';
import { tooManyRequests } from '../errors';
import type { Metrics } from '../metrics';
import { type EventBus, type PublishedEvent, reaches } from './events';
import { createStreamAccess, type StreamAccessOptions } from './stream-access';

/** A Last-Event-ID we accept: the decimal id of an event we sent. Anything else starts afresh. */
const EVENT_ID = /^(0|[1-9][0-9]{0,15})$/;

/**
 * GET /admin/events: the caller's company's live events as server-sent events. The bearer token comes
 * in the Authorization header (the web app reads the stream with fetch), so no token sits in a URL.
 * A comment line every `heartbeatMs` keeps proxies from closing the idle connection; `Last-Event-ID`
 * resumes after the last event seen. Streams end when the client goes away, when the server stops, and
 * when the token no longer grants the company's events (signed out, demoted, moved, deleted: see
 * stream-access.ts, which also caps the streams one user may hold open; one more is a 429).
 *
 * Admins and agents of the company may open it. Each event carries its audience (events.ts): an admin's
 * stream gets every event, an agent's only those about conversations they may see (the inbox's privacy
 * rule, modules/conversations/conversation-access.ts), judged by what the token grants at the last check.
 * While a member's stream is open their presence is kept (`presence`: the team's 'online').
 */
export function eventsRoutes(deps: {
  events: EventBus;
  guards: Guards;
  authCache: Pick<AuthCache, 'onForget'>;
  heartbeatMs?: number;
  metrics?: Pick<Metrics, 'streamOpened' | 'streamClosed'>;
  streamAccess?: Pick<StreamAccessOptions, 'maxPerUser' | 'recheckMs'>;
  /** Told when a member's stream opens; what it answers is called when the stream closes. */
  presence?: { enter(userId: number): () => void; settled?(): Promise<void> };
  /** Puts an event's data in the stream's language (Accept-Language), in place; as published when absent. */
  localize?: <T>(data: T, lang: Language) => T;
}) {
  const { events, guards } = deps;
  const heartbeatMs = deps.heartbeatMs ?? EVENTS_HEARTBEAT_MS;
  return async (app: FastifyInstance) => {
    const open = new Set<() => void>();
    const access = createStreamAccess({ authCache: deps.authCache, guards, ...deps.streamAccess });
    // Open streams would hold the server's close until the forced exit: end them first.
    app.addHook('preClose', async () => {
      for (const end of [...open]) end();
      access.close();
      await deps.presence?.settled?.();
    });
    app.addHook('onRequest', guards.requireCompanyMember);

    app.get(
      '/admin/events',
      {
        schema: {
          tags: ['events'],
          description:
            "Server-sent events (text/event-stream) of the caller's company: message.created, message.updated, message.status, client.unread, client.bot_mode, bot.failed, conversation.changed, mass_message.progress (admins only), and stream.reset when a resume cannot be complete. An agent gets only the events of conversations they may see. Send Last-Event-ID to resume.",
          response: { 401: ZErrorResponse, 403: ZErrorResponse },
        },
      },
      async (request, reply) => {
        const companyId = companyIdOf(request);
        let end = () => {};
        const grant = access.open(request.auth!, companyId, () => end());
        if (!grant) throw tooManyRequests('events.too_many_streams', 30);
        const header = request.headers['last-event-id'];
        const lastId =
          typeof header === 'string' && EVENT_ID.test(header.trim()) ? Number(header.trim()) : undefined;

        // Subscribe before reading what was missed, holding live events until the missed ones are out.
        const held: PublishedEvent[] = [];
        let live = false;
        let sentId = lastId ?? 0;
        let write: (event: PublishedEvent) => void = () => {};
        let unsubscribe: () => void;
        let missed: Awaited<ReturnType<EventBus['since']>> | undefined;
        try {
          unsubscribe = await events.subscribe(companyId, (event) => {
            if (live) grant.deliver(() => write(event));
            else held.push(event);
          });
          try {
            missed = lastId === undefined ? undefined : await events.since(companyId, lastId);
          } catch (err) {
            unsubscribe();
            throw err;
          }
        } catch (err) {
          grant.release();
          throw err;
        }

        reply.hijack();
        const res = reply.raw;
        res.writeHead(200, {
          ...(reply.getHeaders() as Record<string, string>),
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          connection: 'keep-alive',
          // nginx would otherwise buffer the stream.
          'x-accel-buffering': 'no',
        });
        res.socket?.setNoDelay(true);

        write = (event) => {
          if (event.id <= sentId) return;
          sentId = event.id;
          // The audience is judged by the token as last checked (a role can change while it is open).
          const { auth } = grant;
          if (!reaches(event.audience, { userId: auth.user.id, seesAll: !isAgentOnly(auth) })) return;
          const { id, type, ...rest } = event;
          let data = JSON.stringify((rest as { data: unknown }).data);
          // Published events are shared by every stream: an explained error is put in this one's language.
          if (deps.localize && request.lang !== 'es' && data.includes('"explanation"'))
            data = JSON.stringify(deps.localize(JSON.parse(data), request.lang));
          res.write(`id: ${id}\nevent: ${type}\ndata: ${data}\n\n`);
        };
        // A reconnect waits 3 s; the first line also sends the headers through any buffering proxy.
        res.write('retry: 3000\n: connected\n\n');
        if (missed && !missed.complete) {
          // Some events are gone: the screen reloads its data, then follows the live events.
          res.write('event: stream.reset\ndata: {}\n\n');
          sentId = 0;
        } else {
          for (const event of missed?.events ?? []) grant.deliver(() => write(event));
        }
        live = true;
        for (const event of held.splice(0)) grant.deliver(() => write(event));

        const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
        const leave = deps.presence?.enter(request.auth!.user.id);
        let ended = false;
        end = () => {
          if (ended) return;
          ended = true;
          clearInterval(heartbeat);
          leave?.();
          unsubscribe();
          grant.release();
          open.delete(end);
          deps.metrics?.streamClosed();
          if (!res.writableEnded) res.end();
        };
        open.add(end);
        deps.metrics?.streamOpened();
        // Access was taken away while the stream was being set up.
        if (grant.revoked) end();
        // The client went away (or the socket broke).
        res.on('close', end);
        res.on('error', end);
      },
    );
  };
}
