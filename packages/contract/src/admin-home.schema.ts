import { z } from 'zod';
import { ZTimestamp } from './common.schema';
import { MASS_MESSAGE_STATUSES, ZMassMessageCounts } from './mass-messages.schema';

/**
 * GET /admin/home-summary: the figures beside the admin home's tiles, for the signed-in admin's company.
 * Today is the UTC day, as in the super admin's figures.
 */
export const ZAdminHomeSummary = z.object({
  /** Clients with customer messages nobody has read yet. */
  unread_conversations: z.number().int(),
  /** Messages of today: received, sent by admins and by bots. */
  messages_today: z.number().int(),
  /** The newest mass message, whatever its state; null when the company has made none. */
  last_mass_send: z
    .object({
      id: z.number().int(),
      name: z.string(),
      status: z.enum(MASS_MESSAGE_STATUSES),
      counts: ZMassMessageCounts,
      scheduled_at: ZTimestamp.nullable(),
      created_at: ZTimestamp,
    })
    .nullable(),
  /** The bot that answers customers (the lowest id among the active ones); null when none is live. */
  live_bot: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type AdminHomeSummary = z.infer<typeof ZAdminHomeSummary>;
export const ZAdminHomeSummaryResponse = z.object({ data: ZAdminHomeSummary });
export type AdminHomeSummaryResponse = z.infer<typeof ZAdminHomeSummaryResponse>;
