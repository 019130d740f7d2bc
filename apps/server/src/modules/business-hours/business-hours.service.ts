import type { BusinessHours, BusinessHoursData, Language } from '@hablabot/contract';
import type { Clock } from '../../platform/clock';
import { realClock } from '../../platform/clock';
import { translate } from '../../platform/locale';
import type { PromptHours } from '../bots/prompt';
import type { BusinessHoursRepository } from './business-hours.repository';
import { type HoursStatus, type LocalMoment, hoursStatus } from './hours';

/** What the business hours mean now, for the away message, the bot's prompt and the hand-off. */
export interface OpeningStatus extends HoursStatus {
  timezone: string;
  away_enabled: boolean;
  away_message: string;
  away_with_bot: boolean;
}

/**
 * When the business opens next, as a customer reads it: 'lunes 9:00' within the coming week, with the
 * date further ahead ('lunes 14 de diciembre, 9:00'), in the business's zone.
 */
export function describeOpening(next: LocalMoment, timeZone: string, lang: Language, fromMs: number): string {
  const at = Date.parse(next.at);
  const within = at - fromMs < 6 * 86_400_000;
  const locale = lang === 'en' ? 'en-US' : 'es-ES';
  const day = new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: 'long',
    ...(within ? {} : { day: 'numeric', month: 'long' }),
  }).format(at);
  const [h, m] = next.time.split(':');
  const time = `${Number(h)}:${m}`;
  return within ? `${day} ${time}` : `${day}, ${time}`;
}

export function createBusinessHoursService(deps: { repository: BusinessHoursRepository; clock?: Clock }) {
  const { repository } = deps;
  const clock = deps.clock ?? realClock;

  return {
    async get(companyId: number): Promise<BusinessHoursData> {
      return repository.get(companyId);
    },

    async save(companyId: number, hours: BusinessHours): Promise<BusinessHoursData> {
      await repository.save(companyId, hours);
      return repository.get(companyId);
    },

    /** Whether the company is open at the clock's now (always, until it saves its hours). */
    async status(companyId: number): Promise<OpeningStatus> {
      const hours = await repository.get(companyId);
      return {
        ...hoursStatus(hours.configured ? hours : null, clock.now()),
        timezone: hours.timezone,
        away_enabled: hours.away_enabled,
        away_message: hours.away_message,
        away_with_bot: hours.away_with_bot,
      };
    },

    /** 'Nuestro equipo responde a partir del lunes 9:00.', or null when open or never opening. */
    whenTeamAnswers(status: HoursStatus & { timezone: string }, lang: Language): string | null {
      if (status.open || !status.nextOpen) return null;
      return translate(lang, 'business_hours.team_answers_from', {
        when: describeOpening(status.nextOpen, status.timezone, lang, clock.now()),
      });
    },

    /**
     * The business hours as the bot's prompt states them: open now, or closed and when it opens next
     * (in English, the prompt's language, with the zone). Nothing until the company saves its hours.
     */
    async promptHours(companyId: number): Promise<PromptHours | undefined> {
      const hours = await repository.get(companyId);
      if (!hours.configured) return undefined;
      const now = clock.now();
      const status = hoursStatus(hours, now);
      return {
        open: status.open,
        opensNext: status.nextOpen
          ? `${describeOpening(status.nextOpen, hours.timezone, 'en', now)} (${hours.timezone})`
          : null,
      };
    },

    now: () => clock.now(),
  };
}

export type BusinessHoursService = ReturnType<typeof createBusinessHoursService>;
