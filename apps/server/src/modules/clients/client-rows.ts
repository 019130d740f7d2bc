import { type Client, PHONE_MIN_DIGITS, type SegmentChip } from '@hablabot/contract';
import { PostgresAdapter, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { prepared } from '../../db/prepared';
import type { Executor } from '../../db/transactions';
import { canonicalPhone, phoneKey } from '../../platform/phone';
import { fold } from './fold';

/** How a client is read for the API: its row, its conversation's chat fields and its segment chips. */

export const now = () => new Date().toISOString();

export const isPostgres = (db: Executor) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Rows per statement when writing in bulk: far below SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 500;

export function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
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

/** A phrase of an FTS5 query: the text taken literally (a double quote is written twice). */
const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * The FTS5 query of the SQLite search index (`clients_search`, trigram tokens) that finds every client
 * the LIKE below may match: the text inside the folded name and email, the digits inside the phone, or
 * the phone's key (a phrase of trigrams matches where the text is contained, so equality is kept too).
 * Undefined when a part is shorter than 3 characters (a trigram index cannot look it up; such a search
 * matches many clients, and a scan in the view's order finds a page fast).
 */
function indexQuery(text: string, digits: string, key: string | undefined): string | undefined {
  const long = (s: string) => [...s].length >= 3;
  if (!long(text) || (digits && !long(digits))) return undefined;
  const parts = [`search_text : ${phrase(text)}`];
  if (digits) parts.push(`whatsapp_cellphone : ${phrase(digits)}`);
  if (key) parts.push(`phone_key : ${phrase(key)}`);
  return parts.join(' OR ');
}

/**
 * The condition "this client matches the search": folded the way `search_text` is (case, accents and
 * spacing ignored), it must be part of the name and last names or of the email; a search made of digits
 * (with spaces, '+', '-', dots or brackets) may also be part of the phone, and a whole phone also finds
 * the client stored with a mobile variant of it (the same phone key: '+52 55 1234 5678' finds
 * 5215512345678). Undefined for no search.
 *
 * With `db` the search uses the substring indexes (migration 20261129010000_clients_search_index):
 * PostgreSQL's trigram indexes serve the LIKEs as they are; on SQLite the clients are first narrowed to
 * the candidates of the FTS5 table `clients_search`, and the LIKE then keeps exactly
 * those it matches, so the answer is the same as without the index.
 */
export function searchCondition(search: string | undefined, db?: Executor): RawBuilder<boolean> | undefined {
  const text = fold(search ?? '');
  if (!text) return undefined;
  const digits = PHONE_LIKE.test(text) ? text.replace(/\D/g, '') : '';
  const byText = sql<boolean>`clients.search_text like ${containsPattern(text)} escape '\\'`;
  const key = digits.length >= PHONE_MIN_DIGITS ? phoneKey(canonicalPhone(text)) : undefined;
  let condition = byText;
  if (digits) {
    const byPhone = sql<boolean>`clients.whatsapp_cellphone like ${containsPattern(digits)}`;
    condition = key
      ? sql<boolean>`(${byText} or ${byPhone} or clients.phone_key = ${key})`
      : sql<boolean>`(${byText} or ${byPhone})`;
  }
  const query = db && !isPostgres(db) ? indexQuery(text, digits, key) : undefined;
  if (!query) return condition;
  return sql<boolean>`(clients.id in (select rowid from clients_search where clients_search match ${query}) and ${condition})`;
}

/** The company's clients that match the search (see `searchCondition`). */
export function matching(db: Executor, companyId: number, search: string | undefined) {
  const q = db.selectFrom('clients').where('clients.company_id', '=', companyId);
  const condition = searchCondition(search, db);
  return condition ? q.where(condition) : q;
}

// biome-ignore lint/suspicious/noExplicitAny: any selection that has the clients table in it
export type ClientsSelection = SelectQueryBuilder<any, any, any>;

interface ClientRowWithChat extends Omit<Client, 'segments' | 'mode_bot' | 'unread_messages_count'> {
  bot_paused: number | null;
  unread_count: number | string | null;
  segments: unknown;
}

function toClient(r: ClientRowWithChat): Client {
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
    // A client without a conversation yet: the bot on, nothing written, nothing unread.
    mode_bot: Number(r.bot_paused ?? 0) === 1 ? 0 : 1,
    last_message_content: r.last_message_content ?? null,
    last_message_date: r.last_message_date ?? null,
    unread_messages_count: Number(r.unread_count ?? 0),
    opted_out_at: r.opted_out_at ?? null,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/**
 * On SQLite, clients read by id come out of the statement as one JSON text each, already in the
 * answer's shape (the fields `toClient` makes, with the same values): handing a row's 15 values to
 * JavaScript one by one costs more than SQLite reading them, and JSON.parse makes the whole object at
 * once. The ids travel as one JSON array (json_each), so the statement is the same for any page and is
 * compiled once. PostgreSQL reads columns as `clientsQuery` does (its JSON writes times differently).
 */
const clientsByIdAsJson = prepared((db, v: { companyId: number; ids: string }) =>
  db
    .selectFrom('clients')
    .leftJoin('conversations', 'conversations.client_id', 'clients.id')
    .select(
      sql<string>`json_object(
        'id', clients.id,
        'name', clients.name,
        'last_names', clients.last_names,
        'whatsapp_cellphone', clients.whatsapp_cellphone,
        'email', clients.email,
        'avatar', clients.avatar,
        'projects', clients.projects,
        'segments', json(coalesce((select json_group_array(json_object('id', s.id, 'name', s.name, 'color', s.color) order by s.id)
          from client_segments cs join segments s on s.id = cs.segment_id where cs.client_id = clients.id), '[]')),
        'mode_bot', case when coalesce(conversations.bot_paused, 0) = 1 then 0 else 1 end,
        'last_message_content', conversations.last_message_content,
        'last_message_date', conversations.last_message_at,
        'unread_messages_count', coalesce(conversations.unread_count, 0),
        'opted_out_at', clients.opted_out_at,
        'created_at', clients.created_at,
        'updated_at', clients.updated_at
      )`.as('client'),
    )
    .where('clients.company_id', '=', v.companyId)
    .where(sql<boolean>`clients.id in (select value from json_each(${v.ids}))`),
);

/**
 * Reads clients whole (with their conversation and segment chips) in one statement: every client of
 * the company that `filter` keeps. Each client's segment chips are a JSON array computed in the same
 * statement (a correlated subquery over the client_segments primary key), so a list of any length is
 * one query and never N+1.
 */
export function createClientReader(db: Executor) {
  const postgres = isPostgres(db);
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
    'conversations.bot_paused',
    'conversations.last_message_content',
    'conversations.last_message_at as last_message_date',
    'conversations.unread_count',
    'clients.opted_out_at',
    'clients.created_at',
    'clients.updated_at',
  ] as const;

  function clientsQuery(companyId: number) {
    return db
      .selectFrom('clients')
      .leftJoin('conversations', 'conversations.client_id', 'clients.id')
      .select([...columns, segmentsJson.as('segments')])
      .where('clients.company_id', '=', companyId);
  }

  return {
    async one(companyId: number, id: number): Promise<Client | undefined> {
      const row = await clientsQuery(companyId).where('clients.id', '=', id).executeTakeFirst();
      return row ? toClient(row) : undefined;
    },

    /**
     * One page of clients in one statement: the page's ids are picked first by `ids` (in index order,
     * with the limit), then only those rows are read whole, in the same `order`.
     */
    async page(ids: ClientsSelection, order: <Q extends ClientsSelection>(q: Q) => Q): Promise<Client[]> {
      const query = db
        .selectFrom(ids.as('page'))
        .innerJoin('clients', 'clients.id', 'page.id')
        .leftJoin('conversations', 'conversations.client_id', 'clients.id')
        .select([...columns, segmentsJson.as('segments')]);
      return (await order(query).execute()).map(toClient);
    },

    /** These clients of the company, in the order of `ids` (a page picked by an ordered query). */
    async inOrder(companyId: number, ids: number[]): Promise<Client[]> {
      if (ids.length === 0) return [];
      let clients: Client[];
      if (postgres) {
        clients = (await clientsQuery(companyId).where('clients.id', 'in', ids).execute()).map(toClient);
      } else {
        const { rows } = await clientsByIdAsJson(db, { companyId, ids: JSON.stringify(ids) });
        clients = rows.map((r) => JSON.parse(r.client) as Client);
      }
      const byId = new Map(clients.map((c) => [c.id, c]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
  };
}
