import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniquePhone } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { type TestUser, createUser } from '../../../test/factories';
import { inboundBody, signedRequest } from '../../../test/whatsapp-webhook';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

const VICTIM_SECRET = 'app-secret-of-the-victim-company';
const ATTACKER_SECRET = 'app-secret-of-the-attacker-company';

/** A company taking another company's WhatsApp number through its settings. */
describe(`a WhatsApp number belongs to one company (${engine})`, () => {
  let ctx: TestContext;
  let production: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    // Production refuses unsigned deliveries even for a company without an app secret.
    production = await createTestContext({ webhook: { requireSignature: true } });
  });
  afterAll(async () => {
    await ctx.close();
    await production.close();
  });

  const save = (t: TestContext, who: TestUser, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/v1/admin/setting', headers: who.headers, payload });
  const deliver = (t: TestContext, phoneId: string, from: string, secret?: string) =>
    t.app.inject(signedRequest(inboundBody(phoneId, from, 'text', { text: { body: 'hola' } }), secret));
  const clientsOf = async (t: TestContext, companyId: number) =>
    (
      await t.container.db
        .selectFrom('clients')
        .select('whatsapp_cellphone')
        .where('company_id', '=', companyId)
        .execute()
    ).map((c) => c.whatsapp_cellphone);

  it("refuses the claim of another company's number, so none of its deliveries is diverted (no app secrets)", async () => {
    // The attacker's settings row is the older one: under the old routing it won every delivery.
    const attacker = await createUser(ctx, { role: 'admin' });
    expect((await save(ctx, attacker, { openaiModel: 'gpt-4o-mini' })).statusCode).toBe(200);
    const victim = await createUser(ctx, { role: 'admin' });
    const phoneId = '900000000000001';
    const accountId = '900000000000002';
    expect(
      (await save(ctx, victim, { whatsAppPhoneId: phoneId, whatsAppBusinessAccountId: accountId }))
        .statusCode,
    ).toBe(200);

    const claim = await save(ctx, attacker, {
      whatsAppPhoneId: phoneId,
      whatsAppBusinessAccountId: accountId,
    });
    expect(claim.statusCode).toBe(409);
    expect(Object.keys(claim.json().errors)).toEqual(['whatsAppPhoneId']);
    const accountClaim = await save(ctx, attacker, { whatsAppBusinessAccountId: accountId });
    expect(accountClaim.statusCode).toBe(409);
    expect(Object.keys(accountClaim.json().errors)).toEqual(['whatsAppBusinessAccountId']);

    // Three deliveries for the victim's number, one unsigned and two signed: all the victim's.
    const customers = [uniquePhone(), uniquePhone(), uniquePhone()];
    for (const [i, from] of customers.entries())
      expect(
        (await deliver(ctx, phoneId, from, i === 0 ? undefined : 'whatever-meta-signed')).statusCode,
      ).toBe(200);
    expect((await clientsOf(ctx, victim.user.company_id!)).sort()).toEqual([...customers].sort());
    expect(await clientsOf(ctx, attacker.user.company_id!)).toEqual([]);
  });

  it("refuses the claim together with the claimer's own app secret, so the victim's deliveries are still taken (2 of 2)", async () => {
    const attacker = await createUser(ctx, { role: 'admin' });
    expect((await save(ctx, attacker, { whatsAppAppSecret: ATTACKER_SECRET })).statusCode).toBe(200);
    const victim = await createUser(ctx, { role: 'admin' });
    const phoneId = '900000000000011';
    expect(
      (await save(ctx, victim, { whatsAppPhoneId: phoneId, whatsAppAppSecret: VICTIM_SECRET })).statusCode,
    ).toBe(200);
    expect((await save(ctx, attacker, { whatsAppPhoneId: phoneId })).statusCode).toBe(409);

    const customers = [uniquePhone(), uniquePhone()];
    for (const from of customers)
      expect((await deliver(ctx, phoneId, from, VICTIM_SECRET)).statusCode).toBe(200);
    expect((await clientsOf(ctx, victim.user.company_id!)).sort()).toEqual([...customers].sort());
    // Signed with any other secret, the attacker's included, or not at all: refused, nothing stored.
    for (const secret of [ATTACKER_SECRET, undefined])
      expect((await deliver(ctx, phoneId, uniquePhone(), secret)).statusCode).toBe(401);
    expect(await clientsOf(ctx, attacker.user.company_id!)).toEqual([]);
    expect(await clientsOf(ctx, victim.user.company_id!)).toHaveLength(2);
  });

  it('in production, a company without an app secret gets no deliveries at all; with one, only signed ones', async () => {
    const unsigned = await createUser(production, { role: 'admin' });
    const signed = await createUser(production, { role: 'admin' });
    await save(production, unsigned, { whatsAppPhoneId: '900000000000021' });
    await save(production, signed, { whatsAppPhoneId: '900000000000022', whatsAppAppSecret: VICTIM_SECRET });

    for (const secret of [undefined, 'any-secret']) {
      const res = await deliver(production, '900000000000021', uniquePhone(), secret);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('La firma del webhook no es válida.');
    }
    expect(await clientsOf(production, unsigned.user.company_id!)).toEqual([]);

    expect((await deliver(production, '900000000000022', uniquePhone(), undefined)).statusCode).toBe(401);
    const from = uniquePhone();
    expect((await deliver(production, '900000000000022', from, VICTIM_SECRET)).statusCode).toBe(200);
    expect(await clientsOf(production, signed.user.company_id!)).toEqual([from]);
  });

  it("a delivery naming two companies' numbers is taken only when each one's secret verified it", async () => {
    const a = await createUser(ctx, { role: 'admin' });
    const b = await createUser(ctx, { role: 'admin' });
    await save(ctx, a, { whatsAppPhoneId: '900000000000031', whatsAppAppSecret: VICTIM_SECRET });
    await save(ctx, b, { whatsAppPhoneId: '900000000000032', whatsAppAppSecret: ATTACKER_SECRET });
    const body = inboundBody('900000000000031', uniquePhone(), 'text', { text: { body: 'a' } });
    const other = inboundBody('900000000000032', uniquePhone(), 'text', { text: { body: 'b' } });
    (body.entry as unknown[]).push(...(other.entry as unknown[]));
    // B's secret signs it: A's number in it is not B's to deliver to.
    expect((await ctx.app.inject(signedRequest(body, ATTACKER_SECRET))).statusCode).toBe(401);
    expect((await ctx.app.inject(signedRequest(body, VICTIM_SECRET))).statusCode).toBe(401);
    expect(await clientsOf(ctx, a.user.company_id!)).toEqual([]);
    expect(await clientsOf(ctx, b.user.company_id!)).toEqual([]);
  });
});
