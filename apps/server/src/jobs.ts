import type { BotReplies } from './modules/messaging/bot-reply';
import type { MediaDownloads } from './modules/messaging/media-download';
import type { OutboundService } from './modules/messaging/outbound.service';
import type { MassSender } from './modules/mass-messages/mass-sender';
import { templatesSyncJob } from './modules/templates/templates.jobs';
import type { TemplatesService } from './modules/templates/templates.service';
import type { NumberLimitsService } from './modules/settings/number-limits';
import type { AnyJobDefinition } from './platform/jobs/definitions';

/**
 * Every background job of the product, each declared beside the service that owns it (`defineJob`: name,
 * payload schema, handler, options). The container gives them to the queue in one call, so the HTTP
 * server and `npm run worker` know the same jobs on either queue (database or BullMQ).
 *
 *   messaging.bot-reply       the bot's answer to a customer (messaging/bot-reply.ts)
 *   messaging.media-download  a customer's media fetched from WhatsApp (messaging/media-download.ts)
 *   messaging.send-retry      another try of a send WhatsApp refused for now (messaging/outbound.service.ts)
 *   messaging.mark-read       WhatsApp told a chat was read (messaging/outbound.service.ts)
 *   messaging.scheduled-send  a scheduled message sent at its time (messaging/scheduled-messages.ts)
 *   mass.send                 a run of a mass message through its recipients (mass-messages/mass-sender.ts)
 *   templates.sync            the company's templates fetched from WhatsApp (templates/templates.jobs.ts)
 *   whatsapp.number-limits    Meta's throughput, limit tier and quality of a company's number (settings/number-limits.ts)
 *   whatsapp.number-limits-daily  queues the read above for every company, and itself a day later
 */
export function jobDefinitions(modules: {
  botReplies: Pick<BotReplies, 'job'>;
  mediaDownloads: Pick<MediaDownloads, 'job'>;
  outbound: Pick<OutboundService, 'jobs'>;
  massSender: Pick<MassSender, 'job'>;
  templates: Pick<TemplatesService, 'sync'>;
  numberLimits: Pick<NumberLimitsService, 'jobs'>;
}): AnyJobDefinition[] {
  return [
    modules.botReplies.job,
    modules.mediaDownloads.job,
    ...modules.outbound.jobs,
    modules.massSender.job,
    templatesSyncJob(modules.templates),
    ...modules.numberLimits.jobs,
  ];
}
