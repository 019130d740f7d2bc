// The consent and hand-off fields of the inbox settings (GET/PUT /admin/inbox-settings): their defaults,
// how a list is saved (trimmed entries, kept in order) and the 422s with the field's own message.
import { DEFAULT_INBOX_SETTINGS } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CastApi, createCastApi } from '../../../test/http';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

let t: CastApi;
beforeAll(async () => {
  t = await createCastApi();
});
afterAll(async () => {
  await t?.api.close();
});

describe(`inbox settings: consent and hand-off words (${engine})`, () => {
  it('answers the default words and saves new lists, trimmed, keeping the other fields', async () => {
    const admin = await t.api.user({ role: 'admin' });
    const before = (await t.api.get('/admin/inbox-settings', { as: admin })).json().data;
    expect(before.opt_out_keywords).toEqual(['STOP', 'BAJA', 'CANCELAR', 'ALTO']);
    expect(before.opt_in_keywords).toEqual(['START', 'ALTA', 'SUSCRIBIR']);
    expect(before.handoff_phrases).toContain('hablar con alguien');
    expect(before.handoff_message).toBe('Te comunico con una persona del equipo.');
    expect(before.opt_out_reply).toMatch(/ALTA/);

    const saved = await t.api.put(
      '/admin/inbox-settings',
      {
        opt_out_keywords: [' Basta ', 'STOP'],
        opt_in_keywords: ['Volver'],
        opt_out_reply: '',
        handoff_phrases: ['un humano por favor'],
        handoff_message: 'Ya te atiende alguien.',
      },
      { as: admin },
    );
    expect(saved.statusCode).toBe(200);
    const expected = {
      ...DEFAULT_INBOX_SETTINGS,
      opt_out_keywords: ['Basta', 'STOP'],
      opt_in_keywords: ['Volver'],
      opt_out_reply: null,
      handoff_phrases: ['un humano por favor'],
      handoff_message: 'Ya te atiende alguien.',
    };
    expect(saved.json().data).toEqual(expected);
    await t.api.put('/admin/inbox-settings', { auto_assign: true }, { as: admin });
    expect((await t.api.get('/admin/inbox-settings', { as: admin })).json().data).toEqual({
      ...expected,
      auto_assign: true,
    });
  });

  it('refuses empty entries, empty lists, too many or too long entries with 422 on the list', async () => {
    const put = (body: object) => t.as('admin', 'PUT', '/admin/inbox-settings', body);
    const cases: [object, string, RegExp][] = [
      [{ opt_out_keywords: ['STOP', '  '] }, 'opt_out_keywords', /entrada vacía/],
      [{ opt_in_keywords: [] }, 'opt_in_keywords', /al menos una entrada/],
      [
        { handoff_phrases: Array.from({ length: 31 }, (_, i) => `frase ${i}`) },
        'handoff_phrases',
        /como máximo 30 entradas/,
      ],
      [{ opt_out_keywords: ['x'.repeat(41)] }, 'opt_out_keywords', /como máximo 40 caracteres/],
      [{ handoff_message: '   ' }, 'handoff_message', /obligatori/],
      [{ opt_out_reply: 'x'.repeat(1001) }, 'opt_out_reply', /1000/],
    ];
    for (const [body, field, text] of cases) {
      const res = await put(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().errors[field]?.[0], field).toMatch(text);
    }
    const en = await t.as('admin', 'PUT', '/admin/inbox-settings', { opt_out_keywords: [''] }, 'en');
    expect(en.json().errors.opt_out_keywords[0]).toBe('The list opt-out words has an empty entry.');
  });
});
