import { z } from 'zod';
import { requiredText, ZTimestamp, zId } from './common.schema';

// --- the super admin's figures, read from the database ---

/** The dashboard's cards. Months and days are counted in UTC. */
export const ZOverview = z.object({
  /** Messages stored this month (received and sent, every company). */
  messages_this_month: z.number().int(),
  /** Messages the bots sent today. */
  bot_interactions_today: z.number().int(),
  users: z.number().int(),
  companies: z.number().int(),
});
export type Overview = z.infer<typeof ZOverview>;
export const ZOverviewResponse = z.object({ data: ZOverview });

/** How many days the analytics chart covers, today included. */
export const ANALYTICS_DAYS = 30;

export const ZAnalyticsQuery = z.object({ company_id: zId().optional() });
export type AnalyticsQuery = z.infer<typeof ZAnalyticsQuery>;

/** One day of the analytics chart (YYYY-MM-DD, UTC); failed counts outgoing messages that were not sent. */
export const ZDailyMessages = z.object({
  day: z.string(),
  received: z.number().int(),
  sent_by_admins: z.number().int(),
  sent_by_bots: z.number().int(),
  failed: z.number().int(),
});
export type DailyMessages = z.infer<typeof ZDailyMessages>;
export const ZAnalyticsResponse = z.object({
  data: z.object({
    from: z.string(),
    to: z.string(),
    company_id: z.number().int().nullable(),
    days: z.array(ZDailyMessages),
  }),
});
export type AnalyticsResponse = z.infer<typeof ZAnalyticsResponse>;

// --- companies as the super admin sees them ---

export const ZCompanyAdmin = z.object({ id: z.number().int(), name: z.string(), email: z.string() });
export const ZCompanyOverview = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: ZTimestamp,
  admins: z.array(ZCompanyAdmin),
  clients_count: z.number().int(),
  messages_this_month: z.number().int(),
  /** WhatsApp settings present (phone number id and access token). */
  whatsapp_configured: z.boolean(),
  /** When the last customer message came in through the webhook; null when none yet. */
  last_webhook_at: ZTimestamp.nullable(),
});
export type CompanyOverview = z.infer<typeof ZCompanyOverview>;
export const ZCompaniesOverviewResponse = z.object({ data: z.array(ZCompanyOverview) });

export const ZRenameCompanyRequest = z.object({ name: requiredText(120) });
export type RenameCompanyRequest = z.infer<typeof ZRenameCompanyRequest>;
/** A new company (tenant) with no users yet: only its name, as a rename takes it. */
export const ZCreateCompanyRequest = ZRenameCompanyRequest;
export type CreateCompanyRequest = RenameCompanyRequest;
export const ZCompanyMutationResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  data: z.object({ id: z.number().int(), name: z.string(), created_at: ZTimestamp }),
});
