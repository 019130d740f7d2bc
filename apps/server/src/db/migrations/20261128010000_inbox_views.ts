import { type MigrationDb, isPostgres, sql, timestampType } from '../migration-helpers';

/**
 * The inbox's views and auto-assign.
 *
 * - `conversations_assignee_view_idx` (company, status, assignee, last message time desc, client): the
 *   views 'Míos' and 'Sin asignar' read a page straight from it, in their order.
 * - `inbox_counts`: how many listed conversations (those with a message) a company has by status and
 *   assignee (0: nobody), kept by a trigger on conversations whoever writes them — the tabs' counts and
 *   a view's size are read from a few rows instead of counting up to 50,000 index entries per request.
 *   The trigger touches it only when a conversation's status, assignee or "has a message" changes, or
 *   one is added or removed (a client deleted, a user deleted sets the assignee to null).
 * - `inbox_agent_turns`: when auto-assign last gave each agent a conversation, so agents with the same
 *   load take turns (the one served longest ago goes first). A row per agent once served; it goes with
 *   the user.
 */
export async function up(db: MigrationDb): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createIndex('conversations_assignee_view_idx')
    .on('conversations')
    .columns(['company_id', 'status', 'assignee_user_id', 'last_message_at desc', 'client_id'])
    .execute();
  await db.schema
    .createTable('inbox_agent_turns')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('last_assigned_at', timestampType(db), (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('inbox_counts')
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    // 0: nobody (a primary key column cannot be null).
    .addColumn('assignee_user_id', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('inbox_counts_pk', ['company_id', 'status', 'assignee_user_id'])
    .execute();

  // One less for the row as it was, one more for the row as it is (each only when it is listed).
  const less = (r: string) => `
    update inbox_counts set n = n - 1
    where ${r}.last_message_at is not null and company_id = ${r}.company_id and status = ${r}.status
      and assignee_user_id = coalesce(${r}.assignee_user_id, 0)`;
  const more = (r: string) => `
    insert into inbox_counts (company_id, status, assignee_user_id, n)
    select ${r}.company_id, ${r}.status, coalesce(${r}.assignee_user_id, 0), 1
    where ${r}.last_message_at is not null
    on conflict (company_id, status, assignee_user_id) do update set n = inbox_counts.n + 1`;
  const changed = `old.status <> new.status
    or coalesce(old.assignee_user_id, 0) <> coalesce(new.assignee_user_id, 0)
    or (old.last_message_at is null) <> (new.last_message_at is null)`;
  if (pg) {
    await sql
      .raw(`
      create function inbox_counts_on_conversation() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then ${less('old')}; end if;
        if tg_op in ('UPDATE', 'INSERT') then ${more('new')}; end if;
        return null;
      end
      $$`)
      .execute(db);
    await sql
      .raw(`create trigger inbox_counts_on_insert after insert or delete on conversations
        for each row execute function inbox_counts_on_conversation()`)
      .execute(db);
    await sql
      .raw(`create trigger inbox_counts_on_update after update on conversations
        for each row when (${changed}) execute function inbox_counts_on_conversation()`)
      .execute(db);
  } else {
    await sql
      .raw(`create trigger inbox_counts_on_insert after insert on conversations begin ${more('new')}; end`)
      .execute(db);
    await sql
      .raw(`create trigger inbox_counts_on_delete after delete on conversations begin ${less('old')}; end`)
      .execute(db);
    await sql
      .raw(`create trigger inbox_counts_on_update after update on conversations when ${changed}
        begin ${less('old')}; ${more('new')}; end`)
      .execute(db);
  }
  await sql`
    insert into inbox_counts (company_id, status, assignee_user_id, n)
    select company_id, status, coalesce(assignee_user_id, 0), count(*) from conversations
    where last_message_at is not null
    group by company_id, status, coalesce(assignee_user_id, 0)`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger inbox_counts_on_insert on conversations`.execute(db);
    await sql`drop trigger inbox_counts_on_update on conversations`.execute(db);
    await sql`drop function inbox_counts_on_conversation()`.execute(db);
  } else {
    for (const name of ['inbox_counts_on_insert', 'inbox_counts_on_delete', 'inbox_counts_on_update'])
      await sql`drop trigger ${sql.raw(name)}`.execute(db);
  }
  await db.schema.dropTable('inbox_counts').execute();
  await db.schema.dropTable('inbox_agent_turns').execute();
  await db.schema.dropIndex('conversations_assignee_view_idx').execute();
}
