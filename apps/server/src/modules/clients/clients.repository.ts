import type { Client, ClientSortField } from '@hablabot/contract';
import { sql } from 'kysely';
import { type Executor, atomically } from '../../db/transactions';
import { phoneKey } from '../../platform/phone';
import {
  type ClientsSelection,
  chunks,
  createClientReader,
  derivedColumns,
  isPostgres,
  matching,
  now,
} from './client-rows';
import { createWhatsAppClients } from './clients-whatsapp.repository';
import { createConversationsRepository } from './conversations.repository';

export { derivedColumns } from './client-rows';
export type {
  ChatListOptions,
  ClientAfterMessage,
  ConversationAfterIncoming,
} from './conversations.repository';

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
}

/** One page of the client table. */
export interface ClientListOptions {
  /** Part of the name and last names or of the email (case and accents ignored), or of the phone. */
  search?: string;
  limit: number;
  offset: number;
  sort: ClientSortField;
  order: 'asc' | 'desc';
}

/**
 * The client table's orders. Each one ends in a unique column, so a row has one place in the list and
 * pages never repeat or skip a row: the id, except for the phone (unique in the company already).
 * E-mails are compared byte by byte with missing ones first (ascending) on both engines; the indexes of
 * migration 20261123000000 hold every one of these orders.
 */
function orderForTable<Q extends ClientsSelection>(
  q: Q,
  sort: ClientSortField,
  order: 'asc' | 'desc',
  postgres: boolean,
): Q {
  switch (sort) {
    case 'id':
      return q.orderBy('clients.id', order) as Q;
    case 'whatsapp_cellphone':
      return q.orderBy('clients.whatsapp_cellphone', order) as Q;
    case 'name':
      return q.orderBy('clients.name_sort', order).orderBy('clients.id', order) as Q;
    case 'created_at':
      return q.orderBy('clients.created_at', order).orderBy('clients.id', order) as Q;
    case 'email':
      return (
        postgres
          ? q.orderBy(sql`clients.email collate "C"`, (ob) =>
              order === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast(),
            )
          : q.orderBy('clients.email', order)
      ).orderBy('clients.id', order) as Q;
  }
}

/**
 * The statement that picks one page of the client table's ids, in the table's order (exported so tests
 * can check the database reads it from an index).
 */
export function clientPageIdsQuery(db: Executor, companyId: number, options: ClientListOptions) {
  return orderForTable(
    matching(db, companyId, options.search).select('clients.id'),
    options.sort,
    options.order,
    isPostgres(db),
  )
    .limit(options.limit)
    .offset(options.offset);
}

/**
 * A company's clients: the only SQL that writes the clients table (with clients-whatsapp.repository.ts,
 * spread in: the clients that WhatsApp messages find or create). Every function takes the company it is
 * scoped to. Built on the database or on a transaction (see `createRepositories`); writes of several
 * statements run `atomically`, so they join the caller's transaction when there is one.
 */
