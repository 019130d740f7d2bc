// The dataset of the scale run (bench/scale.ts): companies with their admins, WhatsApp settings, clients
// and a long history of messages, written straight into the database in large batches — the shape a
// company reaches after months of use, built in a minute instead of through millions of requests.
//
// Deterministic: message n goes to company n % companies, to a client chosen from n, at a time that grows
// with n (oldest first), sent in turn by the customer, the bot, the customer and an admin; one message in
// fifty from the company is not sent (status 4). The first client of the first company also holds one long
// conversation (`bigConversation` messages). Each client's last message, its date and its unread count
// are those of its messages: every fifth client ends with customer messages nobody has read yet.
import { MESSAGE_STATUS } from '@hablabot/contract';
import type { Container } from '../src/container';
import { derivedColumns } from '../src/modules/clients/clients.repository';
import { generateToken, hashToken } from '../src/platform/tokens';

export interface ScaleShape {
  companies: number;
  clientsPerCompany: number;
  /** Messages in all, the long conversation included. */
  messages: number;
  /** Messages of the first company's first client. */
  bigConversation: number;
  /** The history spreads over this many days, up to now. */
  days: number;
}

export const FULL_SCALE: ScaleShape = {
  companies: 10,
  clientsPerCompany: 5_000,
  messages: 1_000_000,
  bigConversation: 50_000,
  days: 60,
};

export interface ScaleCompany {
  id: number;
  /** A signed-in admin's bearer token. */
  adminToken: string;
  phoneNumberId: string;
  clientIds: number[];
}

export interface ScaleSeed {
  companies: ScaleCompany[];
  /** The client of the long conversation. */
  bigClientId: number;
  /** An APPROVED template with one body placeholder, in the first company. */
  templateId: number;
  /**
   * The first company's team inbox: its agents (`SCALE_AGENTS`, signed in) and how its conversations are
   * spread: a tenth resolved, a quarter of the rest unassigned, the others in turn over the agents.
   */
  agents: { id: number; token: string }[];

  superAdminToken: string;
  seconds: number;
}

const SENDERS = ['client', 'bot', 'client', 'admin'] as const;
/** Rows per INSERT: well under both engines' limits on bound values. */
const BATCH = 1_000;
const TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** Agents of the first company (issue 25: the team inbox at scale). */
export const SCALE_AGENTS = 10;

export const scalePhoneNumberId = (company: number) => `1065403522${String(company).padStart(5, '0')}`;
export const scaleClientPhone = (company: number, k: number) =>
  `521${String(company).padStart(2, '0')}${String(k).padStart(8, '0')}`;

/** Where message n goes: its company and client (by index). */
function placeOf(n: number, shape: ScaleShape): { company: number; client: number } {
  if (n < shape.bigConversation) return { company: 0, client: 0 };
  const m = n - shape.bigConversation;
  // Clients of a company take turns, so every client has some history.
  return { company: m % shape.companies, client: Math.floor(m / shape.companies) % shape.clientsPerCompany };
}

/**
 * Fills the container's database with `shape`. WhatsApp settings name each company's phone number id and
 * hold `appSecret` (webhooks must be signed with it), `graphToken` and `graphUrl` (the Cloud API to send
 * through, e.g. the fake's).
 */
