import { type BusinessHours, minutesOf } from '@hablabot/contract';

/** The hours the rules read: the saved ones, or null when the company never saved any (always open). */
export type Hours = Pick<BusinessHours, 'timezone' | 'days' | 'holidays'>;

/** A moment in the business's zone. */
export interface LocalMoment {
  /** 'YYYY-MM-DD' in the zone. */
  date: string;
  /** 0 Sunday … 6 Saturday. */
  day: number;
  /** 'HH:MM' in the zone. */
  time: string;
  /** The moment itself, ISO 8601 UTC. */
  at: string;
}

export interface HoursStatus {
  open: boolean;
  /** When the business opens next (null while open, or when it has no hours at all). */
  nextOpen: LocalMoment | null;
  /**
   * The closed period `at` falls in, named by the moment it ends (ISO 8601 UTC), or 'never' when the
   * business has no opening hours; null while open.
   */
  period: string | null;
}

/** How far ahead the next opening is looked for (holidays may close weeks in a row). */
const LOOKAHEAD_DAYS = 400;
const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock of `ms` in `timeZone`. */
function wallClock(ms: number, timeZone: string) {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms)))
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return parts as { year: number; month: number; day: number; hour: number; minute: number; second: number };
}

/** The zone's offset from UTC at `ms`, in milliseconds. */
function offsetAt(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

/** The moment a wall-clock time of the zone happens (a time skipped by a clock change: just after it). */
export function zonedMoment(date: string, minutes: number, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number);
  const guess = Date.UTC(y, m - 1, d) + minutes * 60_000;
  let at = guess - offsetAt(guess, timeZone);
  at = guess - offsetAt(at, timeZone);
  return at;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `ms` as the business's calendar and clock see it. */
export function localMoment(ms: number, timeZone: string): LocalMoment {
  const w = wallClock(ms, timeZone);
  const date = `${w.year}-${pad(w.month)}-${pad(w.day)}`;
  return {
    date,
    day: new Date(`${date}T00:00:00Z`).getUTCDay(),
    time: `${pad(w.hour)}:${pad(w.minute)}`,
    at: new Date(ms).toISOString(),
  };
}

/** The calendar day `n` days after 'YYYY-MM-DD'. */
const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/**
 * Whether the business is open at `ms`, and if not, when it opens next and which closed period this
 * is. No saved hours: always open. A holiday closes its whole day; a range is open from `open`
 * (included) to `close` (excluded), '24:00' being the end of its day.
 */
export function hoursStatus(hours: Hours | null, ms: number): HoursStatus {
  if (!hours) return { open: true, nextOpen: null, period: null };
  const { timezone } = hours;
  const holidays = new Set(hours.holidays);
  const now = localMoment(ms, timezone);
  const minute = minutesOf(now.time);
  const rangesOf = (day: number) =>
    hours.days
      .filter((r) => r.day === day)
      .map((r) => ({ open: minutesOf(r.open), close: minutesOf(r.close) }))
      .sort((a, b) => a.open - b.open);
  if (!holidays.has(now.date) && rangesOf(now.day).some((r) => r.open <= minute && minute < r.close))
    return { open: true, nextOpen: null, period: null };
  if (hours.days.length === 0) return { open: false, nextOpen: null, period: 'never' };
  for (let n = 0; n <= LOOKAHEAD_DAYS; n++) {
    const date = n === 0 ? now.date : addDays(now.date, n);
    if (holidays.has(date)) continue;
    const day = (now.day + n) % 7;
    // A range starting right where the previous day's ends at midnight does not open anything new.
    for (const range of rangesOf(day)) {
      if (n === 0 && range.open <= minute) continue;
      const at = zonedMoment(date, range.open, timezone);
      const next = localMoment(at, timezone);
      return { open: false, nextOpen: next, period: next.at };
    }
  }
  return { open: false, nextOpen: null, period: 'never' };
}
