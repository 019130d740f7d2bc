import { foldText } from '@hablabot/contract';
import { type MigrationDb, isPostgres, now, sql } from '../migration-helpers';

/** Duplicate groups read per statement while merging (keyset batches over the key's index). */
export const MERGE_BATCH = 500;

/**
 * One phone, one client (platform/phone.ts says the rule).
 *
 * - `clients.phone_key`: the phone's matching key, computed by the database from `whatsapp_cellphone`
 *   (a generated column: virtual on SQLite, stored on PostgreSQL), so every writer of clients keeps it
 *   and the existing rows have it at once. It folds the mobile variants of one number: Mexico
 *   521 + 10 digits → 52 + 10, Argentina 549 + 10 → 54 + 10, Brazil 55 + area + 9 + 8 digits →
 *   55 + area + 8. Any other phone is its own key.
 * - Clients of one company whose phones share a key are one customer written twice (WhatsApp's id and the
 *   number a person typed). They are merged into the older one (lowest id), nothing lost: the newer
 *   one's messages, conversation (counts added, the newer last message, open if either is, the
 *   assignee kept), segments, list memberships and mass message recipients move to it; its empty
 *   fields (last names, email, avatar, projects, WhatsApp user id, a name that is only the phone) are
 *   filled from the newer one; then the newer one is deleted.
 * - Then `clients_company_phone_key_unique` (company, key): the webhook finds a client by the key with
 *   one indexed lookup, and the database refuses a second client with a variant of a stored phone.
 *   The unique index on (company, phone) stays (the table's order by phone reads it).
 *
 * Down drops the key and its index; merged clients stay merged.
 */
