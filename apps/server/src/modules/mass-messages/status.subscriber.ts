import { MESSAGE_STATUS } from '@hablabot/contract';
import { on } from '../../platform/events/domain-events';
import type { WithTransaction } from '../../repositories';
import { FREQUENCY_CAP_CODE, type MassMessagesRepository } from './mass-messages.repository';
import type { MassSender } from './mass-sender';

/**
 * WhatsApp's statuses reach the mass messages too: the recipient with that wamid takes the status (never
 * moving back), and its send's progress is published soon after (once per burst of statuses). The
 * recipient's message in its conversation takes it as well: it may have been kept (in-conversation.ts)
 * after the webhook looked for it and before the recipient had the status, so neither copied it. A
 * 131049 (Meta's marketing frequency cap) reported for a send with `retry_capped` is tried a day later.
 */
export const massMessageStatusSubscriber = (deps: {
  repository: Pick<MassMessagesRepository, 'applyStatus'>;
  sender: Pick<MassSender, 'progressSoon' | 'retryCapped'>;
  withTransaction: WithTransaction;
}) =>
  on('whatsapp.status_reported', 'mass-messages.recipient-status', async (e) => {
    const massMessageId = await deps.repository.applyStatus(e.companyId, e.wamid, e.status, e.at, {
      code: e.errorCode,
      message: e.errorMessage,
    });
    if (massMessageId === undefined) return;
    // Meta's marketing frequency cap, reported after it accepted the message: tried again a day later
    // when the send asked for it.
    if (e.status === 'failed' && e.errorCode === FREQUENCY_CAP_CODE)
      await deps.sender.retryCapped(massMessageId, e.wamid);
    deps.sender.progressSoon(massMessageId);
    await deps.withTransaction(async (tx) => {
      // A status it already has (or a higher one) changes nothing.
      const updated = await tx.messagesRepository.applyStatus(e.companyId, e.wamid, {
        status: MESSAGE_STATUS[e.status],
        at: e.at,
        errorCode: e.errorCode,
        errorMessage: e.errorMessage,
        errorTitle: e.errorTitle ?? null,
      });
      if (updated)
        tx.events.emit('message.status_changed', {
          companyId: e.companyId,
          clientId: updated.client_id,
          messageId: updated.id,
          status: updated.status,
        });
    });
  });
