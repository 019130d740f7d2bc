import { prepared } from '../../db/prepared';
import type { Executor } from '../../db/transactions';
import { phoneKey } from '../../platform/phone';
import { chunks, derivedColumns, isPostgres, now } from './client-rows';

// The statements a customer's message runs (see db/prepared.ts: compiled once, not per message).

/**
 * The company's client with this phone key (platform/phone.ts: a WhatsApp id and the stored number that
 * differ by a mobile variant have one key): one lookup in the unique (company, key) index. Locked on
 * PostgreSQL until the caller's transaction ends.
 */
const clientByPhoneKey = prepared((db, v: { companyId: number; key: string }) => {
  const query = db
    .selectFrom('clients')
    .select(['id', 'wa_user_id'])
    .where('company_id', '=', v.companyId)
    .where('phone_key', '=', v.key);
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
        oc.columns(['company_id', 'phone_key']).doUpdateSet((eb) => ({
          wa_user_id: eb.fn.coalesce('excluded.wa_user_id', 'clients.wa_user_id'),
        })),
      )
      .returning('id'),
);

/**
 * The clients the webhook finds or creates for the customers who write on WhatsApp (by phone key, or by
 * WhatsApp's user id). Part of the clients repository (`createClientsRepository` spreads it in), so
 * `tx.clientsRepository.upsertManyFromWhatsApp` runs in the caller's transaction.
 */
export function createWhatsAppClients(db: Executor) {
  return {
    /**
     * The client who wrote from this phone on WhatsApp (found by its key, so the client stored as
     * 525512345678 is the one writing from WhatsApp id 5215512345678), created when new (named by their WhatsApp profile)
     * and given WhatsApp's user id when it came. A known client is only read (and written when its user id
     * is new), so the common case writes nothing; on PostgreSQL the row stays locked until the caller's
     * transaction ends, so two messages of one client are counted one after the other. A new client is
     * inserted in one statement, so two first messages at once make one client. Returns the id.
     */
    async upsertFromWhatsApp(
      companyId: number,
      values: { phone: string; name: string; waUserId: string | null },
    ): Promise<{ id: number }> {
      const [found] = (await clientByPhoneKey(db, { companyId, key: phoneKey(values.phone) })).rows;
      if (found) {
        if (values.waUserId && found.wa_user_id !== values.waUserId)
          await db
            .updateTable('clients')
            .set({ wa_user_id: values.waUserId })
            .where('company_id', '=', companyId)
            .where('id', '=', found.id)
            .execute();
        return { id: found.id };
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

    /**
     * `upsertFromWhatsApp` for the customers of a batch of messages at once: the known clients read by
     * their phone keys in one statement (locked on PostgreSQL, in key order), the new ones inserted in one
     * (the first message of a phone names the client), a WhatsApp user id that is new written. The client
     * id of each phone key (`phoneKey`).
     */
    async upsertManyFromWhatsApp(
      companyId: number,
      values: { phone: string; name: string; waUserId: string | null }[],
    ): Promise<Map<string, number>> {
      const byKey = new Map<string, { phone: string; name: string; waUserId: string | null }>();
      for (const v of values) {
        const key = phoneKey(v.phone);
        const seen = byKey.get(key);
        if (!seen) byKey.set(key, { ...v });
        else if (v.waUserId) seen.waUserId = v.waUserId;
      }
      const ids = new Map<string, number>();
      const keys = [...byKey.keys()].sort();
      for (const part of chunks(keys, 500)) {
        let query = db
          .selectFrom('clients')
          .select(['id', 'phone_key', 'wa_user_id'])
          .where('company_id', '=', companyId)
          .where('phone_key', 'in', part)
          .orderBy('phone_key');
        if (isPostgres(db)) query = query.forUpdate();
        for (const found of await query.execute()) {
          ids.set(found.phone_key, found.id);
          const waUserId = byKey.get(found.phone_key)?.waUserId;
          if (waUserId && found.wa_user_id !== waUserId)
            await db
              .updateTable('clients')
              .set({ wa_user_id: waUserId })
              .where('company_id', '=', companyId)
              .where('id', '=', found.id)
              .execute();
        }
      }
      const missing = keys.filter((key) => !ids.has(key));
      const at = now();
      for (const part of chunks(missing, 200)) {
        const created = await db
          .insertInto('clients')
          .values(
            part.map((key) => {
              const v = byKey.get(key)!;
              const derived = derivedColumns({ name: v.name, last_names: '', email: null });
              return {
                company_id: companyId,
                name: v.name,
                last_names: '',
                email: null,
                whatsapp_cellphone: v.phone,
                wa_user_id: v.waUserId,
                name_sort: derived.name_sort,
                search_text: derived.search_text,
                created_at: at,
                updated_at: at,
              };
            }),
          )
          .onConflict((oc) =>
            oc.columns(['company_id', 'phone_key']).doUpdateSet((eb) => ({
              wa_user_id: eb.fn.coalesce('excluded.wa_user_id', 'clients.wa_user_id'),
            })),
          )
          .returning(['id', 'phone_key'])
          .execute();
        for (const c of created) ids.set(c.phone_key, c.id);
      }
      return ids;
    },

    /** The client WhatsApp knows by this user id (sent instead of the phone by newer webhooks). */
    async findByWaUserId(
      companyId: number,
      waUserId: string,
    ): Promise<{ id: number; whatsapp_cellphone: string } | undefined> {
      return db
        .selectFrom('clients')
        .select(['id', 'whatsapp_cellphone'])
        .where('company_id', '=', companyId)
        .where('wa_user_id', '=', waUserId)
        .orderBy('id')
        .executeTakeFirst();
    },
  };
}
