import { type MigrationDb, withId, withTimestamps } from '../migration-helpers';

/** The media library: one row per uploaded file of a company; the bytes live in file storage. */
export async function up(db: MigrationDb): Promise<void> {
  await withTimestamps(
    db,
    withId(db, db.schema.createTable('media'))
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
      // Who uploaded it; kept when that user is deleted.
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      // The name it was uploaded with (cleaned), for display and search.
      .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
      // The name folded (lower case, no accents): what the search matches.
      .addColumn('name_key', 'varchar(255)', (c) => c.notNull())
      // Where the bytes are in storage: a random name, e.g. 'a3/a3f0…9c.png'.
      .addColumn('storage_key', 'varchar(100)', (c) => c.notNull().unique())
      .addColumn('mime_type', 'varchar(127)', (c) => c.notNull())
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('sha256', 'varchar(64)', (c) => c.notNull()),
  ).execute();
  // The library's order (newest first) per company.
  await db.schema.createIndex('media_company_id_idx').on('media').columns(['company_id', 'id']).execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('media').execute();
}
