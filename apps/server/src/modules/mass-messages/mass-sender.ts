import { randomBytes } from 'node:crypto';
import { type MassMessageStatus, fillRecipientTokens } from '@hablabot/contract';
import { sql } from 'kysely';
import type { Executor } from '../../db/transactions';
import type { CloudApiClient, OutgoingContent, SendResult } from '../../integrations/whatsapp/cloud-api';
import { RATE_LIMIT_CODES } from '../../integrations/whatsapp/cloud-api';
import type { EventBus } from '../../platform/events/events';
import type { JobLogger, JobQueue } from '../../platform/jobs/jobs';
import type { Metrics } from '../../platform/metrics';
import { silentLogger } from '../../platform/jobs/jobs';
import { fillPlaceholders, placeholdersOf } from '../templates/template-parameters';
import type { MassMessageRow, MassMessagesRepository, RecipientRow } from './mass-messages.repository';

declare module '../../platform/jobs/jobs' {
  interface JobPayloads {
    'mass.send': { companyId: number; massMessageId: number };
  }
}

export interface MassSenderOptions {
  /** How long one run of the send job works before it hands over to the next (10 s by default). */
  sliceMs?: number;
  /** How long a process keeps a send to itself without renewing (15 s by default). */
  leaseMs?: number;
  /** How often a run looks whether the send was paused or cancelled (250 ms by default). */
  controlMs?: number;
  /** The first wait after a rate-limit answer (1 s by default; doubles while they continue, at most 30 s). */
  rateLimitBackoffMs?: number;
  /** The first wait before a recipient hit by the pair rate limit is tried again (4 s by default, ×4 each time). */
  pairBackoffMs?: number;
  /** The first wait before a recipient hit by a passing error is tried again (2 s by default, doubling). */
  retryBackoffMs?: number;
  /** How often progress is published while a send runs (1 s by default). */
  progressMs?: number;
}

/** Sends still to be worked on by the sender. */
const ACTIVE: MassMessageStatus[] = ['queued', 'sending'];
/** Tries at most per recipient for a passing error, for the pair limit, and for the number's rate limit. */
const MAX_TRANSIENT_TRIES = 3;
const MAX_PAIR_TRIES = 4;
const MAX_RATE_LIMIT_TRIES = 10;
/** The window in which at most `messages_per_second` sends may start: one second and a little margin. */
const WINDOW_MS = 1015;
const iso = (ms = 0) => new Date(Date.now() + ms).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * The sender of mass sends: a job per send that works through its recipients, paced under the company's
 * messages per second, and hands over to a fresh job every few seconds so the job queue's other work is
 * never starved.
 *
 * Never twice: a recipient is taken from `queued` to `sending` in the database immediately before its
 * request goes to WhatsApp. A run takes a lease on the send first (one process at a time); when it finds
 * recipients left `sending`, their process died or lost the send while their request was out, so they
 * become `unknown` — never tried again by the sender, only by an admin's resend. Refusals WhatsApp
 * reports before sending (rate limits, a passing error) put the recipient back to `queued`, as nothing
 * went out; a request that got no answer is `unknown`.
 *
 * Pace: at most `messages_per_second` requests start in any window of a little over a second (with evenly
 * spaced slots within). The company's sends running at the same time share it (each takes an equal part,
 * looked at again with every check for pause), since WhatsApp's limit is the phone number's. A rate-limit answer (130429) stops the send for a while (1 s, doubling while they
 * continue) and lowers its pace by a fifth; the pace climbs back by a tenth every 5 s without one. The
 * pair limit (131056) waits only for that recipient (4 s, ×4 each time).
 */
