import type { BotMode, Client, ClientSortField, SegmentChip } from '@hablabot/contract';
import { PostgresAdapter, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { prepared } from '../../db/prepared';
import { type Executor, atomically } from '../../db/transactions';
import { fold } from './fold';

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

/** The client as a customer's new message left it: what the chat list shows and whether the bot answers. */
export interface ClientAfterMessage {
  unread_messages_count: number;
  last_message_content: string | null;
  last_message_date: string | null;
  mode_bot: number;
}

export interface ChatListOptions {
  /** Part of the name and last names or of the email (case and accents ignored), or of the phone. */
  search?: string;
  limit: number;
  offset: number;
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
 * Columns kept from others on every insert and update, never set by callers:
 * - `name_sort`: the name and then the last names, folded and joined by U+0001 (sorts before any
 *   character of a name), so the `name` sort ignores case and accents and is the same on both engines;
 * - `search_text`: name, last names and email folded into one text, which searches match with LIKE.
 */
export function derivedColumns(values: { name: string; last_names: string; email: string | null }) {
  return {
    name_sort: `${fold(values.name)}\u0001${fold(values.last_names)}`,
    search_text: fold(`${values.name} ${values.last_names} ${values.email ?? ''}`),
  };
}

/** A search that is only a phone number as people type it ('+34 600-12', '(600) 123'). */
const PHONE_LIKE = /^[\d\s+\-.()/]+$/;

/** The LIKE pattern of "contains this text", with %, _ and \ taken literally. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const isPostgres = (db: Executor) => db.getExecutor().adapter instanceof PostgresAdapter;

// The statements a customer's message runs (see db/prepared.ts: compiled once, not per message).

/** The company's client with this phone; locked on PostgreSQL until the caller's transaction ends. */
const clientByPhone = prepared((db, v: { companyId: number; phone: string }) => {
  const query = db
    .selectFrom('clients')
    .select(['id', 'last_message_date', 'wa_user_id'])
    .where('company_id', '=', v.companyId)
    .where('whatsapp_cellphone', '=', v.phone);
  return isPostgres(db) ? query.forUpdate() : query;
});

/** A new client from WhatsApp; should another delivery have created it meanwhile, that one. */
const insertWhatsAppClient = prepared(
  (
    db,
    v: {
      companyId: number;
      name: string;
      phone: string;
      waUserId: string | null;
      nameSort: string;
      searchText: string;
      at: string;
    },
  ) =>
    db
      .insertInto('clients')
      .values({
        company_id: v.companyId,
        name: v.name,
        last_names: '',
        email: null,
        whatsapp_cellphone: v.phone,
        wa_user_id: v.waUserId,
        name_sort: v.nameSort,
        search_text: v.searchText,
        created_at: v.at,
        updated_at: v.at,
      })
      .onConflict((oc) =>
        oc.columns(['company_id', 'whatsapp_cellphone']).doUpdateSet((eb) => ({
          wa_user_id: eb.fn.coalesce('excluded.wa_user_id', 'clients.wa_user_id'),
        })),
      )
      .returning(['id', 'last_message_date']),
);

const AFTER_MESSAGE = [
  'unread_messages_count',
  'last_message_content',
  'last_message_date',
  'mode_bot',
] as const;

/** One more unread, and this message as the chat list's last one. */
const noteLatestIncoming = prepared(
  (db, v: { companyId: number; id: number; content: string; date: string }) =>
    db
      .updateTable('clients')
      .set((eb) => ({
        unread_messages_count: eb('unread_messages_count', '+', 1),
        last_message_content: v.content,
        last_message_date: v.date,
      }))
      .where('company_id', '=', v.companyId)
      .where('id', '=', v.id)
      .returning(AFTER_MESSAGE),
);

/** One more unread; the chat list keeps the later message it shows. */
const noteEarlierIncoming = prepared((db, v: { companyId: number; id: number }) =>
  db
    .updateTable('clients')
    .set((eb) => ({ unread_messages_count: eb('unread_messages_count', '+', 1) }))
    .where('company_id', '=', v.companyId)
    .where('id', '=', v.id)
    .returning(AFTER_MESSAGE),
);

// biome-ignore lint/suspicious/noExplicitAny: any selection that has the clients table in it
type ClientsSelection = SelectQueryBuilder<any, any, any>;

/**
 * The chat list's order: latest conversation first, clients never written to last, then by name (folded)
 * and id. The index clients_chat_order_idx holds it, so a page is read without sorting the company.
 */
function orderForChat<Q extends ClientsSelection>(q: Q): Q {
  return q
    .orderBy(sql`clients.last_message_date desc nulls last`)
    .orderBy('clients.name_sort')
    .orderBy('clients.id') as Q;
}

/**
 * The company's clients that match the search: folded the way `search_text` is (case, accents and
 * spacing ignored), it must be part of the name and last names or of the email; a search made of digits
 * (with spaces, '+', '-', dots or brackets) may also be part of the phone.
 */
function matching(db: Executor, companyId: number, search: string | undefined) {
  let q = db.selectFrom('clients').where('clients.company_id', '=', companyId);
  const text = fold(search ?? '');
  if (text) {
    const digits = PHONE_LIKE.test(text) ? text.replace(/\D/g, '') : '';
    q = q.where((eb) =>
      eb.or([
        sql<boolean>`clients.search_text like ${containsPattern(text)} escape '\\'`,
        ...(digits ? [sql<boolean>`clients.whatsapp_cellphone like ${containsPattern(digits)}`] : []),
      ]),
    );
  }
  return q;
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
 * A company's clients: the only SQL that writes the clients table. Every function takes the company it is
 * scoped to. Built on the database or on a transaction (see `createRepositories`); writes of several
 * statements run `atomically`, so they join the caller's transaction when there is one.
 */
export function createClientsRepository(db: Executor) {
  const postgres = isPostgres(db);

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

  /**
   * One page of clients in one statement: the page's ids are picked first (in index order, with the
   * limit), then only those rows are read whole and get their segment chips.
   */
  async function page(
    ids: ClientsSelection,
    order: <Q extends ClientsSelection>(q: Q) => Q,
  ): Promise<Client[]> {
    const query = db
      .selectFrom(ids.as('page'))
      .innerJoin('clients', 'clients.id', 'page.id')
      .select([...columns, segmentsJson.as('segments')]);
    return (await order(query).execute()).map(toClient);
  }

  return {
    /** One page of the client table and how many clients match in all. */
    async listClients(
      companyId: number,
      options: ClientListOptions,
    ): Promise<{ clients: Client[]; total: number }> {
      const order = <Q extends ClientsSelection>(q: Q) =>
        orderForTable(q, options.sort, options.order, postgres);
      const [clients, count] = await Promise.all([
        page(clientPageIdsQuery(db, companyId, options), order),
        matching(db, companyId, options.search)
          .select(sql<number>`cast(count(*) as integer)`.as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { clients, total: Number(count.n) };
    },

    /** The chat list: latest conversation first, clients never written to last, then by name. */
    async listForChat(companyId: number, options: ChatListOptions): Promise<Client[]> {
      const ids = orderForChat(matching(db, companyId, options.search).select('clients.id'))
        .limit(options.limit)
        .offset(options.offset);
      return page(ids, orderForChat);
    },

    /** How many messages the client's conversation holds; undefined when the client is not the company's. */
    async messagesCount(companyId: number, id: number): Promise<number | undefined> {
      const row = await db
        .selectFrom('clients')
        .select('messages_count')
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? Number(row.messages_count) : undefined;
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
     * segment links go with them (ON DELETE CASCADE).
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

    /** Pauses the bot for the client when it was on (an admin took over); true when it changed. */
    async pauseBot(companyId: number, id: number): Promise<boolean> {
      const result = await db
        .updateTable('clients')
        .set({ mode_bot: 0, updated_at: now() })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('mode_bot', '=', 1)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
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

    /**
     * The client who wrote from this phone on WhatsApp, created when new (named by their WhatsApp profile)
     * and given WhatsApp's user id when it came. A known client is only read (and written when its user id
     * is new), so the common case writes nothing; on PostgreSQL the row stays locked until the caller's
     * transaction ends, so two messages of one client are counted one after the other. A new client is
     * inserted in one statement, so two first messages at once make one client. Returns the id and the
     * date of the client's last message so far.
     */
    async upsertFromWhatsApp(
      companyId: number,
      values: { phone: string; name: string; waUserId: string | null },
    ): Promise<{ id: number; last_message_date: string | null }> {
      const [found] = (await clientByPhone(db, { companyId, phone: values.phone })).rows;
      if (found) {
        if (values.waUserId && found.wa_user_id !== values.waUserId)
          await db
            .updateTable('clients')
            .set({ wa_user_id: values.waUserId })
            .where('company_id', '=', companyId)
            .where('id', '=', found.id)
            .execute();
        return { id: found.id, last_message_date: found.last_message_date };
      }
      const at = now();
      const derived = derivedColumns({ name: values.name, last_names: '', email: null });
      const [created] = (
        await insertWhatsAppClient(db, {
          companyId,
          name: values.name,
          phone: values.phone,
          waUserId: values.waUserId,
          nameSort: derived.name_sort,
          searchText: derived.search_text,
          at,
        })
      ).rows;
      return created;
    },

    /** The client WhatsApp knows by this user id (sent instead of the phone by newer webhooks). */
    async findByWaUserId(
      companyId: number,
      waUserId: string,
    ): Promise<{ id: number; whatsapp_cellphone: string; last_message_date: string | null } | undefined> {
      return db
        .selectFrom('clients')
        .select(['id', 'whatsapp_cellphone', 'last_message_date'])
        .where('company_id', '=', companyId)
        .where('wa_user_id', '=', waUserId)
        .orderBy('id')
        .executeTakeFirst();
    },

    /**
     * A new message from the client: one more unread, and — unless the client already has a later one (a
     * delivery retried days later) — the chat list's last message and date. Returns the client as it
     * now is, so what follows the write (the event stream, the bot) reads nothing again.
     */
    async noteIncomingMessage(
      companyId: number,
      id: number,
      message: { content: string; date: string; latest: boolean },
    ): Promise<ClientAfterMessage | undefined> {
      const values = { companyId, id, content: message.content, date: message.date };
      const [after] = (
        await (message.latest ? noteLatestIncoming(db, values) : noteEarlierIncoming(db, { companyId, id }))
      ).rows;
      return after;
    },

    /**
     * A message to the customer (admin or bot) becomes the client's last message, for the chat list's
     * order and preview; the unread count stays as it is. A message dated before the one shown changes
     * nothing.
     */
    async noteOutgoingMessage(
      companyId: number,
      id: number,
      message: { content: string; date: string },
    ): Promise<void> {
      await db
        .updateTable('clients')
        .set({ last_message_content: message.content, last_message_date: message.date })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where((eb) =>
          eb.or([eb('last_message_date', 'is', null), eb('last_message_date', '<=', message.date)]),
        )
        .execute();
    },

    /** The client's unread count back to 0; false when the client is not the company's. */
    async resetUnread(companyId: number, id: number): Promise<boolean> {
      const result = await db
        .updateTable('clients')
        .set({ unread_messages_count: 0 })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** The company's clients with these phones, by phone: their importable fields as stored. */
    async existingPhones(companyId: number, phones: string[]): Promise<Map<string, ImportValues>> {
      const found = new Map<string, ImportValues>();
      for (const part of chunks(phones, 1000)) {
        const rows = await db
          .selectFrom('clients')
          .select(['whatsapp_cellphone', 'name', 'last_names', 'email', 'projects'])
          .where('company_id', '=', companyId)
          .where('whatsapp_cellphone', 'in', part)
          .execute();
        for (const r of rows) found.set(r.whatsapp_cellphone, { ...r, email: r.email ?? '' });
      }
      return found;
    },

    /**
     * Creates or updates (by phone) every row, as one unit: all of them are written or none is. An update
     * keeps the stored projects when the row has none. Returns each row's client id by phone.
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
              oc.columns(['company_id', 'whatsapp_cellphone']).doUpdateSet((eb) => ({
                name: eb.ref('excluded.name'),
                last_names: eb.ref('excluded.last_names'),
                email: eb.ref('excluded.email'),
                name_sort: eb.ref('excluded.name_sort'),
                search_text: eb.ref('excluded.search_text'),
                projects: eb.fn.coalesce('excluded.projects', 'clients.projects'),
                updated_at: eb.ref('excluded.updated_at'),
              })),
            )
            .returning(['id', 'whatsapp_cellphone'])
            .execute();
          for (const s of saved) idOfPhone.set(s.whatsapp_cellphone, s.id);
        }
      });
      return idOfPhone;
    },
  };
}

export type ClientsRepository = ReturnType<typeof createClientsRepository>;
