import { afterEach, describe, expect, it } from 'vitest';
import { localInputToUtc, localTimeZone, toLocalInput } from './schedule';
import { acceptFor, approvedTemplates, headerMediaKind, insertAt } from './templates';
import { makeTemplate } from './test-fixtures';

const originalTz = process.env.TZ;

afterEach(() => {
  process.env.TZ = originalTz;
});

describe('schedule in the admin time zone', () => {
  it('reads a datetime-local value in the local zone and gives UTC', () => {
    process.env.TZ = 'America/Mexico_City';
    expect(localTimeZone()).toBe('America/Mexico_City');
    expect(localInputToUtc('2026-11-25T10:30')).toBe('2026-11-25T16:30:00.000Z');
    process.env.TZ = 'Asia/Tokyo';
    expect(localInputToUtc('2026-11-25T10:30')).toBe('2026-11-25T01:30:00.000Z');
    expect(toLocalInput(new Date('2026-11-25T01:30:00.000Z'))).toBe('2026-11-25T10:30');
  });

  it('refuses empty and malformed values', () => {
    expect(localInputToUtc('')).toBeNull();
    expect(localInputToUtc('25/11/2026 10:30')).toBeNull();
  });
});

describe('template helpers', () => {
  it('keeps only APPROVED templates and finds a media header', () => {
    const templates = [
      makeTemplate({ id: 1 }),
      makeTemplate({ id: 2, status: 'PENDING' }),
      makeTemplate({ id: 3, status: 'approved' }),
    ];
    expect(approvedTemplates(templates).map((t) => t.id)).toEqual([1, 3]);
    expect(headerMediaKind(makeTemplate())).toBeNull();
    expect(
      headerMediaKind(
        makeTemplate({ components: [{ type: 'HEADER', format: 'DOCUMENT', text: null, buttons: [] }] }),
      ),
    ).toBe('document');
    expect(acceptFor('image')).toBe('.jpeg,.jpg,.png');
  });

  it('inserts a token where the caret is, replacing a selection', () => {
    expect(insertAt('Hola !', '{{Nombre}}', 5, 5)).toEqual({ value: 'Hola {{Nombre}}!', caret: 15 });
    expect(insertAt('Hola XX', '{{Nombre}}', 5, 7)).toEqual({ value: 'Hola {{Nombre}}', caret: 15 });
    expect(insertAt('Hola', '{{Nombre}}', null, null)).toEqual({ value: 'Hola{{Nombre}}', caret: 14 });
  });
});
