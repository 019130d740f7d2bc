import { z } from 'zod';
import { ZPagination } from './clients.schema';

/** The most failed webhook deliveries one page of the super admin's list holds. */
export const WEBHOOK_DELIVERIES_PER_PAGE_MAX = 100;

/**
 * GET /super-admin/webhook-deliveries query: one page of the webhook inbox's deliveries in one status,
 * newest first (the screen asks for `failed`).
 */
export const ZWebhookDeliveriesQuery = z.object({
  status: z.enum(['pending', 'processing', 'done', 'failed']).default('failed'),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce
    .number()
    .int()
    .min(1)
    .max(WEBHOOK_DELIVERIES_PER_PAGE_MAX)
    .default(WEBHOOK_DELIVERIES_PER_PAGE_MAX),
});
export type WebhookDeliveriesQuery = z.input<typeof ZWebhookDeliveriesQuery>;
/** The query as the server reads it, defaults filled in. */
export type WebhookDeliveriesQueryParams = z.output<typeof ZWebhookDeliveriesQuery>;

/** One WhatsApp delivery the webhook took: when, how often it was tried, why it failed, what it holds. */
export const ZWebhookDelivery = z.object({
  id: z.number().int(),
  received_at: z.string(),
  status: z.enum(['pending', 'processing', 'done', 'failed']),
  attempts: z.number().int(),
  /** The last try's error, one short line; null when none failed. */
  last_error: z.string().nullable(),
  /** The company it concerns (the first, when several); null when it is no longer known. */
  company: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** How many customer messages and statuses it holds. */
  summary: z.object({ messages: z.number().int(), statuses: z.number().int() }),
});
export type WebhookDelivery = z.infer<typeof ZWebhookDelivery>;

export const ZWebhookDeliveriesResponse = z.object({
  data: z.array(ZWebhookDelivery),
  pagination: ZPagination,
});
export type WebhookDeliveriesResponse = z.infer<typeof ZWebhookDeliveriesResponse>;

/** POST /super-admin/webhook-deliveries/{id}/replay: the delivery, processed again. */
export const ZWebhookReplayResponse = z.object({ message: z.string(), data: ZWebhookDelivery });
export type WebhookReplayResponse = z.infer<typeof ZWebhookReplayResponse>;
