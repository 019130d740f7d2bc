import { on } from '../../platform/events/domain-events';
import type { OutboundService } from './outbound.service';

/**
 * WhatsApp shows the customer their messages were read once an admin opened the chat: told in a job
 * (`messaging.mark-read`), never failing the read.
 */
export const readReceiptSubscriber = (outbound: Pick<OutboundService, 'markReadLater'>) =>
  on('conversation.read', 'messaging.read-receipt', async (e) => {
    if (e.lastWamid) await outbound.markReadLater(e.companyId, e.lastWamid);
  });
