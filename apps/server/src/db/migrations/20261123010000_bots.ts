import { type MigrationDb, withId, withTimestamps } from '../migration-helpers';

/**
 * Bots (a company's chatbot personalities), their instructions, and the segments each instruction
 * applies to. Deleting a bot deletes its instructions; deleting a segment takes it off instructions.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withTimestamps(
    db,
    withId(db, db.schema.createTable('bots'))
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
      .addColumn('bot_name', 'varchar(100)', (c) => c.notNull())
      // The bot's system prompt.
      .addColumn('personality', 'text', (c) => c.notNull())
      // 1 active, 0 inactive.
      .addColumn('state', 'integer', (c) => c.notNull().defaultTo(1)),
  ).execute();
  // The live bot (lowest id with state 1) and the cards' list are read from this index.
  await db.schema
    .createIndex('bots_company_state_idx')
    .on('bots')
    .columns(['company_id', 'state', 'id'])
    .execute();

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('instructions'))
      .addColumn('bot_id', 'integer', (c) => c.notNull().references('bots.id').onDelete('cascade'))
      // The instruction's name and its description.
      .addColumn('ask', 'varchar(100)', (c) => c.notNull())
      .addColumn('reply', 'varchar(1000)', (c) => c.notNull()),
  ).execute();
  await db.schema
    .createIndex('instructions_bot_id_idx')
    .on('instructions')
    .columns(['bot_id', 'id'])
    .execute();

  await db.schema
    .createTable('instruction_segments')
    .addColumn('instruction_id', 'integer', (c) =>
      c.notNull().references('instructions.id').onDelete('cascade'),
    )
    .addColumn('segment_id', 'integer', (c) => c.notNull().references('segments.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('instruction_segments_pk', ['instruction_id', 'segment_id'])
    .execute();
  await db.schema
    .createIndex('instruction_segments_segment_id_idx')
    .on('instruction_segments')
    .column('segment_id')
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('instruction_segments').execute();
  await db.schema.dropTable('instructions').execute();
  await db.schema.dropTable('bots').execute();
}
