import {
  MASS_SCHEDULE_MAX_AHEAD_MS,
  MASS_SCHEDULE_PAST_GRACE_MS,
  isScheduleDateTime,
  scheduleHasZone,
} from '@hablabot/contract';
import { invalid } from '../../platform/errors';

// When a mass message is to start: the schedule's text read as one UTC instant, with the rules it must meet.

/** Reads a local date and time ('2026-11-25T10:30') in an IANA time zone as a UTC instant. */
export function zonedToUtc(local: string, timeZone: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(local);
  if (!m || !isScheduleDateTime(local)) throw invalid('schedule', 'mass.schedule_format');
  const [y, mo, d, h, mi, s, ms] = m.slice(1).map((v) => Number(v ?? 0));
  const wall = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  } catch {
    throw invalid('time_zone', 'mass.time_zone');
  }
  const offsetAt = (instant: number) => {
    const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
    const asUtc = Date.UTC(
      Number(parts.year),
      Number(parts.month) - 1,
      Number(parts.day),
      Number(parts.hour),
      Number(parts.minute),
      Number(parts.second),
    );
    return asUtc - Math.floor(instant / 1000) * 1000;
  };
  let instant = wall - offsetAt(wall);
  instant = wall - offsetAt(instant);
  return new Date(instant);
}

/**
 * The schedule as a UTC instant; undefined for "now". A real date and time (isScheduleDateTime), from
 * MASS_SCHEDULE_PAST_GRACE_MS ago to MASS_SCHEDULE_MAX_AHEAD_MS ahead of `now`.
 */
export function scheduleOf(
  input: { schedule?: string; time_zone?: string },
  now = Date.now(),
): Date | undefined {
  if (!input.schedule) return undefined;
  if (!isScheduleDateTime(input.schedule)) throw invalid('schedule', 'mass.schedule_format');
  const at = scheduleHasZone(input.schedule)
    ? new Date(input.schedule)
    : zonedToUtc(input.schedule, input.time_zone ?? 'UTC');
  if (Number.isNaN(at.getTime())) throw invalid('schedule', 'mass.schedule_format');
  if (at.getTime() < now - MASS_SCHEDULE_PAST_GRACE_MS) throw invalid('schedule', 'mass.schedule_past');
  if (at.getTime() > now + MASS_SCHEDULE_MAX_AHEAD_MS) throw invalid('schedule', 'mass.schedule_far');
  return at;
}
