import type { ClientList, ClientListInput, ClientListMember } from '@hablabot/contract';
import { type Expression, PostgresAdapter, sql } from 'kysely';
import type { Executor } from '../../db/transactions';
import { atomically } from '../../db/transactions';
import { invalid, notFound } from '../../platform/errors';
import { fold } from '../clients/fold';

const PHONE_LIKE = /^[\d\s+\-.()/]+$/;
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const now = () => new Date().toISOString();

/**
 * Client lists: a company's named sets of its own clients, the audience of mass messages. A list always has
 * at least one client; every member is a client of the list's company (checked on each write, so a list
 * never reaches another company's clients). Deleting a client takes it out of every list.
 */
export function createClientLists(deps: { db: Executor }) {
  const { db } = deps;

  /** How many members each list has (a count per list on the members' primary key). */
  const membersCount = (listId: Expression<number>) =>
    db
      .selectFrom('client_list_members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('client_list_members.list_id', '=', listId);

  function toList(row: {
    id: number;
    name: string;
    clients_count: number | string | bigint | null;
    created_at: string;
    updated_at: string;
  }): ClientList {
    return {
      id: row.id,
      name: row.name,
      clients_count: Number(row.clients_count ?? 0),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  /** Writes the list's members: exactly `client_ids` plus the clients of `segment_ids`. */
  async function writeMembers(tx: Executor, companyId: number, listId: number, input: ClientListInput) {
    const ids = [...new Set(input.client_ids)].sort((a, b) => a - b);
    const segmentIds = [...new Set(input.segment_ids ?? [])];
    if (segmentIds.length) {
      const found = await tx
        .selectFrom('segments')
        .select('id')
        .where('company_id', '=', companyId)
        .where('id', 'in', segmentIds)
        .execute();
      if (found.length !== segmentIds.length) throw invalid('segment_ids', 'list_clients.unknown_segments');
    }
    await tx.deleteFrom('client_list_members').where('list_id', '=', listId).execute();
    if (ids.length) {
      // The picked ids travel as one array parameter and only the company's clients among them are
      // inserted, in one statement: fewer rows than ids means some were not the company's.
      const picked =
        tx.getExecutor().adapter instanceof PostgresAdapter
          ? sql<boolean>`clients.id = any(${ids}::int[])`
          : sql<boolean>`clients.id in (select value from json_each(${JSON.stringify(ids)}))`;
      const inserted = await tx
        .insertInto('client_list_members')
        .columns(['list_id', 'client_id'])
        .expression(
          tx
            .selectFrom('clients')
            .select([sql<number>`cast(${listId} as integer)`.as('list_id'), 'clients.id'])
            .where('clients.company_id', '=', companyId)
            .where(picked),
        )
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== ids.length)
        throw invalid('client_ids', 'list_clients.unknown_clients');
    }
    if (segmentIds.length) {
      // Every current client of the segments, in one statement however many there are.
      await tx
        .insertInto('client_list_members')
        .columns(['list_id', 'client_id'])
        .expression(
          tx
            .selectFrom('client_segments')
            .innerJoin('clients', 'clients.id', 'client_segments.client_id')
            .select([sql<number>`cast(${listId} as integer)`.as('list_id'), 'client_segments.client_id'])
            .where('clients.company_id', '=', companyId)
            .where('client_segments.segment_id', 'in', segmentIds)
            .distinct(),
        )
        .onConflict((oc) => oc.columns(['list_id', 'client_id']).doNothing())
        .execute();
    }
    const count = await tx
      .selectFrom('client_list_members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('list_id', '=', listId)
      .executeTakeFirstOrThrow();
    if (Number(count.n) === 0) throw invalid('client_ids', 'list_clients.clients_required');
  }

  async function find(companyId: number, id: number) {
    return db
      .selectFrom('client_lists')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async function get(companyId: number, id: number): Promise<ClientList> {
    const row = await db
      .selectFrom('client_lists')
      .select(['id', 'name', 'created_at', 'updated_at'])
      .select((eb) => membersCount(eb.ref('client_lists.id')).as('clients_count'))
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('list_clients.not_found');
    return toList(row);
  }

  return {
    /**
     * One page of the company's lists by name, each with its member count (never the members: those
     * are paged by `members`); `search` matches part of the name, ignoring case.
     */
    async list(
      companyId: number,
      query: { search?: string; page: number; per_page: number },
    ): Promise<{ data: ClientList[]; total: number }> {
      let q = db.selectFrom('client_lists').where('company_id', '=', companyId);
      const text = (query.search ?? '').trim().toLowerCase();
      if (text) q = q.where(sql<boolean>`lower(client_lists.name) like ${containsPattern(text)} escape '\\'`);
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .select(['id', 'name', 'created_at', 'updated_at'])
        .select((eb) => membersCount(eb.ref('client_lists.id')).as('clients_count'))
        .orderBy('name')
        .orderBy('id')
        .limit(query.per_page)
        .offset((query.page - 1) * query.per_page)
        .execute();
      return { data: rows.map(toList), total: Number(total.n) };
    },

    get,
    find,

    async create(companyId: number, input: ClientListInput): Promise<ClientList> {
      const id = await atomically(db, async (tx) => {
        const at = now();
        const row = await tx
          .insertInto('client_lists')
          .values({ company_id: companyId, name: input.name, created_at: at, updated_at: at })
          .returning('id')
          .executeTakeFirstOrThrow();
        await writeMembers(tx, companyId, row.id, input);
        return row.id;
      });
      return get(companyId, id);
    },

    async update(companyId: number, id: number, input: ClientListInput): Promise<ClientList> {
      await atomically(db, async (tx) => {
        const updated = await tx
          .updateTable('client_lists')
          .set({ name: input.name, updated_at: now() })
          .where('company_id', '=', companyId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) throw notFound('list_clients.not_found');
        await writeMembers(tx, companyId, id, input);
      });
      return get(companyId, id);
    },

    async remove(companyId: number, id: number): Promise<void> {
      const deleted = await db
        .deleteFrom('client_lists')
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw notFound('list_clients.not_found');
    },

    /** One page of a list's members, by id, optionally searched like the client table. */
    async members(
      companyId: number,
      id: number,
      query: { search?: string; page: number; per_page: number },
    ): Promise<{ data: ClientListMember[]; total: number }> {
      if (!(await find(companyId, id))) throw notFound('list_clients.not_found');
      let q = db
        .selectFrom('client_list_members')
        .innerJoin('clients', 'clients.id', 'client_list_members.client_id')
        .where('client_list_members.list_id', '=', id)
        .where('clients.company_id', '=', companyId);
      const text = fold(query.search ?? '');
      if (text) {
        const digits = PHONE_LIKE.test(text) ? text.replace(/\D/g, '') : '';
        q = q.where((eb) =>
          eb.or([
            sql<boolean>`clients.search_text like ${containsPattern(text)} escape '\\'`,
            ...(digits ? [sql<boolean>`clients.whatsapp_cellphone like ${containsPattern(digits)}`] : []),
          ]),
        );
      }
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const data = await q
        .select([
          'clients.id',
          'clients.name',
          'clients.last_names',
          'clients.whatsapp_cellphone',
          'clients.email',
        ])
        .orderBy('clients.id')
        .limit(query.per_page)
        .offset((query.page - 1) * query.per_page)
        .execute();
      return { data, total: Number(total.n) };
    },
  };
}

export type ClientLists = ReturnType<typeof createClientLists>;
