import { type MigrationDb, timestampType } from '../migration-helpers';

/**
 * Consent and the hand-off words.
 *
 * - `inbox_settings` gains the words a customer writes to stop or resume campaigns
 *   (`opt_out_keywords`, `opt_in_keywords`, JSON arrays of text), the optional confirmation sent back
 *   (`opt_out_reply`, null: none), the phrases that ask for a person (`handoff_phrases`, JSON array) and
 *   what the customer is told then (`handoff_message`). Rows saved before this take the defaults below.
 * - `clients.opted_out_at`: when the customer asked not to receive campaigns (null: they may).
 * - `mass_message_recipients.skip_reason`: why a recipient was `skipped` (not sent at all), e.g.
 *   `opted_out`.
 */
export async function up(db: MigrationDb): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .alterTable('inbox_settings')
    .addColumn('opt_out_keywords', 'text', (c) => c.notNull().defaultTo('["STOP","BAJA","CANCELAR","ALTO"]'))
    .execute();
  await db.schema
    .alterTable('inbox_settings')
    .addColumn('opt_in_keywords', 'text', (c) => c.notNull().defaultTo('["START","ALTA","SUSCRIBIR"]'))
    .execute();
  await db.schema
    .alterTable('inbox_settings')
    .addColumn('opt_out_reply', 'text', (c) =>
      c.defaultTo(
        'Listo, ya no te enviaremos mensajes de campañas. Si quieres volver a recibirlos, escribe ALTA.',
      ),
    )
    .execute();
  await db.schema
    .alterTable('inbox_settings')
    .addColumn('handoff_phrases', 'text', (c) =>
      c.notNull().defaultTo('["agente","asesor","humano","persona","hablar con alguien","human","agent"]'),
    )
    .execute();
  await db.schema
    .alterTable('inbox_settings')
    .addColumn('handoff_message', 'text', (c) =>
      c.notNull().defaultTo('Te comunico con una persona del equipo.'),
    )
    .execute();
  await db.schema.alterTable('clients').addColumn('opted_out_at', ts).execute();
  await db.schema.alterTable('mass_message_recipients').addColumn('skip_reason', 'varchar(32)').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('mass_message_recipients').dropColumn('skip_reason').execute();
  await db.schema.alterTable('clients').dropColumn('opted_out_at').execute();
  for (const column of [
    'handoff_message',
    'handoff_phrases',
    'opt_out_reply',
    'opt_in_keywords',
    'opt_out_keywords',
  ])
    await db.schema.alterTable('inbox_settings').dropColumn(column).execute();
}
