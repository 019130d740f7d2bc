import type {
  Conversation,
  ConversationCounts,
  ConversationStatus,
  ConversationView,
} from '@hablabot/contract';
import { type SelectQueryBuilder, sql } from 'kysely';
import type { DB } from '../../db/schema';
import { prepared } from '../../db/prepared';
import type { Executor } from '../../db/transactions';
import { isPostgres, searchCondition } from '../clients/client-rows';
import { autoAssignQueries } from './auto-assign';
import { fewCandidates, SPARSE_CANDIDATES, searchTotalBound } from './conversations-search';
import type { Visibility } from './conversation-access';

/** The customer's 24-hour window of free messages. */
const WINDOW_MS = 24 * 60 * 60 * 1000;

const now = () => new Date().toISOString();

/** How many conversations each view holds (`mine`, `unassigned`, `all` open; `resolved`). */
export type ViewSizes = ConversationCounts & {
  resolved: number;
  /** Every listed conversation of the company, whoever may see it. */
  listed: number;
};

export interface ViewOptions {
  view: ConversationView;
  /** Who asks: `mine` is theirs. */
  userId: number;
  visibility: Visibility;
  search?: string;
  limit: number;
  offset: number;
}

/** A conversation's row as the inbox reads it, before it becomes the contract's `Conversation`. */
interface ConversationRow {
  id: number;
  client_id: number;
  client_name: string;
  client_last_names: string | null;
  whatsapp_cellphone: string;
  status: string;
  assignee_user_id: number | null;
  assignee_name: string | null;
  unread_count: number | string;
  last_message_content: string | null;
  last_message_at: unknown;
  bot_paused: number | string;
  customer_last_message_at: unknown;
}

const iso = (at: unknown): string | null =>
  at === null || at === undefined ? null : new Date(at instanceof Date ? at : String(at)).toISOString();

function toConversation(r: ConversationRow): Conversation {
  const customerLast = iso(r.customer_last_message_at);
  return {
    id: r.id,
    client: {
      id: r.client_id,
      name: r.client_name,
      last_names: r.client_last_names,
      whatsapp_cellphone: r.whatsapp_cellphone,
    },
    status: r.status === 'resolved' ? 'resolved' : 'open',
    // A deleted user sets the column to null, so an assignee always has a name.
    assignee: r.assignee_user_id === null ? null : { id: r.assignee_user_id, name: r.assignee_name ?? '' },
    unread_count: Number(r.unread_count),
    last_message_content: r.last_message_content,
    last_message_date: iso(r.last_message_at),
    mode_bot: Number(r.bot_paused) === 1 ? 0 : 1,
    window_expires_at: customerLast ? new Date(Date.parse(customerLast) + WINDOW_MS).toISOString() : null,
  };
}

/** The inbox's columns of conversations, their clients and assignees. */
function readConversations(db: Executor) {
  return db
    .selectFrom('conversations')
    .innerJoin('clients', 'clients.id', 'conversations.client_id')
    .leftJoin('users', 'users.id', 'conversations.assignee_user_id')
    .select([
      'conversations.id',
      'conversations.client_id',
      'clients.name as client_name',
      'clients.last_names as client_last_names',
      'clients.whatsapp_cellphone',
      'conversations.status',
      'conversations.assignee_user_id',
      'users.name as assignee_name',
      'conversations.unread_count',
      'conversations.last_message_content',
      'conversations.last_message_at',
      'conversations.bot_paused',
      'conversations.customer_last_message_at',
    ]);
}

/** A page of conversations by id, the ids as one JSON array (json_each / jsonb_array_elements_text). */
const conversationsById = prepared((db, v: { companyId: number; ids: string }) =>
  readConversations(db)
    .where('conversations.company_id', '=', v.companyId)
    .where(
      isPostgres(db)
        ? sql<boolean>`conversations.id in (select value::int from jsonb_array_elements_text(${v.ids}::jsonb))`
        : sql<boolean>`conversations.id in (select value from json_each(${v.ids}))`,
    ),
);

/**
 * The inbox's conversations: its views (one page, latest activity first), their sizes, one conversation
 * in the contract's shape, and the assignee and status changes. Every function takes the company it is
 * scoped to. A conversation is in the inbox once it has a message (`last_message_at` set): a row made by
 * pausing the bot of a client never written to is not listed, and a client never written to has no row.
 */
