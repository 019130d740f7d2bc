// GET/PUT /admin/business-hours: who may call it, the defaults, a save read back, and each rule of the
// body refused with 422 on its field (time zone, HH:MM, open before close, overlaps, dates).
import { DEFAULT_BUSINESS_HOURS } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, type TestUser, createTestApi } from '../../../test/http';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

const week = {
  timezone: 'America/Bogota',
  days: [
    { day: 1, open: '09:00', close: '13:00' },
    { day: 1, open: '14:00', close: '18:00' },
    { day: 6, open: '10:00', close: '24:00' },
  ],
  holidays: ['2026-12-25'],
  away_enabled: true,
  away_message: 'Estamos cerrados; te respondemos al abrir.',
  away_with_bot: false,
};

let api: TestApi;
let admin: TestUser;
let agent: TestUser;
let otherAdmin: TestUser;

beforeAll(async () => {
  api = await createTestApi();
  admin = await api.user({ role: 'admin' });
  agent = await api.user({ role: 'agent', companyId: admin.user.company_id! });
  otherAdmin = await api.user({ role: 'admin' });
});

afterAll(async () => {
  await api?.close();
});

describe(`business hours (${engine})`, () => {
  it('anonymous 401, agents 403 on both routes', async () => {
    expect((await api.get('/admin/business-hours')).statusCode).toBe(401);
    expect((await api.get('/admin/business-hours', { as: agent })).statusCode).toBe(403);
    expect((await api.put('/admin/business-hours', week, { as: agent })).statusCode).toBe(403);
  });

  it('answers the defaults (not configured: always open), saves and reads back, per company', async () => {
    const first = await api.get('/admin/business-hours', { as: admin });
    expect(first.json()).toEqual({ data: { ...DEFAULT_BUSINESS_HOURS, configured: false } });
    const saved = await api.put('/admin/business-hours', week, { as: admin });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({
      message: 'Horario de atención guardado.',
      data: { ...week, configured: true },
    });
    expect((await api.get('/admin/business-hours', { as: admin })).json().data).toEqual({
      ...week,
      configured: true,
    });
    expect((await api.get('/admin/business-hours', { as: otherAdmin })).json().data.configured).toBe(false);
  });

  const broken: [string, Record<string, unknown>, string, string][] = [
    ['an unknown time zone', { timezone: 'Mars/Olympus' }, 'timezone', 'The time zone is not valid'],
    [
      'a time that is not HH:MM',
      { days: [{ day: 1, open: '9:00', close: '18:00' }] },
      'days.0.open',
      'HH:MM',
    ],
    [
      'a range closing before it opens',
      { days: [{ day: 2, open: '18:00', close: '09:00' }] },
      'days.0.close',
      'after the opening',
    ],
    [
      'two ranges of a day overlapping',
      {
        days: [
          { day: 3, open: '09:00', close: '13:00' },
          { day: 3, open: '12:30', close: '18:00' },
        ],
      },
      'days.1.open',
      'overlap',
    ],
    ['a day out of 0–6', { days: [{ day: 7, open: '09:00', close: '10:00' }] }, 'days.0.day', ''],
    ['a date that does not exist', { holidays: ['2026-02-30'] }, 'holidays.0', 'YYYY-MM-DD'],
    ['the same holiday twice', { holidays: ['2026-12-25', '2026-12-25'] }, 'holidays.1', 'already'],
    ['the away message on with no text', { away_message: '  ' }, 'away_message', 'Write the away message'],
  ];
  for (const [what, change, field, text] of broken) {
    it(`refuses ${what} with 422 on ${field}`, async () => {
      const res = await api.put('/admin/business-hours', { ...week, ...change }, { as: admin, lang: 'en' });
      expect(res.statusCode).toBe(422);
      const errors = res.json().errors as Record<string, string[]>;
      expect(Object.keys(errors)).toContain(field);
      expect(errors[field].join(' ')).toContain(text);
    });
  }

  it('allows touching ranges (13:00–13:00 handover) and answers Spanish field texts by default', async () => {
    const touching = {
      ...week,
      days: [
        { day: 4, open: '09:00', close: '13:00' },
        { day: 4, open: '13:00', close: '18:00' },
      ],
    };
    expect((await api.put('/admin/business-hours', touching, { as: admin })).statusCode).toBe(200);
    const res = await api.put('/admin/business-hours', { ...week, timezone: 'Nowhere' }, { as: admin });
    expect(res.json().errors.timezone[0]).toContain('zona horaria');
  });
});
