import type { Client, Segment } from '@hablabot/contract';
import { derivedColumns } from '../src/modules/clients/clients.repository';
import type { TestContext } from './context';

let seq = 0;
const next = () => ++seq;

/** A fresh phone number (digits only, with a country code); each test file has a database of its own. */
export function uniquePhone(): string {
  return `34600${String(next()).padStart(6, '0')}`;
}

/** Creates a segment in the company straight through the repository (no HTTP). */
export async function createSegment(
  ctx: TestContext,
  companyId: number,
  values: Partial<{ name: string; color: string; rules: string }> = {},
): Promise<Segment> {
  const repo = ctx.container.segmentsRepository;
  const id = await repo.createSegment(companyId, {
    name: values.name ?? `Segment ${next()}`,
    color: values.color ?? '#7300ff',
    rules: values.rules ?? 'Clients who asked about prices',
  });
  return (await repo.findSegment(companyId, id))!;
}

/** Creates a client in the company through the service (with a segment of its own unless segment ids are given). */
export async function createClient(
  ctx: TestContext,
  companyId: number,
  values: Partial<{
    name: string;
    last_names: string;
    whatsapp_cellphone: string;
    email: string;
    projects: string | null;
    segments: number[];
  }> = {},
): Promise<Client> {
  const segments = values.segments ?? [(await createSegment(ctx, companyId)).id];
  const n = next();
  return ctx.container.clients.create(companyId, {
    name: values.name ?? `Client ${n}`,
    last_names: values.last_names ?? 'Pérez Gómez',
    whatsapp_cellphone: values.whatsapp_cellphone ?? uniquePhone(),
    email: values.email ?? `client${n}@example.test`,
    avatar: null,
    projects: values.projects ?? null,
    segments,
  });
}

export interface SeedClient {
  name: string;
  last_names: string;
  whatsapp_cellphone: string;
  email: string | null;
  projects?: string | null;
  created_at?: string;
}

/**
 * Inserts many clients at once straight into the table (fixtures for lists of 10,000), with the columns
 * the repository derives computed by the repository's own function. Returns their ids in order.
 */
export async function seedClients(
  ctx: TestContext,
  companyId: number,
  rows: SeedClient[],
): Promise<number[]> {
  const ids: number[] = [];
  const at = new Date().toISOString();
  for (let i = 0; i < rows.length; i += 500) {
    const part = rows.slice(i, i + 500);
    const saved = await ctx.container.db
      .insertInto('clients')
      .values(
        part.map((r) => ({
          company_id: companyId,
          name: r.name,
          last_names: r.last_names,
          whatsapp_cellphone: r.whatsapp_cellphone,
          email: r.email,
          projects: r.projects ?? null,
          ...derivedColumns(r),
          created_at: r.created_at ?? at,
          updated_at: r.created_at ?? at,
        })),
      )
      .returning(['id', 'whatsapp_cellphone'])
      .execute();
    const idOf = new Map(saved.map((s) => [s.whatsapp_cellphone, s.id]));
    ids.push(...part.map((r) => idOf.get(r.whatsapp_cellphone)!));
  }
  return ids;
}

/** The chat state a test gives a client's conversation (created when the client has none). */
export interface ConversationState {
  unread_count?: number;
  last_message_content?: string | null;
  last_message_at?: string | null;
  bot_paused?: number;
  messages_count?: number;
}

/** Writes the client's conversation straight into the table, as the messaging module would have left it. */
export async function setConversation(
  ctx: Pick<TestContext, 'container'>,
  client: { id: number },
  state: ConversationState,
): Promise<void> {
  const db = ctx.container.db;
  const owner = await db
    .selectFrom('clients')
    .select('company_id')
    .where('id', '=', client.id)
    .executeTakeFirstOrThrow();
  const at = new Date().toISOString();
  await db
    .insertInto('conversations')
    .values({ company_id: owner.company_id, client_id: client.id, ...state, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('client_id').doUpdateSet({ ...state, updated_at: at }))
    .execute();
}

/** The client's conversation as stored; undefined when it has none yet. */
export async function conversationOf(ctx: Pick<TestContext, 'container'>, clientId: number) {
  return ctx.container.db
    .selectFrom('conversations')
    .selectAll()
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}
