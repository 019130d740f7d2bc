import type { WebhookDeliveriesQueryParams, WebhookDelivery } from '@hablabot/contract';
import type { Kysely, Selectable } from 'kysely';
import type { DB, WebhookDeliveriesTable } from '../../db/schema';
import { readWebhook } from '../../integrations/whatsapp/webhook';
import { conflict, notFound } from '../../platform/errors';
import type { WebhookInbox } from './webhook-inbox';

type Row = Pick<
  Selectable<WebhookDeliveriesTable>,
  'id' | 'received_at' | 'status' | 'attempts' | 'last_error' | 'company_ids' | 'body'
>;

/** How many customer messages and statuses a kept body holds (0 and 0 when it cannot be read). */
function summaryOf(body: string) {
  try {
    const changes = readWebhook(JSON.parse(body));
    return {
      messages: changes.reduce((n, c) => n + c.messages.length, 0),
      statuses: changes.reduce((n, c) => n + c.statuses.length, 0),
    };
  } catch {
    return { messages: 0, statuses: 0 };
  }
}

/**
 * The super admin's view of the webhook inbox: its deliveries by status, newest first, and the replay
 * of a failed one (back to pending, processed at once; a new failure leaves it failed again).
 */
export function createWebhookDeliveries(deps: { db: Kysely<DB>; inbox: Pick<WebhookInbox, 'processNow'> }) {
  const { db } = deps;
  const columns = ['id', 'received_at', 'status', 'attempts', 'last_error', 'company_ids', 'body'] as const;

  /** The rows as the API shows them, their companies read in one query. */
  async function present(rows: Row[]): Promise<WebhookDelivery[]> {
    const firstCompany = (r: Row) => Number(r.company_ids.split(',')[0]) || undefined;
    const ids = [...new Set(rows.flatMap((r) => firstCompany(r) ?? []))];
    const companies = ids.length
      ? await db.selectFrom('companies').select(['id', 'name']).where('id', 'in', ids).execute()
      : [];
    const byId = new Map(companies.map((c) => [c.id, c]));
    return rows.map((r) => {
      const companyId = firstCompany(r);
      const company = companyId === undefined ? undefined : byId.get(companyId);
      return {
        id: r.id,
        received_at: new Date(r.received_at).toISOString(),
        status: r.status,
        attempts: r.attempts,
        last_error: r.last_error,
        company: company ? { id: company.id, name: company.name } : null,
        summary: summaryOf(r.body),
      };
    });
  }

  async function find(id: number) {
    return db.selectFrom('webhook_deliveries').select(columns).where('id', '=', id).executeTakeFirst();
  }

  return {
    async list(query: WebhookDeliveriesQueryParams) {
      const { status, page, per_page } = query;
      const [rows, total] = await Promise.all([
        db
          .selectFrom('webhook_deliveries')
          .select(columns)
          .where('status', '=', status)
          .orderBy('id', 'desc')
          .limit(per_page)
          .offset((page - 1) * per_page)
          .execute(),
        db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('status', '=', status)
          .executeTakeFirstOrThrow(),
      ]);
      const count = Number(total.n);
      return {
        data: await present(rows),
        pagination: {
          current_page: page,
          per_page,
          total: count,
          last_page: Math.max(1, Math.ceil(count / per_page)),
        },
      };
    },

    /** A failed delivery tried once more, now: 404 unknown, 409 when it is not failed. */
    async replay(id: number): Promise<WebhookDelivery> {
      const row = await find(id);
      if (!row) throw notFound('webhooks.not_found');
      if (row.status !== 'failed') throw conflict('webhooks.not_failed');
      const result = await db
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', next_attempt_at: new Date(0).toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'failed')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw conflict('webhooks.not_failed');
      await deps.inbox.processNow();
      const after = await find(id);
      if (!after) throw notFound('webhooks.not_found');
      return (await present([after]))[0]!;
    },
  };
}

export type WebhookDeliveries = ReturnType<typeof createWebhookDeliveries>;
