import type { MassSenderRepository } from './mass-sender.repository';

/** The most recipients one statement settles (two parameters each, well under either engine's limit). */
export const SENT_BATCH_MAX = 500;

interface Waiting {
  recipientId: number;
  wamid: string;
  done: () => void;
  failed: (err: unknown) => void;
}

/**
 * The recipients WhatsApp accepted, written `sent` together: the answers that come in while a batch is
 * written, or within `gatherMs` of the first, go in one UPDATE (mass-sender.repository.ts `settleSent`)
 * instead of one statement — and one commit — each. At 1,000 messages a second that is a statement every
 * few milliseconds for a dozen recipients rather than a thousand a second.
 *
 * The promise of each recipient settles when its batch is written, so a run that waits for its requests
 * has every accepted recipient `sent` when it ends. A process that dies within the gather leaves those
 * recipients `sending`, as it would with their request out: the next run marks them `unknown` (never
 * sent twice).
 */
export function createSentBatch(
  repository: Pick<MassSenderRepository, 'settleSent'>,
  options: { gatherMs?: number } = {},
) {
  const gatherMs = options.gatherMs ?? 10;
  const waiting: Waiting[] = [];
  let busy = false;

  async function drain() {
    while (waiting.length) {
      const batch = waiting.splice(0, SENT_BATCH_MAX);
      try {
        await repository.settleSent(batch);
        for (const w of batch) w.done();
      } catch (err) {
        for (const w of batch) w.failed(err);
      }
    }
    busy = false;
  }

  /** Marks the recipient `sent` with its wamid, in the next batch; resolves once that batch is written. */
  return function sent(recipientId: number, wamid: string): Promise<void> {
    const promise = new Promise<void>((done, failed) => waiting.push({ recipientId, wamid, done, failed }));
    if (!busy) {
      busy = true;
      const start = () => void drain();
      if (gatherMs > 0) setTimeout(start, gatherMs);
      else setImmediate(start);
    }
    return promise;
  };
}

export type SentBatch = ReturnType<typeof createSentBatch>;
