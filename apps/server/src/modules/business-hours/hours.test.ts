// The business hours' rules alone: open or closed at a moment in the business's zone, when it opens next
// (over nights, weekends, holidays and a change of the clocks) and how the closed period is named.
import { describe, expect, it } from 'vitest';
import { type Hours, hoursStatus, zonedMoment } from './hours';

const bogota: Hours = {
  timezone: 'America/Bogota', // UTC-5, no summer time
  days: [
    { day: 1, open: '09:00', close: '13:00' },
    { day: 1, open: '14:00', close: '18:00' },
    { day: 2, open: '09:00', close: '18:00' },
    { day: 5, open: '09:00', close: '17:00' },
  ],
  holidays: ['2026-12-01'],
};
// 2026-11-30 is a Monday.
const at = (iso: string) => Date.parse(iso);

describe('business hours status', () => {
  it('no saved hours: always open', () => {
    expect(hoursStatus(null, at('2026-11-29T03:00:00Z')).open).toBe(true);
  });

  it('open inside a range (opening included, closing excluded), closed in the lunch gap', () => {
    expect(hoursStatus(bogota, at('2026-11-30T14:00:00Z')).open).toBe(true); // Mon 09:00
    expect(hoursStatus(bogota, at('2026-11-30T17:59:00Z')).open).toBe(true); // Mon 12:59
    const lunch = hoursStatus(bogota, at('2026-11-30T18:30:00Z')); // Mon 13:30
    expect(lunch).toMatchObject({ open: false, nextOpen: { date: '2026-11-30', time: '14:00', day: 1 } });
    expect(lunch.period).toBe('2026-11-30T19:00:00.000Z');
    expect(hoursStatus(bogota, at('2026-11-30T23:00:00Z')).open).toBe(false); // Mon 18:00
  });

  it('after Monday closes, the next opening skips the holiday Tuesday to Friday', () => {
    const s = hoursStatus(bogota, at('2026-11-30T23:30:00Z')); // Mon 18:30
    expect(s.nextOpen).toMatchObject({
      date: '2026-12-04',
      day: 5,
      time: '09:00',
      at: '2026-12-04T14:00:00.000Z',
    });
    // The whole night and the holiday are one closed period: the same name all along.
    expect(hoursStatus(bogota, at('2026-12-01T15:00:00Z')).period).toBe(s.period);
    expect(hoursStatus(bogota, at('2026-12-01T15:00:00Z')).open).toBe(false);
  });

  it('a business with no ranges is never open: one closed period, "never"', () => {
    expect(hoursStatus({ ...bogota, days: [] }, at('2026-11-30T15:00:00Z'))).toEqual({
      open: false,
      nextOpen: null,
      period: 'never',
    });
  });

  it('a range to 24:00 stays open until midnight', () => {
    const late: Hours = { timezone: 'UTC', days: [{ day: 1, open: '20:00', close: '24:00' }], holidays: [] };
    expect(hoursStatus(late, at('2026-11-30T23:59:00Z')).open).toBe(true);
    expect(hoursStatus(late, at('2026-12-01T00:00:00Z')).open).toBe(false);
  });

  it('reads wall-clock times across a change of the clocks (Madrid, last Sunday of March)', () => {
    expect(new Date(zonedMoment('2027-03-27', 9 * 60, 'Europe/Madrid')).toISOString()).toBe(
      '2027-03-27T08:00:00.000Z',
    );
    expect(new Date(zonedMoment('2027-03-29', 9 * 60, 'Europe/Madrid')).toISOString()).toBe(
      '2027-03-29T07:00:00.000Z',
    );
  });
});
