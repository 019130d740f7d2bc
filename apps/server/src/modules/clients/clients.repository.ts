import type { BotMode, Client, SegmentChip } from '@hablabot/contract';
import { type Kysely, PostgresAdapter, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { DB } from '../../db/schema';

const now = () => new Date().toISOString();

/** Rows per statement when writing in bulk: far below SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 500;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The fields a person edits; the chat fields are kept by the messaging module. */
export interface ClientValues {
  name: string;
  last_names: string;
  whatsapp_cellphone: string;
  email: string;
  /** Undefined leaves the stored value (null on create). */
  avatar?: string | null;
  projects?: string | null;
}

/** One imported row: `projects: null` keeps what an existing client has. */
export interface ImportValues {
  name: string;
  last_names: string;
  whatsapp_cellphone: string;
  email: string;
  projects: string | null;
  segmentIds: number[];
}

type ClientRowWithSegments = Omit<Client, 'segments' | 'mode_bot'> & { mode_bot: number; segments: unknown };

function toClient(r: ClientRowWithSegments): Client {
  const raw = typeof r.segments === 'string' ? JSON.parse(r.segments) : r.segments;
  const segments = (Array.isArray(raw) ? raw : []) as SegmentChip[];
  return {
    id: r.id,
    name: r.name,
    last_names: r.last_names,
    whatsapp_cellphone: r.whatsapp_cellphone,
    email: r.email,
    avatar: r.avatar,
    projects: r.projects,
    segments: segments.map((s) => ({ id: Number(s.id), name: s.name, color: s.color })),
    mode_bot: r.mode_bot === 0 ? 0 : 1,
    last_message_content: r.last_message_content,
    last_message_date: r.last_message_date,
    unread_messages_count: Number(r.unread_messages_count),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export interface ChatListOptions {
  /** Part of the name and last names (case-insensitive) or of the phone's digits. */
  search?: string;
  limit?: number;
  offset?: number;
}

// biome-ignore lint/suspicious/noExplicitAny: any selection that has the clients table in it
function orderForChat<Q extends SelectQueryBuilder<any, any, any>>(q: Q): Q {
  return q
    .orderBy(sql`clients.last_message_date desc nulls last`)
    .orderBy(sql`lower(clients.name)`)
    .orderBy('clients.id') as Q;
}

/** A company's clients and their segment links: the only SQL of clients. Every query is company-scoped. */
export function createClientsRepository(db: Kysely<DB>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  /**
   * Each client's segment chips as a JSON array, computed in the same statement (a correlated subquery
   * over the client_segments primary key), so a list of any length is one query and never N+1.
   */
  const segmentsJson: RawBuilder<unknown> = postgres
    ? sql`(select coalesce(json_agg(json_build_object('id', s.id, 'name', s.name, 'color', s.color) order by s.id), '[]'::json)
          from client_segments cs join segments s on s.id = cs.segment_id where cs.client_id = clients.id)`
    : sql`(select json_group_array(json_object('id', s.id, 'name', s.name, 'color', s.color) order by s.id)
          from client_segments cs join segments s on s.id = cs.segment_id where cs.client_id = clients.id)`;

  const columns = [
    'clients.id',
    'clients.name',
    'clients.last_names',
    'clients.whatsapp_cellphone',
    'clients.email',
    'clients.avatar',
    'clients.projects',
    'clients.mode_bot',
    'clients.last_message_content',
    'clients.last_message_date',
    'clients.unread_messages_count',
    'clients.created_at',
    'clients.updated_at',
  ] as const;

  function clientsQuery(companyId: number) {
    return db
      .selectFrom('clients')
      .select([...columns, segmentsJson.as('segments')])
      .where('clients.company_id', '=', companyId);
  }

  async function linkSegments(trx: Kysely<DB>, pairs: { client_id: number; segment_id: number }[]) {
    for (const part of chunks(pairs, 1000)) {
      await trx
        .insertInto('client_segments')
        .values(part)
        .onConflict((oc) => oc.columns(['client_id', 'segment_id']).doNothing())
        .execute();
    }
  }

  return {
    /** The client table's list, oldest first. */
    async listClients(companyId: number): Promise<Client[]> {
      return (await clientsQuery(companyId).orderBy('clients.id').execute()).map(toClient);
    },

    /**
     * The chat list: latest conversation first, clients never written to last, then by name. One statement:
     * with a limit, the page's ids are picked first, so segment chips are built only for that page.
     */
    async listForChat(companyId: number, options: ChatListOptions = {}): Promise<Client[]> {
      let filtered = db
        .selectFrom('clients')
        .select('clients.id')
        .where('clients.company_id', '=', companyId);
      const search = options.search?.trim();
      if (search) {
        const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        const digits = search.replace(/\D/g, '');
        filtered = filtered.where((eb) =>
          eb.or([
            sql<boolean>`lower(clients.name || ' ' || clients.last_names) like ${pattern} escape '\\'`,
            ...(digits ? [eb('clients.whatsapp_cellphone', 'like', `%${digits}%`)] : []),
          ]),
        );
      }
      if (!search && options.limit === undefined) {
        return (await orderForChat(clientsQuery(companyId)).execute()).map(toClient);
      }
      // The page's ids first (read in index order), then only those rows are joined and get their chips.
      let ids = orderForChat(filtered);
      if (options.limit !== undefined) ids = ids.limit(options.limit).offset(options.offset ?? 0);
      const query = db
        .selectFrom(ids.as('page'))
        .innerJoin('clients', 'clients.id', 'page.id')
        .select([...columns, segmentsJson.as('segments')]);
      return (await orderForChat(query).execute()).map(toClient);
    },

    async findClient(companyId: number, id: number): Promise<Client | undefined> {
      const row = await clientsQuery(companyId).where('clients.id', '=', id).executeTakeFirst();
      return row ? toClient(row) : undefined;
    },

    async phoneTaken(companyId: number, phone: string, exceptId?: number): Promise<boolean> {
      let q = db
        .selectFrom('clients')
        .select('id')
        .where('company_id', '=', companyId)
        .where('whatsapp_cellphone', '=', phone);
      if (exceptId) q = q.where('id', '!=', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },

    async createClient(companyId: number, values: ClientValues, segmentIds: number[]): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const at = now();
        const row = await trx
          .insertInto('clients')
          .values({ company_id: companyId, ...values, created_at: at, updated_at: at })
          .returning('id')
          .executeTakeFirstOrThrow();
        await linkSegments(
          trx,
          segmentIds.map((segment_id) => ({ client_id: row.id, segment_id })),
        );
        return row.id;
      });
    },

    /** Replaces the client's editable fields and its segments; false when it is not the company's. */
    async updateClient(
      companyId: number,
      id: number,
      values: ClientValues,
      segmentIds: number[],
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('clients')
          .set({ ...values, updated_at: now() })
          .where('company_id', '=', companyId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        await trx.deleteFrom('client_segments').where('client_id', '=', id).execute();
        await linkSegments(
          trx,
          segmentIds.map((segment_id) => ({ client_id: id, segment_id })),
        );
        return true;
      });
    },

    /** Deletes every one of the ids, or none when any is not the company's; true when deleted. */
    async deleteClients(companyId: number, ids: number[]): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        for (const part of chunks(ids, 1000)) {
          const owned = await trx
            .selectFrom('clients')
            .select(sql<number>`cast(count(*) as integer)`.as('n'))
            .where('company_id', '=', companyId)
            .where('id', 'in', part)
            .executeTakeFirstOrThrow();
          if (Number(owned.n) !== part.length) return false;
        }
        for (const part of chunks(ids, 1000)) {
          await trx.deleteFrom('client_segments').where('client_id', 'in', part).execute();
          await trx
            .deleteFrom('clients')
            .where('company_id', '=', companyId)
            .where('id', 'in', part)
            .execute();
        }
        return true;
      });
    },

    async setBotMode(companyId: number, id: number, mode: BotMode): Promise<boolean> {
      const result = await db
        .updateTable('clients')
        .set({ mode_bot: mode, updated_at: now() })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Which of these phones already belong to a client of the company. */
    async existingPhones(companyId: number, phones: string[]): Promise<Set<string>> {
      const found = new Set<string>();
      for (const part of chunks(phones, 1000)) {
        const rows = await db
          .selectFrom('clients')
          .select('whatsapp_cellphone')
          .where('company_id', '=', companyId)
          .where('whatsapp_cellphone', 'in', part)
          .execute();
        for (const r of rows) found.add(r.whatsapp_cellphone);
      }
      return found;
    },

    /**
     * Creates or updates (by phone) every row in one transaction, and adds the rows' segments to the
     * clients (never removing any). All of the rows are written or none is.
     */
    async upsertImported(companyId: number, rows: ImportValues[]): Promise<void> {
      if (rows.length === 0) return;
      await db.transaction().execute(async (trx) => {
        const at = now();
        for (const part of chunks(rows)) {
          const saved = await trx
            .insertInto('clients')
            .values(
              part.map((r) => ({
                company_id: companyId,
                name: r.name,
                last_names: r.last_names,
                whatsapp_cellphone: r.whatsapp_cellphone,
                email: r.email,
                projects: r.projects,
                created_at: at,
                updated_at: at,
              })),
            )
            .onConflict((oc) =>
              oc.columns(['company_id', 'whatsapp_cellphone']).doUpdateSet((eb) => ({
                name: eb.ref('excluded.name'),
                last_names: eb.ref('excluded.last_names'),
                email: eb.ref('excluded.email'),
                projects: eb.fn.coalesce('excluded.projects', 'clients.projects'),
                updated_at: eb.ref('excluded.updated_at'),
              })),
            )
            .returning(['id', 'whatsapp_cellphone'])
            .execute();
          const idOf = new Map(saved.map((s) => [s.whatsapp_cellphone, s.id]));
          await linkSegments(
            trx,
            part.flatMap((r) =>
              r.segmentIds.map((segment_id) => ({ client_id: idOf.get(r.whatsapp_cellphone)!, segment_id })),
            ),
          );
        }
      });
    },
  };
}

export type ClientsRepository = ReturnType<typeof createClientsRepository>;
