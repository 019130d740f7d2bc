import { describe, expect, it } from 'vitest';
import { canonicalPhone, phoneKey } from './phone';

describe('one phone, one client: the stored form and the matching key', () => {
  it('stores typed numbers as digits with the country code (E.164 without +), as WhatsApp ids are', () => {
    const cases: [string, string][] = [
      // Mexico: the number as it is today, and the old mobile '1' kept (it is what WhatsApp ids carry).
      ['+52 55 1234 5678', '525512345678'],
      ['+52 1 55 1234 5678', '5215512345678'],
      // Argentina: the local '15' trunk prefix typed internationally becomes the mobile '9'.
      ['+54 9 11 1234-5678', '5491112345678'],
      ['+54 11 15 1234-5678', '5491112345678'],
      ['0054 11 1234 5678', '541112345678'],
      // Brazil: with and without the 9th digit (an old id is kept as it is).
      ['+55 11 91234-5678', '5511912345678'],
      ['+55 11 1234-5678', '551112345678'],
      // Colombia, Spain, the US.
      ['+57 300 123 4567', '573001234567'],
      ['0034 (600) 12.34.56', '34600123456'],
      ['+1 (202) 555-0123', '12025550123'],
      // Not a phone: only the formatting goes, validation refuses the rest.
      ['+34 6OO', '346OO'],
    ];
    for (const [typed, stored] of cases) expect(canonicalPhone(typed), typed).toBe(stored);
  });

  it("folds a country's mobile variants into one key; every other number is its own", () => {
    const same: [string, string][] = [
      ['5215512345678', '525512345678'], // MX: WhatsApp id vs the number
      ['5491112345678', '541112345678'], // AR: with and without the mobile 9
      ['5511912345678', '551112345678'], // BR: with and without the 9th digit
      ['5521987654321', '552187654321'],
    ];
    for (const [a, b] of same) expect(phoneKey(a), a).toBe(phoneKey(b));
    expect(phoneKey('5215512345678')).toBe('525512345678');
    expect(phoneKey('5491112345678')).toBe('541112345678');
    expect(phoneKey('5511912345678')).toBe('551112345678');
    for (const unchanged of [
      '573001234567', // CO
      '34600123456', // ES
      '12025550123', // US
      '551131234567', // BR landline (8 digits, no 9 to fold)
      '525512345678',
      '5215512345', // too short to carry the MX '1'
      '52155123456789', // too long
    ])
      expect(phoneKey(unchanged), unchanged).toBe(unchanged);
    // Different customers keep different keys.
    expect(phoneKey('5215512345678')).not.toBe(phoneKey('525512345679'));
    expect(phoneKey('5511912345678')).not.toBe(phoneKey('5511812345678'));
  });
});