export function createClientsRepository(db: Executor) {
  const postgres = isPostgres(db);
  const reader = createClientReader(db);

  return {
    ...createConversationsRepository(db),
    ...createWhatsAppClients(db),

    /** One page of the client table and how many clients match in all. */
    async listClients(
      companyId: number,
      options: ClientListOptions,
    ): Promise<{ clients: Client[]; total: number }> {
      const order = <Q extends ClientsSelection>(q: Q) =>
        orderForTable(q, options.sort, options.order, postgres);
      const [clients, count] = await Promise.all([
        reader.page(clientPageIdsQuery(db, companyId, options), order),
        matching(db, companyId, options.search)
          .select(sql<number>`cast(count(*) as integer)`.as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { clients, total: Number(count.n) };
    },

    async findClient(companyId: number, id: number): Promise<Client | undefined> {
      return reader.one(companyId, id);
    },

    /** Whether another client of the company has this phone or a mobile variant of it (the same key). */
    async phoneTaken(companyId: number, phone: string, exceptId?: number): Promise<boolean> {
      let q = db
        .selectFrom('clients')
        .select('id')
        .where('company_id', '=', companyId)
        .where('phone_key', '=', phoneKey(phone));
      if (exceptId) q = q.where('id', '!=', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },

    /** Inserts the client (its segments are the segments repository's); the new id. */
    async insertClient(companyId: number, values: ClientValues): Promise<number> {
      const at = now();
      const row = await db
        .insertInto('clients')
        .values({
          company_id: companyId,
          ...values,
          ...derivedColumns(values),
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Replaces the client's editable fields; false when it is not the company's. */
    async updateClient(companyId: number, id: number, values: ClientValues): Promise<boolean> {
      const result = await db
        .updateTable('clients')
        .set({ ...values, ...derivedColumns(values), updated_at: now() })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * Marks the company's clients in a segment as updated now (their segments are about to change).
     * Reads the links; writing them is the segments repository's job.
     */
    async touchSegmentMembers(companyId: number, segmentId: number): Promise<void> {
      await db
        .updateTable('clients')
        .set({ updated_at: now() })
        .where('company_id', '=', companyId)
        .where('id', 'in', (eb) =>
          eb.selectFrom('client_segments').select('client_id').where('segment_id', '=', segmentId),
        )
        .execute();
    },

    /**
     * Deletes every one of the ids, or none when any is not the company's; true when deleted. Their
     * segment links and conversations (with their messages) go with them (ON DELETE CASCADE).
     */
    async deleteClients(companyId: number, ids: number[]): Promise<boolean> {
      return atomically(db, async (trx) => {
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
          await trx
            .deleteFrom('clients')
            .where('company_id', '=', companyId)
            .where('id', 'in', part)
            .execute();
        }
        return true;
      });
    },

    /**
     * The company's clients with these phones or a mobile variant of them, by phone key (`phoneKey`):
     * their importable fields as stored (the stored phone included).
     */
    async existingPhones(companyId: number, phones: string[]): Promise<Map<string, ImportValues>> {
      const found = new Map<string, ImportValues>();
      for (const part of chunks([...new Set(phones.map(phoneKey))], 1000)) {
        const rows = await db
          .selectFrom('clients')
          .select(['phone_key', 'whatsapp_cellphone', 'name', 'last_names', 'email', 'projects'])
          .where('company_id', '=', companyId)
          .where('phone_key', 'in', part)
          .execute();
        for (const { phone_key, ...r } of rows) found.set(phone_key, { ...r, email: r.email ?? '' });
      }
      return found;
    },

    /**
     * Creates or updates (by phone key) every row, as one unit: all of them are written or none is. An
     * update keeps the stored phone (a variant of the row's: the number WhatsApp knows) and the stored
     * projects when the row has none. Returns each row's client id by phone key.
     */
    async upsertImported(companyId: number, rows: ImportValues[]): Promise<Map<string, number>> {
      const idOfPhone = new Map<string, number>();
      if (rows.length === 0) return idOfPhone;
      await atomically(db, async (trx) => {
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
                ...derivedColumns(r),
                created_at: at,
                updated_at: at,
              })),
            )
            .onConflict((oc) =>
              oc.columns(['company_id', 'phone_key']).doUpdateSet((eb) => ({
                name: eb.ref('excluded.name'),
                last_names: eb.ref('excluded.last_names'),
                email: eb.ref('excluded.email'),
                name_sort: eb.ref('excluded.name_sort'),
                search_text: eb.ref('excluded.search_text'),
                projects: eb.fn.coalesce('excluded.projects', 'clients.projects'),
                updated_at: eb.ref('excluded.updated_at'),
              })),
            )
            .returning(['id', 'phone_key'])
            .execute();
          for (const s of saved) idOfPhone.set(s.phone_key, s.id);
        }
      });
      return idOfPhone;
    },
  };
}

export type ClientsRepository = ReturnType<typeof createClientsRepository>;
