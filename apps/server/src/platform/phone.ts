import { normalizePhone } from '@hablabot/contract';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * One phone, one client.
 *
 * - The stored form (`clients.whatsapp_cellphone`) is digits with the country code, as WhatsApp ids are
 *   (E.164 without the '+'). A number typed in a form, a CSV cell or the WordPress push goes through
 *   `canonicalPhone`: formatting removed, then libphonenumber-js rewrites a number it knows into E.164
 *   (Argentina's local '15' trunk prefix becomes the mobile '9': '+54 11 15 1234-5678' → '5491112345678').
 *   A number it does not know as valid is kept as typed (digits), so nothing WhatsApp accepts is refused.
 *   A webhook's WhatsApp id is already in this form and is stored as it came: it is the number WhatsApp
 *   answers to.
 * - The matching key (`phoneKey`, the generated column `clients.phone_key`, unique per company) folds the
 *   mobile variants of one number that WhatsApp and people write differently:
 *     Mexico     521 + 10 digits  →  52 + 10 digits  (WhatsApp ids of MX mobiles keep the old '1');
 *     Argentina  549 + 10 digits  →  54 + 10 digits  (the mobile '9' is in WhatsApp ids, often not in forms);
 *     Brazil     55 + area + 9 + 8 digits  →  55 + area + 8 digits  (accounts older than the 9th digit
 *                keep an id without it; newer forms have it).
 *   Every other number is its own key (Colombia, Spain, the US… unchanged). Two phones with one key are
 *   one client: the webhook finds the stored client by the key (one indexed lookup), a form or an import
 *   row with the key of another client is that client.
 * - The database computes the key itself (the generated column of migration 20261129000000_clients_phone_key,
 *   the same rule in SQL), so every writer of clients keeps it; phone.test.ts keeps the two in step.
 */
export function phoneKey(phone: string): string {
  if (phone.length === 13) {
    const prefix = phone.slice(0, 3);
    if (prefix === '521' || prefix === '549') return phone.slice(0, 2) + phone.slice(3);
    if (phone.startsWith('55') && phone[4] === '9') return phone.slice(0, 4) + phone.slice(5);
  }
  return phone;
}

/**
 * A phone as typed ('+52 55 1234 5678', '0054 11 15 1234-5678') in the stored form: digits with the
 * country code, rewritten to E.164 when libphonenumber-js knows the number as valid. Text that is not a
 * phone comes back with only its formatting removed, for validation to refuse.
 */
export function canonicalPhone(input: string): string {
  const digits = normalizePhone(input);
  if (!/^\d{1,17}$/.test(digits)) return digits;
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  return parsed?.isValid() ? parsed.number.slice(1) : digits;
}