export function createMassSender(deps: {
  db: Executor;
  repository: MassMessagesRepository;
  cloudApi: Pick<CloudApiClient, 'send'>;
  jobs: JobQueue;
  events: Pick<EventBus, 'publish'>;
  /** Counts each recipient WhatsApp accepted or refused, as sender `mass`. */
  metrics?: Pick<Metrics, 'sent'>;
  /**
   * A recipient WhatsApp accepted, with the text they read (the template's body filled in for them) and
   * the request that was sent: the conversation keeps it, so whoever opens the chat sees what the
   * customer is answering. A failure here is logged and never touches the send.
   */
  onSent?: (
    send: MassMessageRow,
    recipient: RecipientRow,
    sent: { wamid: string; text: string; content: OutgoingContent },
  ) => Promise<void>;
  options?: MassSenderOptions;
}) {
  const { db, repository, cloudApi, jobs, events } = deps;
  const o = deps.options ?? {};
  const sliceMs = o.sliceMs ?? 10_000;
  const leaseMs = o.leaseMs ?? 15_000;
  const controlMs = o.controlMs ?? 250;
  const rateLimitBackoffMs = o.rateLimitBackoffMs ?? 1000;
  const pairBackoffMs = o.pairBackoffMs ?? 4000;
  const retryBackoffMs = o.retryBackoffMs ?? 2000;
  const progressMs = o.progressMs ?? 1000;
  /** This process, as the holder of a send's lease. */
  const owner = `${process.pid}-${randomBytes(6).toString('hex')}`;
  /** Sends a run of this process is working on. */
  const running = new Set<number>();
  /** Sends asked to run while this process was running them: run again once that run ends. */
  const again = new Set<number>();
  let logger: JobLogger = silentLogger;

  // --- progress ---

  const pendingProgress = new Map<number, ReturnType<typeof setTimeout>>();

  /** Counts the send's recipients, keeps the counts on the send and publishes them. */
  async function publishProgress(massMessageId: number): Promise<void> {
    const send = await repository.findById(massMessageId);
    if (!send) return;
    const counts = await repository.countByStatus(massMessageId);
    await repository.saveCounts(massMessageId, counts);
    await events.publish(send.company_id, {
      type: 'mass_message.progress',
      data: { mass_message_id: send.id, status: send.status as MassMessageStatus, counts },
    });
  }

  /** Progress soon, at most once per `progressMs` per send (for status webhooks arriving in bursts). */
  function progressSoon(massMessageId: number) {
    if (pendingProgress.has(massMessageId)) return;
    const timer = setTimeout(() => {
      pendingProgress.delete(massMessageId);
      publishProgress(massMessageId).catch((err) =>
        logger.warn({ err, massMessageId }, 'mass send progress could not be published'),
      );
    }, progressMs);
    timer.unref?.();
    pendingProgress.set(massMessageId, timer);
  }

  // --- the lease ---

  async function acquire(massMessageId: number): Promise<boolean> {
    const result = await db
      .updateTable('mass_messages')
      .set({
        lease_owner: owner,
        lease_until: iso(leaseMs),
        status: 'sending',
        started_at: sql`coalesce(started_at, ${iso()})`,
        updated_at: iso(),
      })
      .where('id', '=', massMessageId)
      .where('status', 'in', ACTIVE)
      .where((eb) =>
        eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', iso()), eb('lease_owner', '=', owner)]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async function renew(massMessageId: number): Promise<boolean> {
    const result = await db
      .updateTable('mass_messages')
      .set({ lease_until: iso(leaseMs) })
      .where('id', '=', massMessageId)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async function release(massMessageId: number) {
    await db
      .updateTable('mass_messages')
      .set({ lease_owner: null, lease_until: null })
      .where('id', '=', massMessageId)
      .where('lease_owner', '=', owner)
      .execute();
  }

  // --- one recipient ---

  /**
   * The values of the body's placeholders for one recipient, in order and by number; the first blank
   * one's number, if any.
   */
  function valuesFor(
    send: MassMessageRow,
    r: RecipientRow,
  ): { values: string[]; byNumber: Record<string, string>; blank?: number } {
    const given = JSON.parse(send.body_parameters) as Record<string, string>;
    const fields = { name: r.name, last_names: r.last_names, whatsapp_cellphone: r.phone, email: r.email };
    const values: string[] = [];
    const byNumber: Record<string, string> = {};
    for (const n of placeholdersOf(send.template_body)) {
      const value = fillRecipientTokens(given[String(n)] ?? '', fields)
        .replace(/[\n\r\t]+/g, ' ')
        .replace(/ {5,}/g, '    ')
        .trim();
      if (!value) return { values, byNumber, blank: n };
      values.push(value);
      byNumber[String(n)] = value;
    }
    return { values, byNumber };
  }

  async function settle(r: RecipientRow, set: Record<string, unknown>, from: string[] = ['sending']) {
    await db
      .updateTable('mass_message_recipients')
      .set({ ...set, updated_at: iso() })
      .where('id', '=', r.id)
      .where('status', 'in', from)
      .execute();
  }

  /** What the run learns from one answer: whether WhatsApp said the number is over its rate. */
  async function sendOne(send: MassMessageRow, r: RecipientRow): Promise<'ok' | 'rate_limited'> {
    if (!/^\d{10,15}$/.test(r.phone)) {
      await settle(r, { status: 'failed', error_code: null, error_message: 'mass.no_phone' });
      return 'ok';
    }
    const { values, byNumber, blank } = valuesFor(send, r);
    if (blank !== undefined) {
      await settle(r, { status: 'failed', error_code: null, error_message: `mass.empty_parameter|${blank}` });
      return 'ok';
    }
    const components = send.header ? [JSON.parse(send.header)] : [];
    if (values.length)
      components.push({ type: 'body', parameters: values.map((text) => ({ type: 'text', text })) });
    const content: OutgoingContent = {
      type: 'template',
      template: {
        name: send.template_name,
        language: { code: send.template_language },
        ...(components.length ? { components } : {}),
      },
    };
    let result: SendResult;
    try {
      result = await cloudApi.send(send.company_id, r.phone, content);
    } catch (err) {
      // Whether the request left is not known: never tried again by itself.
      logger.error({ err, recipient: r.id }, 'mass send request threw');
      await settle(r, { status: 'unknown', error_message: 'mass.unconfirmed' });
      return 'ok';
    }
    if (result.ok) {
      deps.metrics?.sent('mass', 'sent');
      // A late answer for a recipient already marked unknown still tells the truth.
      await settle(
        r,
        { status: 'sent', wamid: result.wamid, sent_at: iso(), error_code: null, error_message: null },
        ['sending', 'unknown'],
      );
      if (deps.onSent) {
        const text = fillPlaceholders(send.template_body ?? '', byNumber);
        await deps
          .onSent(send, r, { wamid: result.wamid, text, content })
          .catch((err) =>
            logger.error({ err, recipient: r.id }, 'mass send message not kept in the conversation'),
          );
      }
      return 'ok';
    }
    if (result.unconfirmed) {
      await settle(r, { status: 'unknown', error_code: result.code || null, error_message: result.message });
      return 'ok';
    }
    if (result.code === 130429) {
      if (r.attempts >= MAX_RATE_LIMIT_TRIES)
        await settle(r, { status: 'failed', error_code: result.code, error_message: result.message });
      else await settle(r, { status: 'queued', error_code: result.code, error_message: result.message });
      return 'rate_limited';
    }
    if (result.code === 131056 && r.attempts < MAX_PAIR_TRIES) {
      await settle(r, {
        status: 'queued',
        not_before: iso(pairBackoffMs * 4 ** (r.attempts - 1)),
        error_code: result.code,
        error_message: result.message,
      });
      return 'ok';
    }
    if (result.transient && !RATE_LIMIT_CODES.includes(result.code) && r.attempts < MAX_TRANSIENT_TRIES) {
      await settle(r, {
        status: 'queued',
        not_before: iso(retryBackoffMs * 2 ** (r.attempts - 1)),
        error_code: result.code || null,
        error_message: result.message,
      });
      return 'ok';
    }
    deps.metrics?.sent('mass', 'failed');
    await settle(r, { status: 'failed', error_code: result.code || null, error_message: result.message });
    return 'ok';
  }

  // --- a run ---

  /**
   * How many of the company's sends are being sent (at least one). Between two runs of a send, or while
   * another process takes it over, it is still `sending`: counting it keeps the others from jumping to a
   * larger share for that moment.
   */
  async function runningSends(companyId: number): Promise<number> {
    const row = await db
      .selectFrom('mass_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .where('status', '=', 'sending')
      .executeTakeFirstOrThrow();
    return Math.max(1, Number(row.n));
  }

  /**
   * Marks the next `limit` queued recipients `sending` and gives them, in one statement (the run holds
   * the send's lease, so no other run claims the same rows).
   */
  async function claim(massMessageId: number, limit: number): Promise<RecipientRow[]> {
    if (limit <= 0) return [];
    const at = iso();
    const rows = await db
      .updateTable('mass_message_recipients')
      .set({ status: 'sending', attempts: sql`attempts + 1`, updated_at: at })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('mass_message_recipients')
          .select('id')
          .where('mass_message_id', '=', massMessageId)
          .where('status', '=', 'queued')
          .where((w) => w.or([w('not_before', 'is', null), w('not_before', '<=', at)]))
          .orderBy('id')
          .limit(limit),
      )
      .where('status', '=', 'queued')
      .returningAll()
      .execute();
    return rows.sort((a, b) => a.id - b.id);
  }

  /** The earliest time a waiting recipient may be tried; undefined when none waits. */
  async function nextWaiting(massMessageId: number): Promise<{ left: number; next?: number }> {
    const row = await db
      .selectFrom('mass_message_recipients')
      .select([(eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.min('not_before').as('next')])
      .where('mass_message_id', '=', massMessageId)
      .where('status', '=', 'queued')
      .executeTakeFirstOrThrow();
    const next = row.next ? Date.parse(String(row.next)) : undefined;
    return { left: Number(row.n), next };
  }

  async function finish(massMessageId: number) {
    await db
      .updateTable('mass_messages')
      .set({
        status: 'completed',
        finished_at: iso(),
        lease_owner: null,
        lease_until: null,
        updated_at: iso(),
      })
      .where('id', '=', massMessageId)
      .where('status', 'in', ACTIVE)
      .execute();
  }

  /**
   * Queues a run of the send. Runs that found the send held by another process share one waiting job per
   * send (`dedupe`); hand-overs, a person's request and start-up get a job of their own, so none waits
   * behind a later one or is folded into the job still running. Extra runs are harmless: one process at
   * a time holds the send.
   */
  async function continueLater(send: MassMessageRow, delayMs: number, dedupe = true) {
    await jobs.enqueue(
      'mass.send',
      { companyId: send.company_id, massMessageId: send.id },
      {
        delayMs: Math.max(0, Math.round(delayMs)),
        attempts: 20,
        backoff: 2000,
        ...(dedupe ? { dedupeKey: `mass:${send.id}` } : {}),
      },
    );
  }

  /** One run: up to `sliceMs` of sending, then a hand-over to the next run (or the end of the send). */
  async function run(massMessageId: number): Promise<void> {
    if (running.has(massMessageId)) {
      // This process is already on it; once that run ends, it runs again (a resume may have come in
      // while a pause was winding down).
      again.add(massMessageId);
      return;
    }
    running.add(massMessageId);
    try {
      await runHeld(massMessageId);
    } finally {
      running.delete(massMessageId);
      if (again.delete(massMessageId)) {
        const send = await repository.findById(massMessageId);
        if (send && [...ACTIVE, 'scheduled'].includes(send.status)) await continueLater(send, 0, false);
      }
    }
  }

  /** A run, with this process's mark on the send set. */
  async function runHeld(massMessageId: number): Promise<void> {
    let send = await repository.findById(massMessageId);
    if (!send) return;
    if (send.status === 'scheduled') {
      const due = send.scheduled_at ? Date.parse(send.scheduled_at) - Date.now() : 0;
      if (due > 0) return continueLater(send, due);
      await db
        .updateTable('mass_messages')
        .set({ status: 'queued', updated_at: iso() })
        .where('id', '=', send.id)
        .where('status', '=', 'scheduled')
        .execute();
      send = (await repository.findById(massMessageId)) ?? send;
    }
    if (!ACTIVE.includes(send.status as MassMessageStatus)) return;
    const acquired = await acquire(massMessageId);
    if (!acquired) {
      // Another process holds it; should that process die, its lease runs out and this run takes over.
      const until = send.lease_until ? Date.parse(send.lease_until) - Date.now() : leaseMs;
      return await continueLater(send, Math.max(until, 0) + 100);
    }
    // Left `sending` by a process that stopped while its request was out: whether it went is unknown.
    const orphaned = await db
      .updateTable('mass_message_recipients')
      .set({ status: 'unknown', error_message: 'mass.unconfirmed', updated_at: iso() })
      .where('mass_message_id', '=', massMessageId)
      .where('status', '=', 'sending')
      .executeTakeFirst();
    if (Number(orphaned.numUpdatedRows) > 0)
      logger.warn(
        { massMessageId, recipients: Number(orphaned.numUpdatedRows) },
        'mass send recipients left in flight are now unknown',
      );
    await publishProgress(massMessageId);
    const outcome = await work(send);
    if (outcome === 'done') {
      await finish(massMessageId);
    } else {
      await release(massMessageId);
      if (outcome.continueInMs !== undefined) await continueLater(send, outcome.continueInMs, false);
    }
    await publishProgress(massMessageId);
  }

  async function work(send: MassMessageRow): Promise<'done' | { continueInMs?: number }> {
    const id = send.id;
    const configured = Math.max(1, send.messages_per_second);
    // The number's pace is shared by the company's sends running at once: each takes its part.
    let ceiling = Math.max(1, Math.floor(configured / (await runningSends(send.company_id))));
    let rate = ceiling;
    const startedAt = Date.now();
    const inFlight = new Set<Promise<void>>();
    // At most half a second of requests out at once: what a crash can leave unknown.
    const maxInFlight = Math.max(20, Math.ceil(configured / 2));
    /** Start times of the requests of the last window, oldest first. */
    const recent: number[] = [];
    let slotBase = Date.now();
    let slotCount = 0;
    let pausedUntil = 0;
    let rateLimitStreak = 0;
    let lastRateLimit = 0;
    let lastRaise = Date.now();
    let lastControl = Date.now();
    let lastRenew = Date.now();
    let lastProgress = Date.now();
    let stop: 'paused' | 'cancelled' | 'lost' | undefined;
    let first = true;

    const setRate = (next: number) => {
      rate = Math.max(1, Math.min(ceiling, Math.round(next)));
      slotBase = Date.now();
      slotCount = 0;
    };

    for (;;) {
      const now = Date.now();
      if (now - lastControl >= controlMs) {
        lastControl = now;
        const current = await repository.findById(id);
        if (!current || current.status === 'paused') stop = 'paused';
        else if (current.status === 'cancelled') stop = 'cancelled';
        const share = Math.max(1, Math.floor(configured / (await runningSends(send.company_id))));
        if (share !== ceiling) {
          ceiling = share;
          // Fewer sends share the number now: back to the full share, unless WhatsApp said slow down
          // lately (the climb after a rate limit takes over); more: down to the new share at once.
          setRate(lastRateLimit && now - lastRateLimit <= 5000 ? Math.min(rate, ceiling) : ceiling);
        }
      }
      if (!stop && now - lastRenew >= leaseMs / 5) {
        lastRenew = now;
        if (!(await renew(id))) stop = 'lost';
      }
      if (now - lastProgress >= progressMs) {
        lastProgress = now;
        publishProgress(id).catch(() => undefined);
      }
      if (stop) break;
      if (now - startedAt >= sliceMs) break;

      if (lastRateLimit && now - lastRateLimit > 5000 && now - lastRaise > 5000 && rate < ceiling) {
        lastRaise = now;
        setRate(rate * 1.1);
      }
      if (now < pausedUntil) {
        await sleep(Math.min(pausedUntil - now, controlMs));
        continue;
      }
      while (recent.length && recent[0] <= now - WINDOW_MS) recent.shift();
      // A run that stalled (a busy process) catches up a few slots at most, never a burst.
      const behind = ((now - slotBase) * rate) / 1000 - slotCount;
      const catchUp = Math.max(2, Math.ceil(rate / 8));
      if (behind > catchUp) slotBase += ((behind - catchUp) * 1000) / rate;
      const bySlots = Math.floor(((now - slotBase) * rate) / 1000) + 1 - slotCount;
      const byWindow = rate - recent.length;
      const room = Math.min(bySlots, byWindow, maxInFlight - inFlight.size);
      if (room <= 0) {
        const nextSlot = slotBase + ((slotCount + 0) * 1000) / rate;
        const windowFree = recent.length >= rate ? recent[0] + WINDOW_MS : now;
        await sleep(Math.max(5, Math.min(Math.max(nextSlot, windowFree) - now, controlMs)));
        continue;
      }
      const batch = await claim(id, first ? 1 : room);
      if (!batch.length) {
        if (inFlight.size) {
          await Promise.race(inFlight);
          continue;
        }
        const { left, next } = await nextWaiting(id);
        if (left === 0) return 'done';
        const wait = (next ?? Date.now()) - Date.now();
        if (wait > sliceMs) return { continueInMs: wait };
        await sleep(Math.min(Math.max(wait, 10), controlMs));
        continue;
      }
      if (first) {
        // The first request of a run is sent alone and answered before the pace starts from it, so the
        // connection's set-up never squeezes the next ones together.
        first = false;
        const [r] = batch;
        recent.push(Date.now());
        await sendOne(send, r).catch((err) =>
          logger.error({ err, recipient: r.id }, 'mass send recipient could not be settled'),
        );
        slotBase = Date.now() + 1000 / rate;
        slotCount = 0;
        continue;
      }
      for (const r of batch) {
        slotCount++;
        recent.push(Date.now());
        const p = sendOne(send, r)
          .then((answer) => {
            if (answer === 'rate_limited') {
              const at = Date.now();
              // One stop per burst of refusals: those already out answer the same.
              if (at > pausedUntil) {
                rateLimitStreak = at - lastRateLimit < 5000 ? rateLimitStreak + 1 : 1;
                pausedUntil = at + Math.min(30_000, rateLimitBackoffMs * 2 ** (rateLimitStreak - 1));
                setRate(rate * 0.8);
                slotBase = pausedUntil;
                recent.length = 0;
              }
              lastRateLimit = at;
              lastRaise = at;
            }
          })
          .catch((err) => logger.error({ err, recipient: r.id }, 'mass send recipient could not be settled'))
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
    }
    await Promise.allSettled([...inFlight]);
    if (stop === 'paused' || stop === 'cancelled' || stop === 'lost') return {};
    return { continueInMs: 0 };
  }

  return {
    owner,
    register() {
      jobs.register('mass.send', async ({ massMessageId }) => run(massMessageId));
    },
    setLogger(next: JobLogger) {
      logger = next;
    },
    /** Queues the send's job (now, or at its scheduled time). */
    async schedule(send: MassMessageRow) {
      const delay =
        send.status === 'scheduled' && send.scheduled_at ? Date.parse(send.scheduled_at) - Date.now() : 0;
      await continueLater(send, Math.max(0, delay), false);
    },
    /**
     * Every `everyMs`, queues a run for each send still to be worked on that nobody holds and that has
     * not moved for `everyMs` — a safety net should a queued run ever be lost. Returns the stop function.
     */
    startWatchdog(everyMs = 30_000): () => void {
      const timer = setInterval(() => {
        (async () => {
          const stale = new Date(Date.now() - everyMs).toISOString();
          const sends = await db
            .selectFrom('mass_messages')
            .selectAll()
            .where('status', 'in', ACTIVE)
            .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', iso())]))
            .where('updated_at', '<', stale)
            .execute();
          for (const send of sends) {
            if (running.has(send.id)) continue;
            await db
              .updateTable('mass_messages')
              .set({ updated_at: iso() })
              .where('id', '=', send.id)
              .execute();
            await continueLater(send, 0);
          }
        })().catch((err) => logger.error({ err }, 'mass send watchdog failed'));
      }, everyMs);
      timer.unref?.();
      return () => clearInterval(timer);
    },
    /**
     * At start-up: queues every send still to be worked on — those running when the server stopped, and
     * scheduled ones (a time that passed while the server was down fires now).
     */
    async resumeAll(): Promise<number> {
      const sends = await db
        .selectFrom('mass_messages')
        .selectAll()
        .where('status', 'in', ['queued', 'sending', 'scheduled'])
        .execute();
      for (const send of sends) await this.schedule(send);
      return sends.length;
    },
    publishProgress,
    progressSoon,
    run,
  };
}

export type MassSender = ReturnType<typeof createMassSender>;
