import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { defineJob } from '../../platform/jobs/definitions';
import type { MassMessageStatus } from '@hablabot/contract';
import type { Executor } from '../../db/transactions';
import type { CloudApiClient } from '../../integrations/whatsapp/cloud-api';
import { realClock } from '../../platform/clock';
import type { JobLogger, JobQueue } from '../../platform/jobs/jobs';
import { silentLogger } from '../../platform/jobs/jobs';
import type { Metrics } from '../../platform/metrics';
import type { Outbox } from '../../platform/outbox/outbox';
import type { MassMessageRow, MassMessagesRepository } from './mass-messages.repository';
import { createMassProgress } from './mass-progress';
import { ACTIVE, createMassSenderRepository } from './mass-sender.repository';
import { DAY_MS, createDailyLimit } from './daily-limit';
import { type Pacer, createPacer } from './pacer';
import { type OnSent, createRecipientRequest } from './recipient-request';
import { createSentBatch } from './sent-batch';
import type { MassSenderOptions } from './mass-sender-options';

/** The shortest wait between two turns of a run (see `paced`). */
const TURN_MS = 20;
/** How soon after a slice ends its next run must start, in this process, to go on at the same pace. */
const KEEP_PACE_MS = 2000;

declare module '../../platform/jobs/jobs' {
  interface JobPayloads {
    'mass.send': { companyId: number; massMessageId: number };
  }
}

export type { MassSenderOptions } from './mass-sender-options';

/**
 * The sender of mass messages: a job per send that works through its recipients, paced under the company's
 * messages per second (see pacer.ts), and hands over to a fresh job every few seconds so the job queue's
 * other work is never starved. Its SQL is in mass-sender.repository.ts, one recipient's request and what
 * its answer means in recipient-request.ts, the progress it publishes in mass-progress.ts.
 *
 * Never twice: a recipient is taken from `queued` to `sending` in the database immediately before its
 * request goes to WhatsApp. A run takes a lease on the send first (one process at a time); when it finds
 * recipients left `sending`, their process died or lost the send while their request was out, so they
 * become `unknown` — never tried again by the sender, only by an admin's resend.
 *
 * The number's pace is shared: the company's sends running at the same time each take an equal part,
 * looked at again with every check for pause, since WhatsApp's limit is the phone number's.
 */
