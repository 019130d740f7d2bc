import { MESSAGE_STATUS } from '@hablabot/contract';
import type { Executor } from '../../db/transactions';
import { now } from './message-rows';

/** A recipient WhatsApp accepted, as its conversation keeps it. */
export interface CampaignMessage {
  clientId: number;
  massMessageId: number;
  wamid: string;
  /** The template's text as the recipient read it. */
  content: string;
  phone: string;
  /** The template request (JSON), so a resend from the chat sends the template again. */
  outboundRequest: string;
  createdAt: string;
}

/**
 * Most messages one statement writes: each row binds 21 values, well under both engines' limits.
 */
export const CAMPAIGN_BATCH_MAX = 200;

/**
 * Keeps a batch of one company's mass messages' conversation messages in their conversations, in the caller's transaction,
 * with the statements one message would take, each written once for the whole batch: the messages
 * (the company's `admin` messages, author `campaign`, status `sent`; one whose wamid the company already
 * has is skipped, as `insertMessage` does), the first entry of each one's status history, and each
 * conversation's last message (only when it is newer than the one shown; the counting trigger on
 * messages makes the conversation if there was none). Returns the messages written, with their client.
 */
export async function insertCampaignMessages(
  db: Executor,
  companyId: number,
  batch: CampaignMessage[],
): Promise<{ id: number; clientId: number; wamid: string }[]> {
  if (!batch.length) return [];
  if (batch.length > CAMPAIGN_BATCH_MAX) throw new Error(`at most ${CAMPAIGN_BATCH_MAX} messages at once`);
  const updatedAt = now();
  const rows = await db
    .insertInto('messages')
    .values(
      batch.map((m) => ({
        company_id: companyId,
        client_id: m.clientId,
        wamid: m.wamid,
        sender_type: 'admin' as const,
        message_type: 'text',
        wa_type: 'template',
        content: m.content,
        phone: m.phone,
        context_wamid: null,
        media_id: null,
        media_mime_type: null,
        media_file_name: null,
        media_caption: null,
        media_sha256: null,
        status: MESSAGE_STATUS.sent,
        outbound_request: m.outboundRequest,
        error_message: null,
        author_kind: 'campaign',
        author_user_id: null,
        author_mass_message_id: m.massMessageId,
        reply_to_id: null,
        created_at: m.createdAt,
        updated_at: updatedAt,
      })),
    )
    .onConflict((oc) => oc.columns(['company_id', 'wamid']).doNothing())
    .returning(['id', 'client_id', 'wamid'])
    .execute();
  if (!rows.length) return [];
  const byWamid = new Map(batch.map((m) => [m.wamid, m]));
  await db
    .insertInto('message_statuses')
    .values(
      rows.map((r) => ({
        message_id: r.id,
        status: 'sent',
        at: byWamid.get(r.wamid!)!.createdAt,
        error_code: null,
        error_title: null,
      })),
    )
    .execute();
  // A client twice in the batch (two sends at once) shows its newest message only.
  const newest = new Map<number, { id: number; at: string }>();
  for (const r of rows) {
    const at = byWamid.get(r.wamid!)!.createdAt;
    const shown = newest.get(r.client_id);
    if (!shown || shown.at <= at) newest.set(r.client_id, { id: r.id, at });
  }
  await db
    .updateTable('conversations')
    .from('messages')
    .set((eb) => ({
      last_message_content: eb.ref('messages.content'),
      last_message_at: eb.ref('messages.created_at'),
    }))
    .where(
      'messages.id',
      'in',
      [...newest.values()].map((n) => n.id),
    )
    .where('messages.company_id', '=', companyId)
    .where('conversations.company_id', '=', companyId)
    .whereRef('conversations.client_id', '=', 'messages.client_id')
    .where((eb) =>
      eb.or([
        eb('conversations.last_message_at', 'is', null),
        eb('conversations.last_message_at', '<=', eb.ref('messages.created_at')),
      ]),
    )
    .execute();
  return rows.map((r) => ({ id: r.id, clientId: r.client_id, wamid: r.wamid! }));
}