export async function seedScale(
  container: Container,
  shape: ScaleShape,
  options: { appSecret: string; graphToken: string; graphUrl: string },
): Promise<ScaleSeed> {
  const started = performance.now();
  const { db, identity, settingsRepository, secrets } = container;
  const at = new Date().toISOString();
  const now = Date.now();
  const span = shape.days * 24 * 60 * 60 * 1000;
  const start = now - span;
  const timeOf = (n: number) => new Date(start + Math.floor((n / shape.messages) * (span - 60 * 60 * 1000)));

  const adminRole = (await identity.findRoleByName('admin'))!;
  const superRole = (await identity.findRoleByName('super_admin'))!;
  const token = async (userId: number) => {
    const value = generateToken();
    await identity.createToken(userId, hashToken(value), TOKEN_TTL_MS);
    return value;
  };
  const superId = await identity.createUser({
    name: 'Scale Super',
    email: `scale-super-${now}@hablabot.local`,
    passwordHash: 'unused',
    roleIds: [superRole.id],
  });

  // What each client's last message and unread count will be, from the messages it will get.
  const last = new Map<string, { n: number }>();
  for (let n = 0; n < shape.messages; n++) {
    const { company, client } = placeOf(n, shape);
    last.set(`${company}:${client}`, { n });
  }
  /** Every fifth client ends with unread customer messages (added after the history, the last hour). */
  const unreadOf = (client: number) => (client % 5 === 0 ? 1 + (client % 3) : 0);
  /** When unread message u (1…unread) of client k was written: a second apart, the last one newest. */
  const unreadAt = (k: number, u: number) => new Date(now - (k % 50) * 60_000 - (unreadOf(k) - u + 1) * 1000);

  const companies: ScaleCompany[] = [];
  for (let c = 0; c < shape.companies; c++) {
    const adminId = await identity.createUser({
      name: `Admin ${c}`,
      email: `scale-admin-${c}-${now}@hablabot.local`,
      passwordHash: 'unused',
      roleIds: [adminRole.id],
      newCompanyName: `Empresa ${c}`,
    });
    const companyId = (await identity.findUserById(adminId))!.company_id!;
    await settingsRepository.upsertSettings(companyId, {
      whatsapp_phone_id: scalePhoneNumberId(c),
      whatsapp_app_secret_enc: secrets.encrypt(options.appSecret),
      whatsapp_api_key_enc: secrets.encrypt(options.graphToken),
      facebook_messages_api_url: options.graphUrl,
    });
    const clientIds: number[] = [];
    for (let from = 0; from < shape.clientsPerCompany; from += BATCH) {
      const rows = [];
      const chats: {
        last_message_content: string | null;
        last_message_at: string | null;
        unread_count: number;
      }[] = [];
      for (let k = from; k < Math.min(from + BATCH, shape.clientsPerCompany); k++) {
        const name = `Cliente ${c}-${k}`;
        const email = `cliente${c}.${k}@example.com`;
        const mine = last.get(`${c}:${k}`);
        const unread = unreadOf(k);
        const lastDate = unread ? unreadAt(k, unread) : mine && timeOf(mine.n);
        chats.push({
          last_message_content: unread ? `Sin leer ${unread}` : mine ? `Mensaje ${mine.n}` : null,
          last_message_at: lastDate ? lastDate.toISOString() : null,
          unread_count: unread,
        });
        rows.push({
          company_id: companyId,
          name,
          last_names: 'Prueba',
          whatsapp_cellphone: scaleClientPhone(c, k),
          email,
          avatar: null,
          projects: null,
          wa_user_id: null,
          ...derivedColumns({ name, last_names: 'Prueba', email }),
          created_at: at,
          updated_at: at,
        });
      }
      const inserted = await db.insertInto('clients').values(rows).returning('id').execute();
      clientIds.push(...inserted.map((r) => r.id));
      // Each written client's conversation as the product's writes leave it; the trigger on messages
      // adds the count and the customer's last message time as the messages go in below.
      const conversations = inserted.flatMap((r, i) =>
        chats[i]!.last_message_at === null
          ? []
          : [{ company_id: companyId, client_id: r.id, ...chats[i]!, created_at: at, updated_at: at }],
      );
      if (conversations.length) await db.insertInto('conversations').values(conversations).execute();
    }
    companies.push({
      id: companyId,
      adminToken: await token(adminId),
      phoneNumberId: scalePhoneNumberId(c),
      clientIds,
    });
  }

  let batch: object[] = [];
  const flush = async () => {
    if (!batch.length) return;
    await db
      .insertInto('messages')
      .values(batch as never)
      .execute();
    batch = [];
  };
  for (let n = 0; n < shape.messages; n++) {
    const { company, client } = placeOf(n, shape);
    const sender = SENDERS[n % SENDERS.length]!;
    const when = timeOf(n).toISOString();
    batch.push({
      company_id: companies[company]!.id,
      client_id: companies[company]!.clientIds[client]!,
      wamid: `wamid.scale.${n}`,
      sender_type: sender,
      message_type: 'text',
      wa_type: 'text',
      content: `Mensaje ${n}`,
      phone: scaleClientPhone(company, client),
      status:
        sender === 'client'
          ? MESSAGE_STATUS.read
          : n % 50 === 1
            ? MESSAGE_STATUS.failed
            : MESSAGE_STATUS.read,
      created_at: when,
      updated_at: when,
    });
    if (batch.length === BATCH) await flush();
  }
  // The unread customer messages each fifth client ends with.
  for (let c = 0; c < shape.companies; c++) {
    for (let k = 0; k < shape.clientsPerCompany; k++) {
      const unread = unreadOf(k);
      for (let u = 1; u <= unread; u++) {
        const when = unreadAt(k, u).toISOString();
        batch.push({
          company_id: companies[c]!.id,
          client_id: companies[c]!.clientIds[k]!,
          wamid: `wamid.scale.unread.${c}.${k}.${u}`,
          sender_type: 'client',
          message_type: 'text',
          wa_type: 'text',
          content: `Sin leer ${u}`,
          phone: scaleClientPhone(c, k),
          status: MESSAGE_STATUS.delivered,
          created_at: when,
          updated_at: when,
        });
        if (batch.length === BATCH) await flush();
      }
    }
  }
  await flush();

  // The first company's agents, and its conversations spread over them (the inbox_counts triggers follow).
  const agentRole = (await identity.findRoleByName('agent'))!;
  const agents: { id: number; token: string }[] = [];
  for (let a = 0; a < SCALE_AGENTS; a++) {
    const id = await identity.createUser({
      name: `Agente ${a}`,
      email: `scale-agent-${a}-${now}@hablabot.local`,
      passwordHash: 'unused',
      roleIds: [agentRole.id],
      companyId: companies[0]!.id,
    });
    agents.push({ id, token: await token(id) });
  }
  const inbox = await db
    .selectFrom('conversations')
    .select('id')
    .where('company_id', '=', companies[0]!.id)
    .orderBy('id')
    .execute();
  const groups = new Map<string, number[]>();
  inbox.forEach(({ id }, k) => {
    const key =
      k % 10 === 9 ? `resolved:${k % SCALE_AGENTS}` : k % 4 === 0 ? 'open:-' : `open:${k % SCALE_AGENTS}`;
    groups.set(key, [...(groups.get(key) ?? []), id]);
  });
  for (const [key, ids] of groups) {
    const [status, agent] = key.split(':') as ['open' | 'resolved', string];
    for (let from = 0; from < ids.length; from += BATCH)
      await db
        .updateTable('conversations')
        .set({
          status,
          assignee_user_id: agent === '-' ? null : agents[Number(agent)]!.id,
          resolved_at: status === 'resolved' ? at : null,
        })
        .where('id', 'in', ids.slice(from, from + BATCH))
        .execute();
  }

  const template = await db
    .insertInto('message_templates')
    .values({
      company_id: companies[0]!.id,
      meta_id: 'scale-1',
      name: 'aviso_escala',
      language: 'es',
      status: 'APPROVED',
      category: 'MARKETING',
      components: JSON.stringify([
        { type: 'BODY', format: null, text: 'Hola {{1}}, tenemos novedades.', buttons: [] },
      ]),
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  return {
    companies,
    bigClientId: companies[0]!.clientIds[0]!,
    templateId: template.id,
    agents,
    superAdminToken: await token(superId),
    seconds: (performance.now() - started) / 1000,
  };
}
