import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, createSegment, uniquePhone } from '../test/clients-factories';
import { type TestContext, createTestContext } from '../test/context';
import { type TestUser, createUser } from '../test/factories';
import { isUniqueViolation } from './db/errors';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

describe(`withTransaction: writes through several repositories commit together or not at all (${engine})`, () => {
  let ctx: TestContext;
  let admin: TestUser;
  let companyId: number;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await createUser(ctx, { role: 'admin' });
    companyId = admin.user.company_id!;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const values = (phone: string) => ({
    name: 'Tx',
    last_names: 'Test',
    whatsapp_cellphone: phone,
    email: 'tx@example.test',
  });
  const segmentNamed = (name: string) =>
    ctx.container.db.selectFrom('segments').select('id').where('name', '=', name).executeTakeFirst();

  it('a unique violation in the second write rolls back the first', async () => {
    const taken = (await createClient(ctx, companyId)).whatsapp_cellphone;
    const failed = ctx.container.withTransaction(async (tx) => {
      await tx.segmentsRepository.createSegment(companyId, {
        name: 'Rolled back',
        color: '#000000',
        rules: 'r',
      });
      await tx.clientsRepository.insertClient(companyId, values(taken));
    });
    await expect(failed).rejects.toSatisfy(isUniqueViolation);
    expect(await segmentNamed('Rolled back')).toBeUndefined();
  });

  it('commits every write when the work succeeds, and hands back its result', async () => {
    const phone = uniquePhone();
    const id = await ctx.container.withTransaction(async (tx) => {
      const segmentId = await tx.segmentsRepository.createSegment(companyId, {
        name: 'Committed',
        color: '#000000',
        rules: 'r',
      });
      const clientId = await tx.clientsRepository.insertClient(companyId, values(phone));
      await tx.segmentsRepository.setClientSegments(companyId, clientId, [segmentId]);
      return clientId;
    });
    const client = await ctx.container.clientsRepository.findClient(companyId, id);
    expect(client?.segments.map((s) => s.name)).toEqual(['Committed']);
  });

  it("a repository's own multi-statement write joins the transaction instead of committing alone", async () => {
    const victim = await createClient(ctx, companyId);
    const taken = (await createClient(ctx, companyId)).whatsapp_cellphone;
    const failed = ctx.container.withTransaction(async (tx) => {
      expect(await tx.clientsRepository.deleteClients(companyId, [victim.id])).toBe(true);
      await tx.clientsRepository.insertClient(companyId, values(taken));
    });
    await expect(failed).rejects.toSatisfy(isUniqueViolation);
    expect(await ctx.container.clientsRepository.findClient(companyId, victim.id)).toEqual(victim);
  });

  it('identity repositories join it too: a user, its company and roles roll back with the rest', async () => {
    const role = await ctx.container.roles.findRoleByName('admin');
    const taken = (await createClient(ctx, companyId)).whatsapp_cellphone;
    const failed = ctx.container.withTransaction(async (tx) => {
      await tx.users.createUser({
        name: 'Ghost',
        email: 'ghost@example.test',
        passwordHash: 'unused',
        roleIds: [role!.id],
        newCompanyName: 'Ghost company',
      });
      await tx.clientsRepository.insertClient(companyId, values(taken));
    });
    await expect(failed).rejects.toSatisfy(isUniqueViolation);
    expect(await ctx.container.users.findUserByEmail('ghost@example.test')).toBeUndefined();
    const companies = await ctx.container.companies.listCompanies();
    expect(companies.map((c) => c.name)).not.toContain('Ghost company');
  });

  it('links are only ever made inside the company, whatever ids are passed', async () => {
    const other = await createUser(ctx, { role: 'admin' });
    const foreign = await createSegment(ctx, other.user.company_id!);
    const own = await createSegment(ctx, companyId);
    const client = await createClient(ctx, companyId, { segments: [own.id] });
    const ok = await ctx.container.withTransaction((tx) =>
      tx.segmentsRepository.setClientSegments(companyId, client.id, [own.id, foreign.id]),
    );
    expect(ok).toBe(false);
    const added = await ctx.container.segmentsRepository.addClientsToSegment(companyId, foreign.id, [
      client.id,
    ]);
    expect(added).toBe(0);
    const links = await ctx.container.db
      .selectFrom('client_segments')
      .select('segment_id')
      .where('client_id', '=', client.id)
      .execute();
    expect(links.map((l) => l.segment_id)).toEqual([own.id]);
  });
});

