// Consent while a mass send runs: a customer who opts out after the send was created (its recipients
// already queued) is skipped when the sender comes to them — `skipped` with the reason `opted_out`, never
// sent to WhatsApp — and the others keep the measured pace. The sender runs on a fake clock that moves by
// each wait it asks for; WhatsApp is a stand-in that notes each request (the HTTP path and the opt-out
// through a webhook are covered by clients/consent.test.ts).
import type { SendResult } from '../../integrations/whatsapp/cloud-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';
import { type FakeClock, createFakeClock } from '../../../test/fake-clock';
import { insertMassSend } from '../../../test/mass-factories';
import { createConsent } from '../clients/consent';
import { createMassMessagesRepository } from './mass-messages.repository';
import { createMassSender } from './mass-sender';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

let ctx: TestContext;
let companyId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  companyId = (await createCast(ctx)).admin.user.company_id!;
});

afterAll(async () => {
  await ctx.close();
});

/** A queued send at `perSecond` to the clients, written as the service accepts one (nobody opted out yet). */
function queuedSend(clients: { id: number; phone: string }[], perSecond: number): Promise<number> {
  return insertMassSend(
    ctx.container.db,
    companyId,
    { name: 'Bajas en curso', perSecond },
    clients.map((c, i) => ({ clientId: c.id, name: `Cliente ${i}`, phone: c.phone })),
  );
}

function senderOn(clock: FakeClock, answer: (to: string) => Promise<void>) {
  const requests: { to: string; at: number }[] = [];
  let seq = 0;
  const sender = createMassSender({
    db: ctx.container.db,
    repository: createMassMessagesRepository(ctx.container.db),
    cloudApi: {
      accountOf: async () => ({ token: 't', phoneNumberId: 'p', baseUrl: 'http://127.0.0.1:9' }),
      async sendAs(_account, to): Promise<SendResult> {
        requests.push({ to, at: clock.now() });
        await answer(to);
        return { ok: true, wamid: `wamid.optout.${++seq}` };
      },
    },
    jobs: ctx.container.jobs,
    outbox: ctx.container.outbox,
    options: { sliceMs: 60_000, leaseMs: 15_000, controlMs: 250, progressMs: 1000, clock },
  });
  return { sender, requests };
}

describe(`opting out during a mass send (${engine})`, () => {
  it('the sender skips, when it claims them, the customers who opted out after the send started', async () => {
    const n = 120;
    const clients = [];
    for (let i = 0; i < n; i++) {
      const c = await createClient(ctx, companyId, {
        whatsapp_cellphone: `5730071${String(i).padStart(5, '0')}`,
      });
      clients.push({ id: c.id, phone: c.whatsapp_cellphone });
    }
    const id = await queuedSend(clients, 80);
    // Three customers write STOP while the send is running: at its first request.
    const consent = createConsent({
      db: ctx.container.db,
      inboxSettings: ctx.container.inboxSettings,
      send: async () => undefined,
    });
    const leaving = [clients[1], clients[50], clients[n - 1]];
    let first = true;
    const clock = createFakeClock({ autoAdvance: true });
    const { sender, requests } = senderOn(clock, async () => {
      if (!first) return;
      first = false;
      for (const c of leaving) await consent.markOptedOut(companyId, c.id);
    });
    await sender.run(id);

    const sentTo = requests.map((r) => r.to);
    for (const c of leaving) expect(sentTo).not.toContain(c.phone);
    expect(new Set(sentTo).size).toBe(n - leaving.length);
    const rows = await ctx.container.db
      .selectFrom('mass_message_recipients')
      .select(['client_id', 'status', 'skip_reason', 'error_message', 'attempts'])
      .where('mass_message_id', '=', id)
      .execute();
    const skipped = rows.filter((r) => r.status === 'skipped');
    expect(skipped.map((r) => r.client_id).sort()).toEqual(leaving.map((c) => c.id).sort());
    for (const r of skipped)
      expect(r).toMatchObject({
        skip_reason: 'opted_out',
        error_message: 'mass.skipped_opted_out',
        attempts: 0,
      });
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(n - leaving.length);
    const send = await ctx.container.db
      .selectFrom('mass_messages')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(send.status).toBe('completed');
    // The pace is the send's: the skipped take no slot, the others go at 80/s of the sender's clock.
    const span = requests.at(-1)!.at - requests[0].at;
    expect(span).toBeGreaterThanOrEqual(((n - leaving.length - 1) / 80) * 1000);
    expect(span).toBeLessThan(((n - leaving.length - 1) / 80) * 1000 + 200);
  });
});