export async function up(db: MigrationDb): Promise<void> {
  const pg = isPostgres(db);
  const c = 'whatsapp_cellphone';
  const key = sql.raw(`case
    when length(${c}) = 13 and substr(${c}, 1, 3) in ('521', '549') then substr(${c}, 1, 2) || substr(${c}, 4)
    when length(${c}) = 13 and substr(${c}, 1, 2) = '55' and substr(${c}, 5, 1) = '9'
      then substr(${c}, 1, 4) || substr(${c}, 6)
    else ${c} end`);
  await sql`alter table clients add column phone_key varchar(32)
    generated always as (${key}) ${sql.raw(pg ? 'stored' : 'virtual')}`.execute(db);
  await db.schema
    .createIndex('clients_phone_key_merge_idx')
    .on('clients')
    .columns(['company_id', 'phone_key'])
    .execute();

  const merges: { keep: number; lose: number }[] = [];
  for (let after: { company_id: number; phone_key: string } | undefined; ; ) {
    let q = db
      .selectFrom('clients')
      .select(['company_id', 'phone_key', sql<number>`min(id)`.as('keep')])
      .groupBy(['company_id', 'phone_key'])
      .having(sql`count(*)`, '>', 1)
      .orderBy('company_id')
      .orderBy('phone_key')
      .limit(MERGE_BATCH);
    if (after) {
      const a = after;
      q = q.where((eb) =>
        eb.or([
          eb('company_id', '>', a.company_id),
          eb.and([eb('company_id', '=', a.company_id), eb('phone_key', '>', a.phone_key)]),
        ]),
      );
    }
    const groups = await q.execute();
    for (const g of groups) {
      const others = await db
        .selectFrom('clients')
        .select('id')
        .where('company_id', '=', g.company_id)
        .where('phone_key', '=', g.phone_key)
        .where('id', '!=', g.keep)
        .orderBy('id')
        .execute();
      for (const o of others) {
        await mergeClient(db, g.company_id, Number(g.keep), o.id);
        merges.push({ keep: Number(g.keep), lose: o.id });
      }
    }
    if (groups.length < MERGE_BATCH) break;
    after = groups[groups.length - 1];
  }
  await moveRecipients(db, merges);
  for (const m of merges) await db.deleteFrom('clients').where('id', '=', m.lose).execute();

  await db.schema.dropIndex('clients_phone_key_merge_idx').execute();
  await db.schema
    .createIndex('clients_company_phone_key_unique')
    .unique()
    .on('clients')
    .columns(['company_id', 'phone_key'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('clients_company_phone_key_unique').execute();
  await db.schema.alterTable('clients').dropColumn('phone_key').execute();
}

type Time = string | Date | null;
const ms = (t: Time) => (t === null ? null : new Date(t).getTime());
/** The later of two times (null when both are). */
const later = (a: Time, b: Time) => ((ms(b) ?? -1) > (ms(a) ?? -1) ? b : a);
const earlier = (a: Time, b: Time) => ((ms(b) ?? Infinity) < (ms(a) ?? Infinity) ? b : a);

/** Moves everything of client `lose` to client `keep` (same company); `lose` is deleted afterwards. */
async function mergeClient(db: MigrationDb, companyId: number, keep: number, lose: number): Promise<void> {
  await db
    .updateTable('messages')
    .set({ client_id: keep })
    .where('company_id', '=', companyId)
    .where('client_id', '=', lose)
    .execute();
  await mergeConversation(db, keep, lose);
  for (const [table, other] of [
    ['client_segments', 'segment_id'],
    ['client_list_members', 'list_id'],
  ] as const) {
    await sql`insert into ${sql.table(table)} (client_id, ${sql.ref(other)})
      select ${keep}, ${sql.ref(other)} from ${sql.table(table)} l
      where l.client_id = ${lose} and not exists (
        select 1 from ${sql.table(table)} k where k.client_id = ${keep} and k.${sql.ref(other)} = l.${sql.ref(other)})`.execute(
      db,
    );
  }
  await fillEmptyFields(db, keep, lose);
}

/**
 * One conversation for the merged client: the newer client's moves over when the older has none; when
 * both have one they become one (counts added, the newer last message and customer message, open if
 * either is open, the older's assignee else the newer's, the bot paused if either paused it).
 */
async function mergeConversation(db: MigrationDb, keep: number, lose: number): Promise<void> {
  const rows = await db
    .selectFrom('conversations')
    .selectAll()
    .where('client_id', 'in', [keep, lose])
    .execute();
  const k = rows.find((r) => r.client_id === keep);
  const l = rows.find((r) => r.client_id === lose);
  if (!l) return;
  if (!k) {
    await db.updateTable('conversations').set({ client_id: keep }).where('id', '=', l.id).execute();
    return;
  }
  const newer =
    ms(later(k.last_message_at, l.last_message_at)) === ms(l.last_message_at) && l.last_message_at ? l : k;
  const open = k.status === 'open' || l.status === 'open';
  await db.deleteFrom('conversations').where('id', '=', l.id).execute();
  await db
    .updateTable('conversations')
    .set({
      status: open ? 'open' : k.status,
      resolved_at: open ? null : later(k.resolved_at, l.resolved_at),
      assignee_user_id: k.assignee_user_id ?? l.assignee_user_id,
      channel_id: k.channel_id ?? l.channel_id,
      unread_count: Number(k.unread_count) + Number(l.unread_count),
      messages_count: Number(k.messages_count) + Number(l.messages_count),
      last_message_content: newer.last_message_content,
      last_message_at: newer.last_message_at,
      customer_last_message_at: later(k.customer_last_message_at, l.customer_last_message_at),
      bot_paused: Math.max(Number(k.bot_paused), Number(l.bot_paused)),
      created_at: earlier(k.created_at, l.created_at),
      updated_at: now(),
    })
    .where('id', '=', k.id)
    .execute();
}

/** The older client's empty fields take the newer one's; the derived sort and search columns follow. */
async function fillEmptyFields(db: MigrationDb, keep: number, lose: number): Promise<void> {
  const [k, l] = await Promise.all(
    [keep, lose].map((id) =>
      db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    ),
  );
  // A client made by a webhook without a profile name is named by its phone.
  const name = k.name === k.whatsapp_cellphone && l.name !== l.whatsapp_cellphone ? l.name : k.name;
  const lastNames = k.last_names || l.last_names;
  const email = k.email || l.email;
  await db
    .updateTable('clients')
    .set({
      name,
      last_names: lastNames,
      email,
      avatar: k.avatar || l.avatar,
      projects: k.projects || l.projects,
      wa_user_id: k.wa_user_id || l.wa_user_id,
      created_at: earlier(k.created_at, l.created_at),
      // As the clients repository keeps them (modules/clients/client-rows.ts `derivedColumns`).
      name_sort: `${foldText(name)}\u0001${foldText(lastNames)}`,
      search_text: foldText(`${name} ${lastNames} ${email ?? ''}`),
      updated_at: now(),
    })
    .where('id', '=', keep)
    .execute();
}

/**
 * Mass message recipients name their client in a plain column without an index: moved for many merges
 * per statement (one scan of the table per MERGE_BATCH merges).
 */
async function moveRecipients(db: MigrationDb, merges: { keep: number; lose: number }[]): Promise<void> {
  for (let i = 0; i < merges.length; i += MERGE_BATCH) {
    const part = merges.slice(i, i + MERGE_BATCH);
    // Ids as literals: integers read from the table, and typed as such inside the case on PostgreSQL.
    const cases = sql.join(
      part.map((m) => sql`when ${sql.lit(m.lose)} then ${sql.lit(m.keep)}`),
      sql` `,
    );
    await sql`update mass_message_recipients set client_id = case client_id ${cases} end
      where client_id in (${sql.join(part.map((m) => sql.lit(m.lose)))})`.execute(db);
  }
}
