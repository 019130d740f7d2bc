import {
  MASS_DEFAULT_MESSAGES_PER_SECOND,
  MASS_RECIPIENT_STATUSES,
  type MassMessage,
  type MassMessageCounts,
  type MassMessageStatus,
  type MassRecipient,
  type MassRecipientStatus,
} from '@hablabot/contract';
import { type Insertable, type Selectable, sql } from 'kysely';
import type { MassMessageRecipientsTable, MassMessagesTable } from '../../db/schema';
import { type Executor, atomically } from '../../db/transactions';
import { hasText, translate } from '../../platform/locale';
import { fold } from '../clients/fold';
import { skipOptedOutRecipients } from './opted-out';
import { explainError } from '../messaging/whatsapp-errors';

export type MassMessageRow = Selectable<MassMessagesTable>;
/** Meta's marketing frequency cap: the customer got enough marketing messages for now. */
export const FREQUENCY_CAP_CODE = 131049;
export type RecipientRow = Selectable<MassMessageRecipientsTable>;

const now = () => new Date().toISOString();
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function emptyCounts(total = 0): MassMessageCounts {
  return {
    total,
    queued: total,
    sending: 0,
    sent: 0,
    delivered: 0,
    read: 0,
    failed: 0,
    unknown: 0,
    cancelled: 0,
    skipped: 0,
  };
}

/** A recipient's error text: our reasons are text keys (shown in Spanish), WhatsApp's are kept as they came. */
export function errorText(message: string | null, lang: 'es' | 'en' = 'es'): string | null {
  if (message === null) return null;
  const [key, n] = message.split('|');
  if (hasText(key)) return translate(lang, key, n ? { n } : undefined);
  return message;
}

