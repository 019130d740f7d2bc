import { type BusinessHours, type BusinessHoursData, WEEK_DAYS, ZBusinessHours } from '@hablabot/contract';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import type { FormIssue } from '../../components';

/** What the form holds: the hours as the API takes them, each holiday as an object (a field array's row). */
export interface BusinessHoursFormValues extends Omit<BusinessHours, 'holidays'> {
  holidays: { date: string }[];
}

/** Days as the screen lists them: Monday first, Sunday last. */
export const SCREEN_DAYS: readonly number[] = [...WEEK_DAYS.slice(1), 0];

export const toFormValues = (hours: BusinessHoursData): BusinessHoursFormValues => ({
  timezone: hours.timezone,
  days: hours.days.map((r) => ({ ...r })),
  holidays: hours.holidays.map((date) => ({ date })),
  away_enabled: hours.away_enabled,
  away_message: hours.away_message,
  away_with_bot: hours.away_with_bot,
});

/**
 * The form's check: the contract's own rules (ZBusinessHours) on the body the form sends, each issue put
 * back on the form's field (a holiday's on its `date`). Texts of the contract's rules are its keys
 * ('business_hours.order'); any other issue is worded 'business_hours.invalid'.
 */
export const ZBusinessHoursForm = z
  .object({
    timezone: z.string(),
    days: z.array(z.object({ day: z.number(), open: z.string(), close: z.string() })),
    holidays: z.array(z.object({ date: z.string() })),
    away_enabled: z.boolean(),
    away_message: z.string(),
    away_with_bot: z.boolean(),
  })
  .transform((form, ctx) => {
    const parsed = ZBusinessHours.safeParse({ ...form, holidays: form.holidays.map((h) => h.date) });
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      const path =
        issue.path[0] === 'holidays' && issue.path.length > 1 ? [...issue.path, 'date'] : issue.path;
      const own = issue.message.startsWith('business_hours.') || issue.message.startsWith('validation.');
      ctx.addIssue({ code: 'custom', path, message: own ? issue.message : 'business_hours.invalid' });
    }
    return z.NEVER;
  });

/** The screen's text for a contract key of the business hours ('business_hours.order'). */
export function hoursIssueText(issue: FormIssue, t: TFunction): string | undefined {
  const message = issue.message ?? '';
  if (message.startsWith('business_hours.'))
    return t(`businessHours.issues.${message.slice('business_hours.'.length)}`, { defaultValue: message });
  return undefined;
}

/** The name of a day (0 Sunday … 6 Saturday) in the screen's language. */
export function dayName(day: number, language: string): string {
  // 2026-11-29 is a Sunday.
  const date = new Date(Date.UTC(2026, 10, 29 + day, 12));
  const name = new Intl.DateTimeFormat(language, { weekday: 'long', timeZone: 'UTC' }).format(date);
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** The IANA zones this browser knows, for the zone field's suggestions. */
export function timeZones(): string[] {
  const intl = Intl as { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? [];
}
