import { on } from '../../platform/events/domain-events';
import type { MassMessagesRepository } from './mass-messages.repository';
import type { MassSender } from './mass-sender';

/**
 * WhatsApp's statuses reach the mass sends too: the recipient with that wamid takes the status (never
 * moving back), and its send's progress is published soon after (once per burst of statuses).
 */
export const massSendStatusSubscriber = (deps: {
  repository: Pick<MassMessagesRepository, 'applyStatus'>;
  sender: Pick<MassSender, 'progressSoon'>;
}) =>
  on('whatsapp.status_reported', 'mass-messages.recipient-status', async (e) => {
    const massMessageId = await deps.repository.applyStatus(e.companyId, e.wamid, e.status, e.at, {
      code: e.errorCode,
      message: e.errorMessage,
    });
    if (massMessageId !== undefined) deps.sender.progressSoon(massMessageId);
  });
