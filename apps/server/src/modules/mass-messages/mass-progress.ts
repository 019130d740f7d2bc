import type { Clock } from '../../platform/clock';
import type { JobLogger } from '../../platform/jobs/jobs';
import type { Outbox } from '../../platform/outbox/outbox';
import { type MassMessagesRepository, createMassMessagesRepository } from './mass-messages.repository';

/**
 * A send's progress for the mass sender (mass-sender.ts): its recipients counted and kept on the send,
 * with `mass_message.progress` for the real-time module.
 */
export function createMassProgress(deps: {
  repository: MassMessagesRepository;
  outbox: Pick<Outbox, 'transaction'>;
  clock: Clock;
  /** At most one `progressSoon` publication per send in this time. */
  progressMs: number;
  logger: () => JobLogger;
}) {
  const { repository, outbox, clock, progressMs } = deps;
  const pendingProgress = new Set<number>();

  /**
   * Counts the send's recipients and keeps the counts on the send, with `mass_message.progress` in the same
   * transaction (its subscribers read the send's status and counts from the row).
   */
  async function publishProgress(massMessageId: number): Promise<void> {
    const send = await repository.findById(massMessageId);
    if (!send) return;
    const counts = await repository.countByStatus(massMessageId);
    await outbox.transaction(async (trx, events) => {
      await createMassMessagesRepository(trx).saveCounts(massMessageId, counts);
      events.emit('mass_message.progress', { companyId: send.company_id, massMessageId });
    });
  }

  /** Progress soon, at most once per `progressMs` per send (for status webhooks arriving in bursts). */
  function progressSoon(massMessageId: number) {
    if (pendingProgress.has(massMessageId)) return;
    pendingProgress.add(massMessageId);
    clock.after(progressMs, () => {
      pendingProgress.delete(massMessageId);
      publishProgress(massMessageId).catch((err) =>
        deps.logger().warn({ err, massMessageId }, 'mass send progress could not be published'),
      );
    });
  }

  return { publishProgress, progressSoon };
}
