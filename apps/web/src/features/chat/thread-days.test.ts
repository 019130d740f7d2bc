import { describe, expect, it } from 'vitest';
import { dayLabel, dayStarts, localDay } from './thread-days';

const local = (y: number, mo: number, d: number, h = 0, mi = 0) => new Date(y, mo - 1, d, h, mi);
const words = { es: { today: 'Hoy', yesterday: 'Ayer' }, en: { today: 'Today', yesterday: 'Yesterday' } };

describe('the thread’s day separators', () => {
  const now = local(2026, 11, 24, 15, 30);

  it('name today and yesterday by their words, from the first minute of the day to the last', () => {
    expect(dayLabel(local(2026, 11, 24, 0, 0).toISOString(), now, 'es', words.es)).toBe('Hoy');
    expect(dayLabel(local(2026, 11, 23, 23, 59).toISOString(), now, 'es', words.es)).toBe('Ayer');
    expect(dayLabel(local(2026, 11, 23, 0, 1).toISOString(), now, 'en', words.en)).toBe('Yesterday');
  });

  it('write older days out in the user’s language', () => {
    const iso = local(2026, 3, 7, 12).toISOString();
    expect(dayLabel(iso, now, 'es', words.es)).toBe('7 de marzo de 2026');
    expect(dayLabel(iso, now, 'en', words.en)).toBe('March 7, 2026');
    expect(dayLabel(local(2026, 11, 22, 23, 59).toISOString(), now, 'es', words.es)).toBe(
      '22 de noviembre de 2026',
    );
  });

  it('go before the first message of each day, whatever the hours between them', () => {
    const messages = [
      local(2026, 11, 22, 23, 59),
      local(2026, 11, 23, 0, 0),
      local(2026, 11, 23, 18, 0),
      local(2026, 11, 24, 9, 0),
      local(2026, 11, 24, 9, 1),
    ].map((date) => ({ created_at: date.toISOString() }));
    expect([...dayStarts(messages)]).toEqual([0, 1, 3]);
    expect(dayStarts([])).toEqual(new Set());
    expect(localDay(new Date('not a date'))).toBe('');
  });
});