export function createInboxRepository(db: Executor) {
  const postgres = isPostgres(db);
  const read = () => readConversations(db);

  /**
   * The conversations of one view the caller may see. Without a search, `mine` and `unassigned` are
   * ranges of conversations_assignee_view_idx, `all` and `resolved` of conversations_view_idx (an agent's
   * own visibility filtering it). With a search, `o.from` says which table is read first: `clients` (the
   * search looks at every client of the company, then only the matches are joined to their conversation)
   * or `conversations` (the view's range first in its order, each client then read by its key) — see
   * `searchView`. `cross join` keeps that order on SQLite; PostgreSQL plans it itself.
   */
  function inView(
    companyId: number,
    o: Pick<ViewOptions, 'view' | 'userId' | 'visibility' | 'search'> & {
      from?: 'clients' | 'conversations';
    },
  ) {
    // The clients' search index serves the search when clients are read first; the view's own few
    // conversations are cheaper to test one by one than the index's matches to collect.
    const condition = searchCondition(o.search, o.from === 'conversations' ? undefined : db);
    let q = !condition
      ? db.selectFrom('conversations')
      : o.from === 'conversations'
        ? db
            .selectFrom('conversations')
            .crossJoin('clients')
            .whereRef('clients.id', '=', 'conversations.client_id')
            .where('clients.company_id', '=', companyId)
            .where(condition)
        : postgres
          ? // PostgreSQL: the matches first, from the trigram index (a materialized CTE), then hashed against
            // the view; left to itself it walks the whole view in order and tests each client by its key.
            db
              .with(
                (cte) => cte('matches').materialized(),
                (qb) =>
                  qb
                    .selectFrom('clients')
                    .select('clients.id')
                    .where('clients.company_id', '=', companyId)
                    .where(condition),
              )
              .selectFrom('matches')
              .innerJoin('conversations', 'conversations.client_id', 'matches.id')
          : db
              .selectFrom('clients')
              .crossJoin('conversations')
              .whereRef('conversations.client_id', '=', 'clients.id')
              .where('clients.company_id', '=', companyId)
              .where(condition);
    q = q
      .where('conversations.company_id', '=', companyId)
      .where('conversations.status', '=', o.view === 'resolved' ? 'resolved' : 'open')
      .where('conversations.last_message_at', 'is not', null);
    if (o.view === 'mine') q = q.where('conversations.assignee_user_id', '=', o.userId);
    else if (o.view === 'unassigned') q = q.where('conversations.assignee_user_id', 'is', null);
    else if (o.visibility.kind === 'own') {
      const own = o.visibility.userId;
      q = q.where((eb) =>
        eb.or([
          eb('conversations.assignee_user_id', 'is', null),
          eb('conversations.assignee_user_id', '=', own),
        ]),
      );
    }
    return q as SelectQueryBuilder<DB, 'conversations' | 'clients', object>;
  }

  /** These conversations of the company in the order of `ids`. */
  async function inOrder(companyId: number, ids: number[]): Promise<Conversation[]> {
    if (!ids.length) return [];
    // One statement for any page, compiled once: the ids travel as one JSON array.
    const { rows } = await conversationsById(db, { companyId, ids: JSON.stringify(ids) });
    const byId = new Map(rows.map((r) => [r.id, toConversation(r as ConversationRow)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async function findConversation(companyId: number, id: number): Promise<Conversation | undefined> {
    const row = await read()
      .where('conversations.company_id', '=', companyId)
      .where('conversations.id', '=', id)
      .executeTakeFirst();
    return row ? toConversation(row as ConversationRow) : undefined;
  }

  return {
    ...autoAssignQueries(db),

    findConversation,

    /** The client's conversation (one per client while a company has one number); undefined when none. */
    async findConversationByClient(companyId: number, clientId: number): Promise<Conversation | undefined> {
      const row = await read()
        .where('conversations.company_id', '=', companyId)
        .where('conversations.client_id', '=', clientId)
        .executeTakeFirst();
      return row ? toConversation(row as ConversationRow) : undefined;
    },

    /** The statement that picks a view's page of ids (exported for the tests' query plans). */
    pageQuery(companyId: number, o: ViewOptions & { from?: 'clients' | 'conversations' }) {
      return inView(companyId, o)
        .select('conversations.id')
        .orderBy('conversations.last_message_at', 'desc')
        .orderBy('conversations.client_id')
        .limit(o.limit)
        .offset(o.offset);
    },

    /** One page of a view, latest activity first (ties by client id). */
    async listPage(companyId: number, o: ViewOptions): Promise<Conversation[]> {
      const ids = (await this.pageQuery(companyId, o).execute()).map((r) => r.id);
      return inOrder(companyId, ids);
    },

    /**
     * One page of a searched view and how many match, counted up to `searchTotalBound` (the end of the
     * next page). The side read first depends on the view's size (`viewSize`, when the caller knows it)
     * and the search's candidates (`fewCandidates`): a large view and few candidates, the matching
     * clients first, joined to their conversations, counted while the page is picked; a small view or
     * many candidates, the view in its order (its index), each conversation's client tested, until the
     * page and the next one are found — a search matching a tenth finds them within a few hundred rows,
     * and never sorts or counts its thousands of matches.
     */
    async searchView(
      companyId: number,
      options: ViewOptions & { viewSize?: number },
    ): Promise<{ rows: Conversation[]; total: number }> {
      const bound = searchTotalBound(options.offset, options.limit);
      const search = options.search ?? '';
      // A view of at most SPARSE_CANDIDATES conversations (an agent's own, say) is walked whatever the
      // search: it holds no more rows than the few-candidates plan would read, and no candidate is counted.
      const smallView = options.viewSize !== undefined && options.viewSize <= SPARSE_CANDIDATES;
      if (smallView || !(await fewCandidates(db, companyId, search))) {
        const ids = await this.pageQuery(companyId, {
          ...options,
          from: 'conversations',
          limit: bound,
          offset: 0,
        }).execute();
        const page = ids.slice(options.offset, options.offset + options.limit).map((r) => r.id);
        return { rows: await inOrder(companyId, page), total: ids.length };
      }
      const o = { ...options, from: 'clients' as const };
      const found = await this.pageQuery(companyId, o)
        .select(sql<number>`count(*) over ()`.as('total'))
        .execute();
      let total = found.length ? Number(found[0]!.total) : 0;
      if (!found.length && o.offset > 0) {
        const row = await inView(companyId, o)
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow();
        total = Number(row.n);
      }
      return {
        rows: await inOrder(
          companyId,
          found.map((r) => r.id),
        ),
        total: Math.min(total, bound),
      };
    },

    /**
     * The views' sizes as the caller sees them (the tabs' counts and the size of a view without a
     * search), from the few rows of `inbox_counts` the database keeps. An agent who sees only their own:
     * `all` (and `resolved`) are theirs plus the unassigned.
     */
    async sizes(companyId: number, userId: number, visibility: Visibility): Promise<ViewSizes> {
      const rows = await db
        .selectFrom('inbox_counts')
        .select(['status', 'assignee_user_id', 'n'])
        .where('company_id', '=', companyId)
        .execute();
      const sum = (status: string, keep: (assignee: number) => boolean) =>
        rows
          .filter((r) => r.status === status && keep(r.assignee_user_id))
          .reduce((total, r) => total + Number(r.n), 0);
      const visible = (assignee: number) =>
        visibility.kind === 'all' || assignee === 0 || assignee === visibility.userId;
      return {
        mine: sum('open', (a) => a === userId),
        unassigned: sum('open', (a) => a === 0),
        all: sum('open', visible),
        resolved: sum('resolved', visible),
        listed: rows.reduce((total, r) => total + Number(r.n), 0),
      };
    },

    /** The conversation's client, assignee and status (for the rules of assigning); undefined when none. */
    async state(
      companyId: number,
      id: number,
    ): Promise<{ clientId: number; assigneeId: number | null; status: ConversationStatus } | undefined> {
      const row = await db
        .selectFrom('conversations')
        .select(['client_id', 'assignee_user_id', 'status'])
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row
        ? {
            clientId: row.client_id,
            assigneeId: row.assignee_user_id,
            status: row.status === 'resolved' ? 'resolved' : 'open',
          }
        : undefined;
    },

    /** Sets the assignee (null: nobody). */
    async setAssignee(companyId: number, id: number, userId: number | null): Promise<void> {
      await db
        .updateTable('conversations')
        .set({ assignee_user_id: userId, updated_at: now() })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .execute();
    },

    /** Resolved (with its time) or open again; false when it already was. */
    async setStatus(companyId: number, id: number, status: ConversationStatus): Promise<boolean> {
      const at = now();
      const result = await db
        .updateTable('conversations')
        .set({ status, resolved_at: status === 'resolved' ? at : null, updated_at: at })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('status', '!=', status)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** The client's WhatsApp number (a note is stored with it, as every message of the conversation). */
    async clientPhone(companyId: number, clientId: number): Promise<string | undefined> {
      const row = await db
        .selectFrom('clients')
        .select('whatsapp_cellphone')
        .where('company_id', '=', companyId)
        .where('id', '=', clientId)
        .executeTakeFirst();
      return row?.whatsapp_cellphone;
    },

    /** Whether the user is an admin or an agent of the company (who a conversation may be assigned to). */
    async isTeamMember(companyId: number, userId: number): Promise<boolean> {
      const row = await db
        .selectFrom('users')
        .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
        .innerJoin('roles', 'roles.id', 'user_roles.role_id')
        .select('users.id')
        .where('users.id', '=', userId)
        .where('users.company_id', '=', companyId)
        .where('roles.name', 'in', ['admin', 'agent'])
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type InboxRepository = ReturnType<typeof createInboxRepository>;
