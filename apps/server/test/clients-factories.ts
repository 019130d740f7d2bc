import type { Client, Segment } from '@hablabot/contract';
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

/** Creates a client in the company (with a segment of its own unless segment ids are given). */
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
  const repo = ctx.container.clientsRepository;
  const id = await repo.createClient(
    companyId,
    {
      name: values.name ?? `Client ${n}`,
      last_names: values.last_names ?? 'Pérez Gómez',
      whatsapp_cellphone: values.whatsapp_cellphone ?? uniquePhone(),
      email: values.email ?? `client${n}@example.test`,
      avatar: null,
      projects: values.projects ?? null,
    },
    segments,
  );
  return (await repo.findClient(companyId, id))!;
}