export function toMassMessage(r: MassMessageRow): MassMessage {
  let counts: MassMessageCounts;
  try {
    counts = { ...emptyCounts(), ...JSON.parse(r.counts) };
  } catch {
    counts = emptyCounts();
  }
  return {
    id: r.id,
    name: r.name,
    status: r.status as MassMessageStatus,
    list_id: r.list_id,
    list_name: r.list_name,
    message_template_id: r.template_id,
    template_name: r.template_name,
    template_language: r.template_language,
    message: r.message,
    bodyParameters: JSON.parse(r.body_parameters),
    media_id: r.media_id,
    messages_per_second: r.messages_per_second,
    scheduled_at: r.scheduled_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
    retry_capped: Boolean(r.retry_capped),
    waiting_limit_until: r.waiting_limit_until ?? null,
    counts,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** A failure we gave before sending (a text key, no WhatsApp code), already in words in error_message. */
const ourReason = (r: RecipientRow) =>
  r.error_code === null && r.error_message !== null && hasText(r.error_message.split('|')[0]!);

export function toRecipient(r: RecipientRow, lang: 'es' | 'en' = 'es'): MassRecipient {
  return {
    id: r.id,
    client_id: r.client_id,
    name: r.name,
    last_names: r.last_names,
    phone: r.phone,
    status: r.status as MassRecipientStatus,
    wamid: r.wamid,
    error_code: r.error_code,
    error_message: errorText(r.error_message, lang),
    skip_reason: r.status === 'skipped' ? ((r.skip_reason as 'opted_out' | null) ?? 'opted_out') : null,
    // WhatsApp's refusal explained; our own reasons (no phone, a blank value) already say it in error_message.
    error: r.status === 'failed' && !ourReason(r) ? explainError(lang, r.error_code, r.error_message) : null,
    attempts: Number(r.attempts),
    retry_at: r.status === 'queued' && r.error_code === FREQUENCY_CAP_CODE ? r.not_before : null,
    sent_at: r.sent_at,
    delivered_at: r.delivered_at,
    read_at: r.read_at,
    updated_at: r.updated_at,
  };
}

/**
 * The order a recipient's WhatsApp status climbs in, the chat's rule (message-rows.ts STATUS_RANK): a
 * failed that comes after sent or delivered is always kept (a delivered report does not hide it, and a
 * later delivered does not undo it); only read, which proves the customer saw the message, outranks it.
 * A status never replaces one of a higher rank, whatever order WhatsApp's reports arrive in. The
 * recipient's own states before WhatsApp answers (queued, sending, unknown) rank lowest.
 */
export const STATUS_RANK: Record<string, number> = { sent: 1, delivered: 2, failed: 3, read: 4 };

const rankOfStored = sql<number>`case status ${sql.join(
  Object.entries(STATUS_RANK).map(([status, rank]) => sql`when ${sql.lit(status)} then ${sql.lit(rank)}`),
  sql` `,
)} else 0 end`;

/** A list with no client of the company: nothing is kept. */
class EmptyList extends Error {}

/** Database access of mass messages and their recipients. */
export function createMassMessagesRepository(db: Executor) {
  return {
    /**
     * Stores a send and one recipient per client of the list in one transaction — the recipients in a
     * single INSERT … SELECT however many there are, each with the client's name, phone and email as
     * they are now. The send's id; undefined (and nothing kept) when the list has no client of the company.
     */
    async insertWithRecipients(
      send: Omit<Insertable<MassMessagesTable>, 'counts' | 'created_at' | 'updated_at'>,
      listId: number,
    ): Promise<number | undefined> {
      try {
        return await atomically(db, async (tx) => {
          const at = now();
          const row = await tx
            .insertInto('mass_messages')
            .values({ ...send, counts: JSON.stringify(emptyCounts()), created_at: at, updated_at: at })
            .returning('id')
            .executeTakeFirstOrThrow();
          const inserted = await tx
            .insertInto('mass_message_recipients')
            .columns([
              'mass_message_id',
              'company_id',
              'client_id',
              'name',
              'last_names',
              'phone',
              'email',
              'status',
              'updated_at',
            ])
            .expression(
              tx
                .selectFrom('client_list_members')
                .innerJoin('clients', 'clients.id', 'client_list_members.client_id')
                .select([
                  sql<number>`cast(${row.id} as integer)`.as('mass_message_id'),
                  'clients.company_id',
                  'clients.id',
                  'clients.name',
                  'clients.last_names',
                  'clients.whatsapp_cellphone',
                  'clients.email',
                  sql<string>`${'queued'}`.as('status'),
                  sql<string>`${at}`.as('updated_at'),
                ])
                .where('client_list_members.list_id', '=', listId)
                .where('clients.company_id', '=', send.company_id)
                .orderBy('clients.id'),
            )
            .executeTakeFirst();
          const total = Number(inserted.numInsertedOrUpdatedRows ?? 0);
          if (total === 0) throw new EmptyList();
          // Customers who opted out of campaigns are skipped, never sent.
          const skipped = await skipOptedOutRecipients(tx, { id: row.id, company_id: send.company_id }, at);
          await tx
            .updateTable('mass_messages')
            .set({ counts: JSON.stringify({ ...emptyCounts(total), queued: total - skipped, skipped }) })
            .where('id', '=', row.id)
            .execute();
          return row.id;
        });
      } catch (error) {
        if (error instanceof EmptyList) return undefined;
        throw error;
      }
    },

    async find(companyId: number, id: number): Promise<MassMessageRow | undefined> {
      return db
        .selectFrom('mass_messages')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst() as Promise<MassMessageRow | undefined>;
    },

    async findById(id: number): Promise<MassMessageRow | undefined> {
      return db.selectFrom('mass_messages').selectAll().where('id', '=', id).executeTakeFirst() as Promise<
        MassMessageRow | undefined
      >;
    },

    /** How many of the send's recipients are in each state, counted now. */
    async countByStatus(massMessageId: number): Promise<MassMessageCounts> {
      const rows = await db
        .selectFrom('mass_message_recipients')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .where('mass_message_id', '=', massMessageId)
        .groupBy('status')
        .execute();
      const counts = emptyCounts();
      counts.queued = 0;
      for (const r of rows) {
        if ((MASS_RECIPIENT_STATUSES as readonly string[]).includes(r.status))
          counts[r.status as MassRecipientStatus] = Number(r.n);
        counts.total += Number(r.n);
      }
      return counts;
    },

    async saveCounts(massMessageId: number, counts: MassMessageCounts) {
      await db
        .updateTable('mass_messages')
        .set({ counts: JSON.stringify(counts) })
        .where('id', '=', massMessageId)
        .execute();
    },

    async history(
      companyId: number,
      query: { page: number; per_page: number; status?: string; search?: string },
    ): Promise<{ rows: MassMessageRow[]; total: number }> {
      let q = db.selectFrom('mass_messages').where('company_id', '=', companyId);
      if (query.status) q = q.where('status', '=', query.status);
      const text = (query.search ?? '').trim().toLowerCase();
      if (text)
        q = q.where((eb) =>
          eb.or([
            sql<boolean>`lower(name) like ${containsPattern(text)} escape '\\'`,
            sql<boolean>`lower(list_name) like ${containsPattern(text)} escape '\\'`,
          ]),
        );
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = (await q
        .selectAll()
        .orderBy('id', 'desc')
        .limit(query.per_page)
        .offset((query.page - 1) * query.per_page)
        .execute()) as MassMessageRow[];
      return { rows, total: Number(total.n) };
    },

    async recipients(
      massMessageId: number,
      query: { page: number; per_page: number; status?: string[]; search?: string },
    ): Promise<{ rows: RecipientRow[]; total: number }> {
      let q = db.selectFrom('mass_message_recipients').where('mass_message_id', '=', massMessageId);
      if (query.status?.length) q = q.where('status', 'in', query.status);
      const text = fold(query.search ?? '');
      if (text) {
        const digits = /^[\d\s+\-.()/]+$/.test(text) ? text.replace(/\D/g, '') : '';
        q = q.where((eb) =>
          eb.or([
            sql<boolean>`lower(name || ' ' || last_names) like ${containsPattern(text)} escape '\\'`,
            ...(digits ? [sql<boolean>`phone like ${containsPattern(digits)}`] : []),
          ]),
        );
      }
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = (await q
        .selectAll()
        .orderBy('id')
        .limit(query.per_page)
        .offset((query.page - 1) * query.per_page)
        .execute()) as RecipientRow[];
      return { rows, total: Number(total.n) };
    },

    /** Every recipient in the given states, by id, a page at a time (for the export). */
    async *allRecipients(massMessageId: number, statuses?: string[]): AsyncGenerator<RecipientRow[]> {
      let after = 0;
      for (;;) {
        let q = db
          .selectFrom('mass_message_recipients')
          .selectAll()
          .where('mass_message_id', '=', massMessageId)
          .where('id', '>', after);
        if (statuses?.length) q = q.where('status', 'in', statuses);
        const rows = (await q.orderBy('id').limit(2000).execute()) as RecipientRow[];
        if (!rows.length) return;
        yield rows;
        after = rows[rows.length - 1].id;
      }
    },

    /** The company's pace, or the default. */
    async pace(companyId: number): Promise<number> {
      const row = await db
        .selectFrom('companies')
        .select('mass_messages_per_second')
        .where('id', '=', companyId)
        .executeTakeFirst();
      return row?.mass_messages_per_second ?? MASS_DEFAULT_MESSAGES_PER_SECOND;
    },

    async setPace(companyId: number, perSecond: number) {
      await db
        .updateTable('companies')
        .set({ mass_messages_per_second: perSecond, updated_at: now() })
        .where('id', '=', companyId)
        .execute();
    },

    /**
     * The recipients among `ids` whose message WhatsApp already reported delivered, read or failed (a
     * status that can come before their message is kept in the conversation).
     */
    async reportedStatuses(
      ids: number[],
    ): Promise<Pick<RecipientRow, 'id' | 'status' | 'error_code' | 'error_message'>[]> {
      if (!ids.length) return [];
      return db
        .selectFrom('mass_message_recipients')
        .select(['id', 'status', 'error_code', 'error_message'])
        .where('id', 'in', ids)
        .where('status', 'in', ['delivered', 'read', 'failed'])
        .execute();
    },

    /**
     * A WhatsApp status for a recipient's message, by its wamid: moves the recipient when that is a step
     * up (see STATUS_RANK), in one statement, so two reports at once cannot move it backwards. Failed
     * keeps WhatsApp's code and text; any other status clears them. The send's id when the recipient
     * changed; undefined when the wamid is unknown or the status is not a step up.
     */
    async applyStatus(
      companyId: number,
      wamid: string,
      status: 'sent' | 'delivered' | 'read' | 'failed',
      at: string,
      error: { code: number | null; message: string | null },
    ): Promise<number | undefined> {
      const failed = status === 'failed';
      const row = await db
        .updateTable('mass_message_recipients')
        .set({
          status,
          error_code: failed ? error.code : null,
          error_message: failed ? error.message : null,
          ...(status === 'delivered' ? { delivered_at: at } : {}),
          ...(status === 'read' ? { read_at: at } : {}),
          updated_at: now(),
        })
        .where('wamid', '=', wamid)
        .where('company_id', '=', companyId)
        .where(rankOfStored, '<', STATUS_RANK[status])
        .returning('mass_message_id')
        .executeTakeFirst();
      return row?.mass_message_id;
    },
  };
}

export type MassMessagesRepository = ReturnType<typeof createMassMessagesRepository>;
