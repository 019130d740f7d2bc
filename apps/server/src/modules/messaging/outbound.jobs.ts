import { z } from 'zod';
import type { CloudApiClient } from '../../integrations/whatsapp/cloud-api';
import { defineJob } from '../../platform/jobs/definitions';
import type { OutboundLog } from './send-outcome';

const id = z.number().int();

/** The outbound service's jobs: another try of a send, and telling WhatsApp a chat was read. */
export function sendJobs(deps: {
  retry: (payload: { companyId: number; messageId: number; attempt: number }) => Promise<void>;
  cloudApi: Pick<CloudApiClient, 'markRead'>;
  log: OutboundLog;
}) {
  return [
    // The retry of a send must never run twice: a crash mid-send leaves the message pending, not doubled.
    defineJob({
      name: 'messaging.send-retry',
      schema: z.object({ companyId: id, messageId: id, attempt: id }),
      handler: deps.retry,
      options: { atMostOnce: true },
    }),
    defineJob({
      name: 'messaging.mark-read',
      schema: z.object({ companyId: id, wamid: z.string().min(1) }),
      handler: async ({ companyId, wamid }) => {
        const result = await deps.cloudApi.markRead(companyId, wamid);
        if (!result.ok && result.transient) throw new Error(`mark read: ${result.code} ${result.message}`);
        if (!result.ok)
          deps.log.warn({ companyId, code: result.code }, `whatsapp mark read refused: ${result.message}`);
      },
    }),
  ];
}
