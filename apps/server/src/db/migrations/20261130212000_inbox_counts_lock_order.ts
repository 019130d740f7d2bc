import { type MigrationDb, isPostgres, sql } from '../migration-helpers';

/**
 * `inbox_counts` takes its row locks in one order (PostgreSQL).
 *
 * A conversation whose assignee or status changes takes one from the counter row it leaves and adds one to
 * the row it joins, locking both until its transaction ends. Done "leave, then join", two changes in
 * opposite directions at the same time (one conversation from Ana to Beto, another from Beto to Ana) each
 * held one row and waited for the other's: a deadlock, and PostgreSQL killed one of them. The trigger now
 * touches the two rows in the order of their key (status, then assignee; 0 for nobody), whichever it
 * leaves or joins, so every transaction waits for the same row first and none can hold what another
 * already waits for. SQLite writes one transaction at a time and keeps its triggers as they were.
 */
const less = (r: string) => `
    update inbox_counts set n = n - 1
    where ${r}.last_message_at is not null and company_id = ${r}.company_id and status = ${r}.status
      and assignee_user_id = coalesce(${r}.assignee_user_id, 0)`;
const more = (r: string) => `
    insert into inbox_counts (company_id, status, assignee_user_id, n)
    select ${r}.company_id, ${r}.status, coalesce(${r}.assignee_user_id, 0), 1
    where ${r}.last_message_at is not null
    on conflict (company_id, status, assignee_user_id) do update set n = inbox_counts.n + 1`;

export async function up(db: MigrationDb): Promise<void> {
  if (!isPostgres(db)) return;
  await sql
    .raw(`
      create or replace function inbox_counts_on_conversation() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then ${less('old')}; end if;
        if tg_op = 'INSERT' then ${more('new')}; end if;
        if tg_op = 'UPDATE' then
          if (old.company_id, old.status, coalesce(old.assignee_user_id, 0))
              <= (new.company_id, new.status, coalesce(new.assignee_user_id, 0)) then
            ${less('old')};
            ${more('new')};
          else
            ${more('new')};
            ${less('old')};
          end if;
        end if;
        return null;
      end
      $$`)
    .execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (!isPostgres(db)) return;
  await sql
    .raw(`
      create or replace function inbox_counts_on_conversation() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then ${less('old')}; end if;
        if tg_op in ('UPDATE', 'INSERT') then ${more('new')}; end if;
        return null;
      end
      $$`)
    .execute(db);
}
