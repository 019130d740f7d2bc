import { ANALYTICS_DAYS, type DailyMessages } from '@hablabot/contract';
import { notFound } from '../../platform/errors';
import type { CompaniesRepository } from '../identity/companies.repository';
import type { PlatformStatsRepository } from './platform-stats.repository';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight UTC of `date`'s day. */
function startOfDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

/** The super admin's figures: the dashboard, the messages per day, the companies. Days are UTC days. */
export function createPlatformStatsService(deps: {
  stats: PlatformStatsRepository;
  companies: Pick<CompaniesRepository, 'findCompanyById'>;
  /** The current time; tests pass a fixed one. */
  now?: () => Date;
}) {
  const { stats, companies } = deps;
  const now = deps.now ?? (() => new Date());
  const monthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)).toISOString();

  return {
    async overview() {
      const at = now();
      return stats.overview(monthStart(at), startOfDay(at).toISOString());
    },

    /** The last ANALYTICS_DAYS days, today included, every day present (zeros where nothing happened). */
    async messagesPerDay(companyId?: number) {
      if (companyId !== undefined && !(await companies.findCompanyById(companyId)))
        throw notFound('companies.not_found');
      const today = startOfDay(now());
      const from = new Date(today.getTime() - (ANALYTICS_DAYS - 1) * DAY_MS);
      const ranges = Array.from({ length: ANALYTICS_DAYS }, (_, i) => {
        const start = new Date(from.getTime() + i * DAY_MS);
        return {
          day: start.toISOString().slice(0, 10),
          start: start.toISOString(),
          stop: new Date(start.getTime() + DAY_MS).toISOString(),
        };
      });
      const rows = new Map((await stats.messagesPerDay(ranges, companyId)).map((r) => [r.day, r]));
      const days: DailyMessages[] = ranges.map(
        ({ day }) => rows.get(day) ?? { day, received: 0, sent_by_admins: 0, sent_by_bots: 0, failed: 0 },
      );
      return {
        from: from.toISOString().slice(0, 10),
        to: today.toISOString().slice(0, 10),
        company_id: companyId ?? null,
        days,
      };
    },

    async companiesOverview() {
      return stats.companiesOverview(monthStart(now()));
    },
  };
}

export type PlatformStatsService = ReturnType<typeof createPlatformStatsService>;
