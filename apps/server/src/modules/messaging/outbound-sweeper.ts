import { DEFAULT_LANGUAGE, type Message } from '@hablabot/contract';
import { translate } from '../../platform/locale';
import type { TransactionScope } from '../../repositories';
import type { MessagesRepository } from './messages.repository';
import { STALE_PENDING_MS } from './send-outcome';

/** The outbound service's sweeper of sends a dead process left pending (see "Sending" in docs/modules/messaging.md). */
export function createStaleSweeper(deps: {
  messagesRepository: Pick<MessagesRepository, 'findStalePending'>;
  /** A status change of a conversation's message and its event, in one transaction. */
  changeStatus(
    companyId: number,
    change: (tx: TransactionScope) => Promise<Message | undefined>,
  ): Promise<Message | undefined>;
}) {
  /**
   * Settles the sends a dead process left pending: a message still pending `olderThanMs` after its last
   * change (10 minutes, far past the longest retry wait) may or may not have reached WhatsApp, so it
   * becomes status 4 saying so. It is never sent again by itself: a repeat could message the customer
   * twice; the admin checks and resends. The number settled.
   */
  async function sweepStale(options: { olderThanMs?: number; limit?: number } = {}): Promise<number> {
    const before = new Date(Date.now() - (options.olderThanMs ?? STALE_PENDING_MS)).toISOString();
    const stale = await deps.messagesRepository.findStalePending(before, options.limit ?? 500);
    let settled = 0;
    for (const { id, company_id: companyId } of stale) {
      const failed = await deps.changeStatus(companyId, (tx) =>
        tx.messagesRepository.markFailed(companyId, id, {
          code: null,
          message: translate(DEFAULT_LANGUAGE, 'messaging.reason.unconfirmed'),
        }),
      );
      if (failed) settled++;
    }
    return settled;
  }

  return {
    sweepStale,

    /**
     * Runs `sweepStale` every minute in a process that runs the jobs (the web process unless
     * RUN_JOBS=false, and each worker); several processes sweeping at once settle each message once.
     * The result stops it.
     */
    startSweeper(logger: { error(obj: object, msg?: string): void }, everyMs = 60_000): () => void {
      const timer = setInterval(() => {
        sweepStale().catch((err) => logger.error({ err }, 'pending sends could not be swept'));
      }, everyMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