describe(`services write a client and its segment links in one transaction (${engine})`, () => {
  let ctx: TestContext;
  let admin: TestUser;
  let companyId: number;
  const refused = '34655000009';

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await createUser(ctx, { role: 'admin' });
    companyId = admin.user.company_id!;
    // The database refuses to link the client with this phone to any segment (a real failure of the
    // second write, raised by the database itself).
    const { db } = ctx.container;
    if (ctx.engine === 'postgres') {
      await sql`create function refuse_link() returns trigger language plpgsql as $$
        begin
          if (select whatsapp_cellphone from clients where id = new.client_id) = ${sql.lit(refused)} then
            raise exception 'link refused for the test';
          end if;
          return new;
        end $$`.execute(db);
      await sql`create trigger refuse_link before insert on client_segments
        for each row execute function refuse_link()`.execute(db);
    } else {
      await sql`create trigger refuse_link before insert on client_segments
        when (select whatsapp_cellphone from clients where id = new.client_id) = ${sql.lit(refused)}
        begin select raise(abort, 'link refused for the test'); end`.execute(db);
    }
  });
  afterAll(async () => {
    await ctx.close();
  });

  const send = (method: 'POST' | 'PUT', url: string, payload: object) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers: admin.headers, payload });

  it('POST /admin/client: when the links fail, no client is left behind', async () => {
    const segment = await createSegment(ctx, companyId);
    const res = await send('POST', '/admin/client', {
      name: 'Half',
      last_names: 'Written',
      whatsapp_cellphone: refused,
      email: 'half@example.test',
      segments: [segment.id],
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Ocurrió un error interno' });
    expect(await ctx.container.clientsRepository.phoneTaken(companyId, refused)).toBe(false);
  });

  it('PUT /admin/client/{id}: when the links fail, the client keeps its fields and its segments', async () => {
    const before = await createSegment(ctx, companyId, { name: 'Before' });
    const after = await createSegment(ctx, companyId, { name: 'After' });
    const client = await createClient(ctx, companyId, { name: 'Unchanged', segments: [before.id] });
    const res = await send('PUT', `/admin/client/${client.id}`, {
      name: 'Changed',
      last_names: client.last_names,
      whatsapp_cellphone: refused,
      email: 'changed@example.test',
      segments: [after.id],
    });
    expect(res.statusCode).toBe(500);
    expect(await ctx.container.clientsRepository.findClient(companyId, client.id)).toEqual(client);
  });

  it('DELETE /admin/segment/{id}: the segment goes and its clients count as updated, together', async () => {
    const segment = await createSegment(ctx, companyId);
    const member = await createClient(ctx, companyId, { segments: [segment.id] });
    const bystander = await createClient(ctx, companyId);
    // The deletion a second later on the clock, so "updated" shows in the time.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 1000);
    const res = await ctx.app
      .inject({ method: 'DELETE', url: `/api/v1/admin/segment/${segment.id}`, headers: admin.headers })
      .finally(() => vi.useRealTimers());
    expect(res.statusCode).toBe(200);
    const memberAfter = await ctx.container.clientsRepository.findClient(companyId, member.id);
    expect(memberAfter!.segments).toEqual([]);
    expect(memberAfter!.updated_at > member.updated_at).toBe(true);
    expect(await ctx.container.clientsRepository.findClient(companyId, bystander.id)).toEqual(bystander);
  });
});
