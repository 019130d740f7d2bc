import { timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { JobCounts } from './jobs/jobs';

/** Seconds; from a cached list page (a few ms) to a slow export or a model call (seconds). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The process's figures in Prometheus' text format, read at GET /api/v1/metrics (see metricsRoute):
 * request latency by route, webhook messages by outcome, the webhook inbox's lag, messages sent by who sent them (a rate of it is
 * the sends per second), background jobs by state, open event streams, and Node's own process figures.
 * Each app instance and worker has its own; Prometheus scrapes each and adds them up.
 *
 * Counting is always on (a counter costs next to nothing); the figures are only readable when
 * METRICS_TOKEN is set.
 */
export function createMetrics(
  deps: { jobCounts?: () => Promise<JobCounts>; webhookLagSeconds?: () => Promise<number> } = {},
) {
  const registry = new Registry();
  let processFigures = false;

  const requestSeconds = new Histogram({
    name: 'hablabot_http_request_duration_seconds',
    help: 'Time to answer a request, by route pattern, method and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const webhookMessages = new Counter({
    name: 'hablabot_webhook_messages_total',
    help: 'WhatsApp webhook items: stored customer messages, duplicates, statuses applied, ignored.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const messagesSent = new Counter({
    name: 'hablabot_messages_sent_total',
    help: 'Messages WhatsApp accepted from us, by sender (admin, bot, mass) and outcome.',
    labelNames: ['sender', 'outcome'] as const,
    registers: [registry],
  });
  const domainEvents = new Counter({
    name: 'hablabot_domain_events_total',
    help: 'Domain events handled by their subscribers on this instance, by type (platform/events/domain-events.ts).',
    labelNames: ['type'] as const,
    registers: [registry],
  });
  const eventStreams = new Gauge({
    name: 'hablabot_event_stream_clients',
    help: 'Event streams open on this instance.',
    registers: [registry],
  });
  new Gauge({
    name: 'hablabot_jobs',
    help: 'Background jobs by name and state (waiting, running, failed), as the queue holds them.',
    labelNames: ['name', 'state'] as const,
    registers: [registry],
    async collect() {
      if (!deps.jobCounts) return;
      this.reset();
      for (const [name, counts] of Object.entries(await deps.jobCounts()))
        for (const [state, value] of Object.entries(counts)) this.set({ name, state }, value);
    },
  });

  new Gauge({
    name: 'hablabot_webhook_lag_seconds',
    help: 'Seconds since the oldest WhatsApp delivery not processed yet arrived (0 when none waits).',
    registers: [registry],
    async collect() {
      if (deps.webhookLagSeconds) this.set(await deps.webhookLagSeconds());
    },
  });

  return {
    registry,
    /** A request answered: `route` is the route's pattern (`/api/v1/admin/client/:id`), never its URL. */
    observeRequest(method: string, route: string, statusCode: number, seconds: number) {
      requestSeconds.observe({ method, route, status_code: String(statusCode) }, seconds);
    },
    webhook(outcome: { stored: number; duplicates: number; statuses: number; ignored: number }) {
      if (outcome.stored) webhookMessages.inc({ outcome: 'stored' }, outcome.stored);
      if (outcome.duplicates) webhookMessages.inc({ outcome: 'duplicate' }, outcome.duplicates);
      if (outcome.statuses) webhookMessages.inc({ outcome: 'status' }, outcome.statuses);
      if (outcome.ignored) webhookMessages.inc({ outcome: 'ignored' }, outcome.ignored);
    },
    sent(sender: string, outcome: 'sent' | 'failed') {
      messagesSent.inc({ sender, outcome });
    },
    /** A domain event was handled (the metrics subscriber). */
    domainEvent(type: string) {
      domainEvents.inc({ type });
    },
    streamOpened() {
      eventStreams.inc();
    },
    streamClosed() {
      eventStreams.dec();
    },
    /** The text Prometheus reads; the process figures (memory, CPU, event loop) join on first read. */
    async render(): Promise<{ contentType: string; body: string }> {
      if (!processFigures) {
        processFigures = true;
        collectDefaultMetrics({ register: registry, prefix: 'hablabot_' });
      }
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Whether the Authorization header carries the metrics token (compared in constant time). */
export function metricsTokenMatches(header: string | undefined, token: string): boolean {
  const sent = /^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '';
  const a = Buffer.from(sent);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
