import type { Executor } from '../../db/transactions';

/** The report's text of a recipient skipped because the customer opted out ('Omitido: se dio de baja'). */
export const SKIPPED_OPTED_OUT = 'mass.skipped_opted_out';

/**
 * Consent in mass sends: the send's queued recipients whose client opted out of campaigns
 * (`clients.opted_out_at`) become `skipped` with the reason `opted_out`, in one statement, so they are
 * never claimed and WhatsApp never receives them. Run when the send is created and when a scheduled
 * send starts (a customer may opt out meanwhile). How many were skipped.
 */
export async function skipOptedOutRecipients(
  db: Executor,
  send: { id: number; company_id: number },
  at: string,
): Promise<number> {
  const result = await db
    .updateTable('mass_message_recipients')
    .set({ status: 'skipped', skip_reason: 'opted_out', error_message: SKIPPED_OPTED_OUT, updated_at: at })
    .where('mass_message_id', '=', send.id)
    .where('status', '=', 'queued')
    .where('client_id', 'in', (eb) =>
      eb
        .selectFrom('clients')
        .select('id')
        .where('company_id', '=', send.company_id)
        .where('opted_out_at', 'is not', null),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
