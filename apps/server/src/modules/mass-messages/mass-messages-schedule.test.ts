// A mass message's schedule is a strict ISO-8601 date and time that names a real moment no more than a
// year ahead: anything else is a 422 on `schedule` with its message in Spanish and English, never a date
// rolled over into another one (before, '2027-13-45T99:99' was taken as a day of 2028).
import { MASS_SCHEDULE_MAX_AHEAD_MS, isScheduleDateTime } from '@hablabot/contract';
import { startFakeGraphApi } from '@hablabot/fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';
import { connectWhatsApp } from '../../../test/whatsapp-company';
import { scheduleOf } from './schedule';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'EAAG-mass-schedule-token';
const PHONE_ID = '106540352242982';

let ctx: TestContext;
let fake: Awaited<ReturnType<typeof startFakeGraphApi>>;
let headers: Record<string, string>;
let send: { message_template_id: number; list_id: number };

const post = (schedule: string, lang = 'es', extra: Record<string, unknown> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/admin/messages-massive',
    headers: { ...headers, 'accept-language': lang },
    payload: { name: 'Programado', ...send, schedule, ...extra },
  });

beforeAll(async () => {
  fake = await startFakeGraphApi({
    tokens: [TOKEN],
    phoneNumbers: [
      { id: PHONE_ID, display_phone_number: '15550783892', verified_name: 'P', quality_rating: 'GREEN' },
    ],
  });
  ctx = await createTestContext();
  const cast = await createCast(ctx);
  headers = cast.admin.headers;
  const companyId = cast.admin.user.company_id!;
  await connectWhatsApp(ctx.container, companyId, { phoneId: PHONE_ID, token: TOKEN, baseUrl: fake.baseUrl });
  const client = await createClient(ctx, companyId);
  const list = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/admin/list-clients',
    headers,
    payload: { name: 'Programados', client_ids: [client.id] },
  });
  expect(list.statusCode, list.body).toBe(201);
  const at = new Date().toISOString();
  const template = await ctx.container.db
    .insertInto('message_templates')
    .values({
      company_id: companyId,
      meta_id: '9701',
      name: 'programada',
      language: 'es',
      status: 'APPROVED',
      category: 'MARKETING',
      components: JSON.stringify([{ type: 'BODY', format: null, text: 'Hola.', buttons: [] }]),
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  send = { message_template_id: template.id, list_id: list.json().data.id };
});

afterAll(async () => {
  await Promise.all([ctx?.close(), fake?.close()]);
});

describe(`a mass send's schedule (${engine})`, () => {
  it('refuses dates that do not exist, out-of-range offsets and parts, with a field message', async () => {
    for (const schedule of [
      '2027-13-45T99:99',
      '2027-02-30T10:00',
      '2027-02-29T10:00',
      '2027-04-31T10:00:00Z',
      '2027-01-01T24:00',
      '2027-01-01T10:60',
      '2027-01-01T10:00:60Z',
      '2027-01-01T10:00+23:59',
      '2027-01-01T10:00-15:00',
      '2027-01-01T10:00+14:30',
      '2027-01-01 10:00',
      '27-01-01T10:00',
      '2027-1-1T10:00',
      'mañana',
    ]) {
      const res = await post(schedule);
      expect(res.statusCode, schedule).toBe(422);
      expect(res.json().errors, schedule).toEqual({ schedule: ['La fecha programada no es válida.'] });
    }
    const res = await post('2027-13-45T99:99', 'en');
    expect(res.json().errors).toEqual({ schedule: ['The scheduled date is not valid.'] });
  });

  it('refuses a time more than a year ahead (year 9999 included)', async () => {
    const tooFar = new Date(Date.now() + MASS_SCHEDULE_MAX_AHEAD_MS + 60 * 60_000).toISOString();
    for (const schedule of ['9999-12-31T23:59:59.999Z', '9999-01-01T00:00', tooFar]) {
      const res = await post(schedule);
      expect(res.statusCode, schedule).toBe(422);
      expect(res.json().errors, schedule).toEqual({
        schedule: ['La fecha programada no puede estar a más de un año.'],
      });
    }
    const res = await post('9999-01-01T00:00+14:00', 'en');
    expect(res.json().errors).toEqual({ schedule: ['The scheduled date cannot be more than a year ahead.'] });
  });

  it('takes a real date within the year, with an offset or read in the time zone', async () => {
    const inAMonth = new Date(Date.now() + 30 * 24 * 60 * 60_000);
    const local = inAMonth.toISOString().slice(0, 16);
    let res = await post(`${local}-05:00`);
    expect(res.statusCode, res.body).toBe(201);
    const expected = new Date(Date.parse(`${local}:00.000Z`) + 5 * 60 * 60_000).toISOString();
    expect(res.json().data).toMatchObject({ status: 'scheduled', scheduled_at: expected });
    res = await post(local, 'es', { time_zone: 'America/Bogota' });
    expect(res.json().data).toMatchObject({ status: 'scheduled', scheduled_at: expected });
  });

  it('has its rules in one place: the contract for the text, scheduleOf for the horizon', () => {
    expect(isScheduleDateTime('2028-02-29T23:59:59.999Z')).toBe(true);
    expect(isScheduleDateTime('2028-02-29T10:00+14:00')).toBe(true);
    expect(isScheduleDateTime('2027-02-29T10:00')).toBe(false);
    const now = Date.parse('2026-11-26T10:00:00Z');
    expect(scheduleOf({ schedule: '2027-11-26T10:00:00Z' }, now)?.toISOString()).toBe(
      '2027-11-26T10:00:00.000Z',
    );
    expect(() => scheduleOf({ schedule: '2027-11-26T10:00:01Z' }, now)).toThrow();
    expect(() => scheduleOf({ schedule: '2026-11-26T09:54:59Z' }, now)).toThrow();
  });
});
