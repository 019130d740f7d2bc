import type { ClientList, ClientListInput, ClientListMember } from '@hablabot/contract';
import { PostgresAdapter, sql } from 'kysely';
import type { Executor } from '../../db/transactions';
import { atomically } from '../../db/transactions';
import { invalid, notFound } from '../../platform/errors';
import { fold } from '../clients/fold';

/** Rows or ids per statement: far below both engines' bound-parameter limits. */
const CHUNK = 500;
const PHONE_LIKE = /^[\d\s+\-.()/]+$/;
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const now = () => new Date().toISOString();

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Client lists: a company's named sets of its own clients, the audience of mass sends. A list always has
 * at least one client; every member is a client of the list's company (checked on each write, so a list
 * never reaches another company's clients). Deleting a client takes it out of every list.
 */
export function createClientLists(deps: { db: Executor }) {
  const { db } = deps;

  async function membersOf(listIds: number[]): Promise<Map<number, number[]>> {
    const members = new Map<number, number[]>(listIds.map((id) => [id, []]));
    for (const part of chunks(listIds)) {
      const rows = await db
        .selectFrom('client_list_members')
        .select(['list_id', 'client_id'])
        .where('list_id', 'in', part)
        .orderBy('list_id')
        .orderBy('client_id')
        .execute();
      for (const r of rows) members.get(r.list_id)?.push(r.client_id);
    }
    return members;
  }

  function toList(
    row: { id: number; name: string; created_at: string; updated_at: string },
    ids: number[],
  ): ClientList {
    return {
      id: row.id,
      name: row.name,
      client_ids: ids,
      clients_count: ids.length,
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
    const row = await find(companyId, id);
    if (!row) throw notFound('list_clients.not_found');
    return toList(row, (await membersOf([row.id])).get(row.id) ?? []);
  }

  return {
    /** The company's lists by name, each with its members. */
    async list(companyId: number): Promise<ClientList[]> {
      const rows = await db
        .selectFrom('client_lists')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('name')
        .orderBy('id')
        .execute();
      const members = await membersOf(rows.map((r) => r.id));
      return rows.map((r) => toList(r, members.get(r.id) ?? []));
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
