import type { Clock } from '../../platform/clock';

/** The mass sender's timings (mass-sender.ts); tests shorten them, production keeps the defaults. */
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
  /** The sender's time: its waits, its pace, and every time it writes (the wall clock by default). */
  clock?: Clock;
  /**
   * How long the first accepted recipient waits for others before they are written `sent` together (10 ms
   * by default, 0 when `clock` is given; 0: the next turn of the event loop). See sent-batch.ts.
   */
  sentGatherMs?: number;
}
