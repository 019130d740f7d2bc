import { z } from 'zod';
import { ZTimestamp, zId } from './common.schema';

// What Meta allows the company's WhatsApp number: its pace (throughput) and its daily limit of customers
// reached by business-initiated conversations (the messaging limit tier).

/** Meta's messaging limit tiers: unique customers the number may start conversations with in 24 hours. */
export const MESSAGING_LIMIT_TIERS = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1000,
  TIER_2K: 2000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: null,
} as const satisfies Record<string, number | null>;
export type MessagingLimitTier = keyof typeof MESSAGING_LIMIT_TIERS;

/**
 * The tier's daily limit: a number, or null for no limit. A tier Meta has not told (never read) or one
 * this code does not know is null too: nothing is held back on a guess.
 */
export function tierLimit(tier: string | null | undefined): number | null {
  if (!tier || !(tier in MESSAGING_LIMIT_TIERS)) return null;
  return MESSAGING_LIMIT_TIERS[tier as MessagingLimitTier];
}

/** Messages per second a number may send by default (Meta's standard throughput). */
export const MASS_STANDARD_THROUGHPUT = 80;
/** Messages per second a number Meta says has high throughput may send. */
export const MASS_HIGH_THROUGHPUT = 1000;

/**
 * The pace of a send: the number's (80 a second, 1,000 when Meta says its throughput level is HIGH), never
 * above the company's own setting when it has one.
 */
export function massPaceFor(
  throughputLevel: string | null | undefined,
  companySetting: number | null,
): number {
  const number = throughputLevel?.toUpperCase() === 'HIGH' ? MASS_HIGH_THROUGHPUT : MASS_STANDARD_THROUGHPUT;
  return companySetting === null ? number : Math.max(1, Math.min(number, companySetting));
}

/** What Meta said about the company's number at the last connection test or daily read. */
export const ZNumberLimits = z.object({
  /** Meta's `throughput.level` (STANDARD, HIGH …); null when never read. */
  throughput_level: z.string().nullable(),
  /** Meta's `messaging_limit_tier` (TIER_250 … TIER_UNLIMITED); null when never read. */
  messaging_limit_tier: z.string().nullable(),
  /** GREEN, YELLOW, RED or UNKNOWN; null when never read. */
  quality_rating: z.string().nullable(),
  /** When they were read. */
  read_at: ZTimestamp.nullable(),
});
export type NumberLimits = z.infer<typeof ZNumberLimits>;

/**
 * GET /admin/mass-message-limits?list_id= (added by us): the numbers the send form shows before a send to
 * the list. `recipients` are the list's unique phones; `contacted_today` the unique customers the number
 * reached with a template in the last 24 hours; `daily_limit` the tier's limit (null: none known).
 * `over_limit` when recipients + contacted_today is more than the limit: the send then needs
 * `accept_tier_overflow`. `messages_per_second` is the pace a send started now would keep.
 */
export const ZMassLimitsQuery = z.object({ list_id: zId().optional() });
export type MassLimitsQuery = z.input<typeof ZMassLimitsQuery>;
export const ZMassLimits = ZNumberLimits.extend({
  recipients: z.number().int(),
  contacted_today: z.number().int(),
  daily_limit: z.number().int().nullable(),
  over_limit: z.boolean(),
  messages_per_second: z.number().int(),
});
export type MassLimits = z.infer<typeof ZMassLimits>;
export const ZMassLimitsResponse = z.object({ data: ZMassLimits });
export type MassLimitsResponse = z.infer<typeof ZMassLimitsResponse>;
