/**
 * The template changes of the WhatsApp Cloud API's webhook, as we read them: the fields
 * `message_template_status_update` (Meta's review: APPROVED, REJECTED with a reason, PAUSED, DISABLED …)
 * and `message_template_quality_update` (the quality rating). They name the WhatsApp Business Account
 * (`entry[].id`), not a phone number. Lenient like webhook.ts: an entry of an unexpected shape is left out.
 */

export interface TemplateUpdate {
  /** The WhatsApp Business Account (`entry[].id`). */
  accountId: string;
  /** Meta's id of the template. */
  metaId: string;
  name: string | null;
  language: string | null;
  /** The new status (upper case); absent for a quality change. */
  status?: string;
  /** Meta's reason (REJECTED, PAUSED, DISABLED …): its words, null for none ('NONE'). */
  reason?: string | null;
  /** The new quality rating: GREEN, YELLOW, RED, UNKNOWN. */
  quality?: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;
const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** Meta's reason as words for the admin: its title and description when it gave them, else its code. */
function reasonOf(value: Json): string | null {
  const info = isObject(value.other_info) ? value.other_info : null;
  const described = info ? [str(info.title), str(info.description)].filter(Boolean).join(': ') : '';
  if (described) return described.slice(0, 1000);
  const code = str(value.reason);
  return code && code.toUpperCase() !== 'NONE' ? code.slice(0, 1000) : null;
}

export const TEMPLATE_WEBHOOK_FIELDS = ['message_template_status_update', 'message_template_quality_update'];

/** The template changes of a webhook body (already parsed from JSON); none for any other body. */
export function readTemplateUpdates(body: unknown): TemplateUpdate[] {
  if (!isObject(body) || body.object !== 'whatsapp_business_account') return [];
  const updates: TemplateUpdate[] = [];
  for (const entry of objects(body.entry)) {
    const accountId = str(entry.id);
    if (!accountId) continue;
    for (const change of objects(entry.changes)) {
      if (!TEMPLATE_WEBHOOK_FIELDS.includes(String(change.field))) continue;
      const value = isObject(change.value) ? change.value : null;
      const metaId = value ? str(value.message_template_id) : null;
      if (!value || !metaId) continue;
      const base = {
        accountId,
        metaId,
        name: str(value.message_template_name),
        language: str(value.message_template_language),
      };
      if (change.field === 'message_template_status_update') {
        const status = str(value.event)?.toUpperCase();
        if (status) updates.push({ ...base, status: status.slice(0, 32), reason: reasonOf(value) });
      } else {
        const quality = str(value.new_quality_score)?.toUpperCase();
        if (quality) updates.push({ ...base, quality: quality.slice(0, 16) });
      }
    }
  }
  return updates;
}
