import { type MigrationDb, withId, withTimestamps } from '../migration-helpers';

/**
 * WhatsApp message templates of each company, as the last sync read them from its WhatsApp Business
 * Account.
 *
 * - One row per (company, name, language): WhatsApp names a template by both, and a sync updates the row
 *   in place, so a template keeps its id across syncs.
 * - `meta_id` is WhatsApp's id of the template; `components` its HEADER, BODY, FOOTER and BUTTONS parts
 *   as JSON text.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withTimestamps(
    db,
    withId(db, db.schema.createTable('message_templates'))
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
      .addColumn('meta_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'varchar(512)', (c) => c.notNull())
      .addColumn('language', 'varchar(16)', (c) => c.notNull())
      .addColumn('status', 'varchar(32)', (c) => c.notNull())
      .addColumn('category', 'varchar(32)', (c) => c.notNull())
      .addColumn('components', 'text', (c) => c.notNull())
      .addUniqueConstraint('message_templates_company_name_language_unique', [
        'company_id',
        'name',
        'language',
      ]),
  ).execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('message_templates').execute();
}
