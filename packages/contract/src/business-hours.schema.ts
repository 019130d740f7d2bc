import { z } from 'zod';
import { zText } from './common.schema';

// A company's business hours and the away message customers get outside them.

/** Days are numbered as JavaScript and PostgreSQL number them: 0 Sunday, 1 Monday … 6 Saturday. */
export const WEEK_DAYS = [0, 1, 2, 3, 4, 5, 6] as const;
/** Ranges in a week, at most (several a day are allowed). */
export const BUSINESS_HOURS_RANGES_MAX = 50;
/** Holidays kept, at most. */
export const BUSINESS_HOURS_HOLIDAYS_MAX = 366;
export const AWAY_MESSAGE_MAX = 1000;

/** A time of day 'HH:MM' (24-hour clock); a range may close at '24:00', the end of the day. */
const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const CLOSE_TIME = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `zone` is an IANA time zone this runtime knows ('America/Bogota', 'UTC'). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Whether 'YYYY-MM-DD' is a real calendar date. */
export function isCalendarDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** Minutes since midnight of 'HH:MM' ('24:00' is 1440). */
export const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

export const ZBusinessHoursRange = z.object({
  day: z.number().int().min(0).max(6),
  open: z.string().regex(TIME, { message: 'business_hours.time' }),
  close: z.string().regex(CLOSE_TIME, { message: 'business_hours.time' }),
});
export type BusinessHoursRange = z.infer<typeof ZBusinessHoursRange>;

/**
 * GET/PUT /admin/business-hours.
 * - `timezone`: the IANA zone the hours are read in.
 * - `days`: the opening ranges of the week, several a day allowed; each opens before it closes and no
 *   two of the same day overlap (touching, 9:00–13:00 and 13:00–18:00, is allowed). A day with no range
 *   is closed all day; no range at all means the business is never open.
 * - `holidays`: dates ('YYYY-MM-DD', in the zone) closed all day.
 * - `away_enabled`, `away_message`: outside hours, a customer's first message of each closed period gets
 *   the away message once.
 * - `away_with_bot`: when a live bot answers the customer, the bot answers instead of the away message;
 *   with this on, the customer gets both.
 */
export const ZBusinessHours = z
  .object({
    timezone: z.string().trim().refine(isTimeZone, { message: 'business_hours.timezone' }),
    days: z.array(ZBusinessHoursRange).max(BUSINESS_HOURS_RANGES_MAX),
    holidays: z
      .array(z.string().trim().refine(isCalendarDate, { message: 'business_hours.holiday' }))
      .max(BUSINESS_HOURS_HOLIDAYS_MAX),
    away_enabled: z.boolean(),
    away_message: zText({ max: AWAY_MESSAGE_MAX, multiline: true }),
    away_with_bot: z.boolean(),
  })
  .superRefine((value, ctx) => {
    value.days.forEach((range, i) => {
      if (minutesOf(range.open) >= minutesOf(range.close))
        ctx.addIssue({ code: 'custom', path: ['days', i, 'close'], message: 'business_hours.order' });
    });
    const byDay = new Map<number, { i: number; open: number; close: number }[]>();
    value.days.forEach((range, i) => {
      const open = minutesOf(range.open);
      const close = minutesOf(range.close);
      if (open >= close) return;
      const list = byDay.get(range.day) ?? [];
      if (list.some((r) => open < r.close && r.open < close))
        ctx.addIssue({ code: 'custom', path: ['days', i, 'open'], message: 'business_hours.overlap' });
      list.push({ i, open, close });
      byDay.set(range.day, list);
    });
    const seen = new Set<string>();
    value.holidays.forEach((date, i) => {
      if (seen.has(date))
        ctx.addIssue({ code: 'custom', path: ['holidays', i], message: 'business_hours.holiday_twice' });
      seen.add(date);
    });
    if (value.away_enabled && !value.away_message)
      ctx.addIssue({ code: 'custom', path: ['away_message'], message: 'business_hours.away_message' });
  });
export type BusinessHours = z.infer<typeof ZBusinessHours>;

/** A company that never saved its hours: always open, no away message (Spanish text ready to switch on). */
export const DEFAULT_BUSINESS_HOURS: BusinessHours = {
  timezone: 'America/Mexico_City',
  days: [],
  holidays: [],
  away_enabled: false,
  away_message:
    'Gracias por escribirnos. Ahora estamos fuera de nuestro horario de atención; te responderemos en cuanto abramos.',
  away_with_bot: false,
};

/** Whether the company saved its hours: until then it is treated as always open. */
export const ZBusinessHoursData = z.object({
  ...ZBusinessHours.shape,
  configured: z.boolean(),
});
export type BusinessHoursData = z.infer<typeof ZBusinessHoursData>;

export const ZBusinessHoursResponse = z.object({ data: ZBusinessHoursData });
export type BusinessHoursResponse = z.infer<typeof ZBusinessHoursResponse>;
export const ZBusinessHoursMutationResponse = z.object({ message: z.string(), data: ZBusinessHoursData });
export type BusinessHoursMutationResponse = z.infer<typeof ZBusinessHoursMutationResponse>;
