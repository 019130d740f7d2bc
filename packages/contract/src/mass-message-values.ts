/**
 * The values a mass message's form writes: recipient tokens inside its placeholders' values, and the
 * schedule's date and time (mass-messages.schema.ts checks them).
 */

/**
 * Recipient tokens: written inside a placeholder's value ('Hola {{Nombre}}'), replaced for each
 * recipient by that client's field when the message is sent. Matched ignoring case and spaces inside the
 * braces ('{{ nombre }}'). A token whose field is empty for a client (no email, say) leaves that value
 * blank; a value that ends up blank fails that recipient with a reason, it is not sent.
 */
export const MASS_RECIPIENT_TOKENS = {
  Nombre: 'name',
  Apellido: 'last_names',
  Celular: 'whatsapp_cellphone',
  Correo: 'email',
} as const;
export type MassRecipientToken = keyof typeof MASS_RECIPIENT_TOKENS;
/** The text a quick insert puts in a field: '{{Nombre}}' … */
export const massRecipientTokenText = (token: MassRecipientToken) => `{{${token}}}`;

const TOKEN_PATTERN = /\{\{\s*(Nombre|Apellido|Celular|Correo)\s*\}\}/giu;

/** The client fields the tokens read. */
export type MassRecipientFields = {
  name: string;
  last_names: string;
  whatsapp_cellphone: string;
  email: string | null;
};

/** A value with its recipient tokens replaced by the client's fields ('Hola {{Nombre}}' → 'Hola Ana'). */
export function fillRecipientTokens(value: string, client: MassRecipientFields): string {
  return value.replace(TOKEN_PATTERN, (_whole, token: string) => {
    const key = (Object.keys(MASS_RECIPIENT_TOKENS) as MassRecipientToken[]).find(
      (k) => k.toLowerCase() === token.toLowerCase(),
    ) as MassRecipientToken;
    return client[MASS_RECIPIENT_TOKENS[key]] ?? '';
  });
}

/**
 * A schedule's text: an ISO-8601 date and time as a datetime-local input gives it ('2026-11-25T10:30',
 * seconds and milliseconds optional), optionally with a zone, 'Z' or an offset of at most 14 hours
 * ('2026-11-25T10:30:00.000Z', '2026-11-25T10:30-05:00'). Each part within its range: month 01–12,
 * hour 00–23, minute and second 00–59.
 */
const SCHEDULE_DATETIME =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,3})?)?(Z|[+-](?:0\d|1[0-3]):[0-5]\d|[+-]14:00)?$/;

/**
 * True for a schedule text that names a real moment: the format above and a day that exists in its
 * month ('2026-02-30' and '2027-13-45T99:99' are refused, never rolled over into another date).
 */
export function isScheduleDateTime(text: string): boolean {
  const m = SCHEDULE_DATETIME.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** True when a schedule text carries its own zone ('Z' or an offset). */
export const scheduleHasZone = (text: string) => /(Z|[+-]\d{2}:\d{2})$/.test(text);