export function createMassSender(deps: {
  db: Executor;
  repository: MassMessagesRepository;
  /** WhatsApp: the company's account is read once per run (`accountOf`), each recipient sent with it. */
  cloudApi: Pick<CloudApiClient, 'accountOf' | 'sendAs'>;
  jobs: JobQueue;
  /** Where `mass_message.progress` is emitted (the real-time module shows it). */
  outbox: Pick<Outbox, 'transaction'>;
  /** Counts each recipient WhatsApp accepted or refused, as sender `mass`. */
  metrics?: Pick<Metrics, 'sent'>;
  /**
   * A recipient WhatsApp accepted: the conversation keeps the text they read, so whoever opens the chat
   * sees what the customer is answering. A failure here is logged and never touches the send.
   */
  onSent?: OnSent;
  options?: MassSenderOptions;
}) {
  const { repository, jobs, outbox } = deps;
  const o = deps.options ?? {};
  const clock = o.clock ?? realClock;
  const sliceMs = o.sliceMs ?? 10_000;
  const leaseMs = o.leaseMs ?? 15_000;
  const controlMs = o.controlMs ?? 250;
  const progressMs = o.progressMs ?? 1000;
  const store = createMassSenderRepository(deps.db, clock);
  const daily = createDailyLimit(deps.db);
  /** This process, as the holder of a send's lease. */
  const owner = `${process.pid}-${randomBytes(6).toString('hex')}`;
  /** Sends a run of this process is working on. */
  const running = new Set<number>();
  /** Sends asked to run while this process was running them: run again once that run ends. */
  const again = new Set<number>();
  /** The pace (requests a second) of each send a run of this process is working on now. */
  const paces = new Map<number, number>();
  /** The pacer of each send whose slice ended in this process, and when: its next run goes on with it. */
  const handedOver = new Map<number, { pacer: Pacer; at: number }>();
  let logger: JobLogger = silentLogger;
  const sendOne = createRecipientRequest({
    repository: store,
    // The gather is wall-clock time: on a clock of the caller's (a test's fake one, whose time runs apart
    // from the timers) only the answers of the same turn go together, unless told otherwise.
    sent: createSentBatch(store, { gatherMs: o.sentGatherMs ?? (o.clock ? 0 : 10) }),
    cloudApi: deps.cloudApi,
    metrics: deps.metrics,
    onSent: deps.onSent,
    pairBackoffMs: o.pairBackoffMs ?? 4000,
    retryBackoffMs: o.retryBackoffMs ?? 2000,
    logger: () => logger,
  });

  const { publishProgress, progressSoon } = createMassProgress({
    repository,
    outbox,
    clock,
    progressMs,
    logger: () => logger,
  });

  // --- runs ---

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
      const due = send.scheduled_at ? Date.parse(send.scheduled_at) - clock.now() : 0;
      if (due > 0) return continueLater(send, due);
      await store.startScheduled(send.id);
      send = (await repository.findById(massMessageId)) ?? send;
    }
    if (!ACTIVE.includes(send.status as MassMessageStatus)) return;
    if (!(await store.acquire(massMessageId, owner, leaseMs))) {
      // Another process holds it; should that process die, its lease runs out and this run takes over.
      const until = send.lease_until ? Date.parse(send.lease_until) - clock.now() : leaseMs;
      return await continueLater(send, Math.max(until, 0) + 100);
    }
    const orphaned = await store.orphansToUnknown(massMessageId);
    if (orphaned > 0)
      logger.warn(
        { massMessageId, recipients: orphaned },
        'mass send recipients left in flight are now unknown',
      );
    await publishProgress(massMessageId);
    const outcome = await work(send);
    if (outcome === 'done') {
      await store.finish(massMessageId);
    } else {
      await store.release(massMessageId, owner);
      if (outcome.continueInMs !== undefined) await continueLater(send, outcome.continueInMs, false);
    }
    await publishProgress(massMessageId);
  }

  /**
   * The number's pace is shared by the company's sends running at once: each takes its part. The run's
   * pace is kept in `paces` while it works (`paceOf`).
   */
  async function work(send: MassMessageRow): Promise<'done' | { continueInMs?: number }> {
    const configured = Math.max(1, send.messages_per_second);
    const share = async () => Math.floor(configured / (await store.runningSends(send.company_id)));
    // A run that follows its send's previous slice in this process goes on with that slice's pacer: its
    // slots, its last second of requests (never more than the pace in any second) and its catch-up over
    // the hand-over's pause. Its connection to WhatsApp is open, so no request goes first alone.
    const now = clock.now();
    for (const [id, kept] of handedOver) if (now - kept.at > KEEP_PACE_MS) handedOver.delete(id);
    const kept = handedOver.get(send.id);
    handedOver.delete(send.id);
    const pacer =
      kept?.pacer ??
      createPacer({ ceiling: await share(), rateLimitBackoffMs: o.rateLimitBackoffMs ?? 1000, clock });
    if (kept) pacer.setCeiling(await share());
    paces.set(send.id, pacer.rate);
    try {
      const outcome = await paced(send, pacer, share, { warm: kept !== undefined });
      if (outcome !== 'done' && outcome.continueInMs === 0)
        handedOver.set(send.id, { pacer, at: clock.now() });
      return outcome;
    } finally {
      paces.delete(send.id);
    }
  }

  /** Sends the send's recipients at the pacer's pace until the slice is over, it stops, or none is left. */
  async function paced(
    send: MassMessageRow,
    pacer: Pacer,
    share: () => Promise<number>,
    { warm }: { warm: boolean },
  ): Promise<'done' | { continueInMs?: number }> {
    const id = send.id;
    const configured = Math.max(1, send.messages_per_second);
    // Read once per run, not per recipient: a token changed in the settings applies from the next run.
    const account = await deps.cloudApi.accountOf(send.company_id);
    const startedAt = clock.now();
    // The number's daily limit (Meta's tier): how many more customers this run may reach.
    const limit = await daily.limitOf(send.company_id);
    const roomToday = async () =>
      limit === null
        ? Number.POSITIVE_INFINITY
        : limit - (await daily.contacted(send.company_id, clock.now()));
    let room = await roomToday();
    if (room <= 0) return waitForLimit(send);
    if (send.waiting_limit_until) await store.setWaitingLimit(id, null);
    const inFlight = new Set<Promise<void>>();
    // At most half a second of requests out at once: what a crash can leave unknown.
    const maxInFlight = Math.max(20, Math.ceil(configured / 2));
    let lastControl = startedAt;
    let lastRenew = startedAt;
    let lastProgress = startedAt;
    let stop: 'paused' | 'cancelled' | 'lost' | undefined;
    /** The run's first request goes alone, unless the run goes on from the send's previous slice. */
    let first = !warm;
    const settled = (r: { id: number }) => (err: unknown) =>
      logger.error({ err, recipient: r.id }, 'mass send recipient could not be settled');

    for (;;) {
      const now = clock.now();
      if (now - lastControl >= controlMs) {
        lastControl = now;
        const current = await repository.findById(id);
        if (!current || current.status === 'paused') stop = 'paused';
        else if (current.status === 'cancelled') stop = 'cancelled';
        pacer.setCeiling(await share());
        paces.set(id, pacer.rate);
      }
      if (!stop && now - lastRenew >= leaseMs / 5) {
        lastRenew = now;
        if (!(await store.renew(id, owner, leaseMs))) stop = 'lost';
      }
      if (now - lastProgress >= progressMs) {
        lastProgress = now;
        publishProgress(id).catch(() => undefined);
      }
      if (stop || now - startedAt >= sliceMs) break;

      const pace = pacer.next(maxInFlight - inFlight.size);
      if ('waitMs' in pace) {
        // A turn of at least TURN_MS: at 1,000/s a claim takes a score of recipients in one statement
        // rather than a few (the pacer lets a late turn catch up its slots).
        await clock.sleep(Math.min(Math.max(pace.waitMs, TURN_MS), controlMs));
        continue;
      }
      if (room <= 0) {
        // The tier is reached as far as this run knows: once the requests out are answered, count again.
        await Promise.allSettled([...inFlight]);
        room = await roomToday();
        if (room <= 0) {
          if ((await store.nextWaiting(id)).left === 0) return 'done';
          return waitForLimit(send);
        }
      }
      const batch = await store.claim(id, Math.min(first ? 1 : pace.room, room));
      room -= batch.length;
      if (!batch.length) {
        if (inFlight.size) {
          await Promise.race(inFlight);
          continue;
        }
        const { left, next } = await store.nextWaiting(id);
        if (left === 0) return 'done';
        const wait = (next ?? clock.now()) - clock.now();
        if (wait > sliceMs) return { continueInMs: wait };
        await clock.sleep(Math.min(Math.max(wait, 10), controlMs));
        continue;
      }
      if (first) {
        // The first request of a run is sent alone and answered before the pace starts from it.
        first = false;
        const [r] = batch;
        pacer.startedAlone();
        await sendOne(send, r, account).catch(settled(r));
        pacer.answeredAlone();
        continue;
      }
      for (const r of batch) {
        pacer.started();
        const p = sendOne(send, r, account)
          .then((answer) => {
            if (answer === 'rate_limited') pacer.rateLimited();
          })
          .catch(settled(r))
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
    }
    await Promise.allSettled([...inFlight]);
    if (stop) return {};
    return { continueInMs: 0 };
  }

  /**
   * The number reached its daily limit: the send's recipients left wait ('En espera del límite diario')
   * until the 24-hour window frees room, when its next run is queued.
   */
  async function waitForLimit(send: MassMessageRow): Promise<{ continueInMs: number }> {
    const now = clock.now();
    const frees = (await daily.freesAt(send.company_id, now)) ?? now + 60_000;
    await store.setWaitingLimit(send.id, frees);
    return { continueInMs: Math.max(1000, frees - now + 1000) };
  }

  return {
    owner,
    /** The send's job: a run through its recipients, handing over to a fresh job every few seconds. */
    job: defineJob({
      name: 'mass.send',
      schema: z.object({ companyId: z.number().int(), massMessageId: z.number().int() }),
      handler: async ({ massMessageId }) => run(massMessageId),
    }),
    setLogger(next: JobLogger) {
      logger = next;
    },
    /** Queues the send's job (now, or at its scheduled time). */
    async schedule(send: MassMessageRow) {
      const delay =
        send.status === 'scheduled' && send.scheduled_at ? Date.parse(send.scheduled_at) - clock.now() : 0;
      await continueLater(send, Math.max(0, delay), false);
    },
    /**
     * Every `everyMs`, queues a run for each send still to be worked on that nobody holds and that has
     * not moved for `everyMs` — a safety net should a queued run ever be lost. Returns the stop function.
     */
    startWatchdog(everyMs = 30_000): () => void {
      return clock.every(everyMs, () => {
        (async () => {
          for (const send of await store.takeStale(everyMs, (id) => running.has(id)))
            await continueLater(send, 0);
        })().catch((err) => logger.error({ err }, 'mass send watchdog failed'));
      });
    },
    /**
     * At start-up: queues every send still to be worked on — those running when the server stopped, and
     * scheduled ones (a time that passed while the server was down fires now).
     */
    async resumeAll(): Promise<number> {
      const sends = await store.resumable();
      for (const send of sends) await this.schedule(send);
      return sends.length;
    },
    /**
     * Meta reported a recipient failed for its marketing frequency cap (131049) after accepting it: when
     * the send asked for it (`retry_capped`), the recipient is tried once more 24 hours later and the
     * send's run is queued for then. Whether it was.
     */
    async retryCapped(massMessageId: number, wamid: string): Promise<boolean> {
      const send = await repository.findById(massMessageId);
      if (!send?.retry_capped || send.status === 'cancelled') return false;
      if (!(await store.requeueCapped(massMessageId, wamid, DAY_MS))) return false;
      if (send.status !== 'paused') await continueLater(send, DAY_MS + 1000);
      return true;
    },
    /** Whether a run of this process is working on the send now. */
    isRunning: (massMessageId: number) => running.has(massMessageId),
    /**
     * The pace (requests a second) the run of this process working on the send keeps now, as of its last
     * look at the send (its share of the number's pace, lower after a rate limit); undefined when none runs.
     */
    paceOf: (massMessageId: number) => paces.get(massMessageId),
    publishProgress,
    progressSoon,
    run,
  };
}

export type MassSender = ReturnType<typeof createMassSender>;
