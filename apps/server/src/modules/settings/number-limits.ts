import type { NumberLimits } from '@hablabot/contract';
import { z } from 'zod';
import type { Executor } from '../../db/transactions';
import { type PhoneNumberInfo, readPhoneNumber } from '../../integrations/whatsapp/graph-api';
import { type Clock, realClock } from '../../platform/clock';
import { defineJob } from '../../platform/jobs/definitions';
import type { JobQueue } from '../../platform/jobs/jobs';
import type { Credentials } from './settings.service';

declare module '../../platform/jobs/jobs' {
  interface JobPayloads {
    'whatsapp.number-limits': { companyId: number };
    'whatsapp.number-limits-daily': Record<string, never>;
  }
}

/** How often Meta's fields of every company's number are read again. */
export const NUMBER_LIMITS_EVERY_MS = 24 * 60 * 60_000;

/**
 * What Meta says about the company's WhatsApp number — its throughput level, its messaging limit tier and
 * its quality rating — kept on the company's channel: read at every connection test of the stored number
 * and once a day for every company with a number (job `whatsapp.number-limits-daily`, which queues one
 * `whatsapp.number-limits` per company and itself again a day later). The mass sender's pace and daily
 * limit are taken from them.
 */
export function createNumberLimits(deps: {
  db: Executor;
  credentials: (companyId: number) => Promise<Credentials>;
  jobs: Pick<JobQueue, 'enqueue'>;
  timeoutMs?: number;
  clock?: Clock;
}) {
  const { db, jobs } = deps;
  const clock = deps.clock ?? realClock;

  /** Keeps what the Graph API said about the company's number. */
  async function save(companyId: number, phone: PhoneNumberInfo): Promise<void> {
    await db
      .updateTable('channels')
      .set({
        throughput_level: phone.throughput_level,
        messaging_limit_tier: phone.messaging_limit_tier,
        quality_rating: phone.quality_rating,
        limits_read_at: new Date(clock.now()).toISOString(),
      })
      .where('company_id', '=', companyId)
      .execute();
  }

  /** The number's fields as last read (all null when never read or no number is set). */
  async function stored(companyId: number): Promise<NumberLimits> {
    const row = await db
      .selectFrom('channels')
      .select(['throughput_level', 'messaging_limit_tier', 'quality_rating', 'limits_read_at'])
      .where('company_id', '=', companyId)
      .executeTakeFirst();
    return {
      throughput_level: row?.throughput_level ?? null,
      messaging_limit_tier: row?.messaging_limit_tier ?? null,
      quality_rating: row?.quality_rating ?? null,
      read_at: row?.limits_read_at ?? null,
    };
  }

  /**
   * Reads the stored number from the Graph API and keeps its fields. False when the company has no number
   * or token, or the Graph API did not answer with the number (the fields read last stay).
   */
  async function refresh(companyId: number): Promise<boolean> {
    const c = await deps.credentials(companyId);
    if (!c.whatsAppApiKey || !c.whatsAppPhoneId) return false;
    const check = await readPhoneNumber({
      baseUrl: c.facebookMessagesApiUrl,
      token: c.whatsAppApiKey,
      phoneNumberId: c.whatsAppPhoneId,
      timeoutMs: deps.timeoutMs ?? 10_000,
    });
    if (!check.ok) return false;
    await save(companyId, check.phone);
    return true;
  }

  /** Queues the daily read (now, then every day); one waits at a time. */
  async function startDaily(delayMs = 0): Promise<void> {
    await jobs.enqueue('whatsapp.number-limits-daily', {}, { delayMs, dedupeKey: 'daily', attempts: 3 });
  }

  return {
    save,
    stored,
    refresh,
    startDaily,
    jobs: [
      defineJob({
        name: 'whatsapp.number-limits',
        schema: z.object({ companyId: z.number().int() }),
        handler: async ({ companyId }) => {
          await refresh(companyId);
        },
      }),
      defineJob({
        name: 'whatsapp.number-limits-daily',
        schema: z.object({}).strict() as unknown as z.ZodType<Record<string, never>>,
        handler: async () => {
          const companies = await db
            .selectFrom('channels')
            .select('company_id')
            .where('phone_number_id', 'is not', null)
            .execute();
          for (const { company_id } of companies)
            await jobs.enqueue(
              'whatsapp.number-limits',
              { companyId: company_id },
              { dedupeKey: String(company_id), attempts: 2, backoff: 60_000 },
            );
          await startDaily(NUMBER_LIMITS_EVERY_MS);
        },
      }),
    ],
  };
}

export type NumberLimitsService = ReturnType<typeof createNumberLimits>;
