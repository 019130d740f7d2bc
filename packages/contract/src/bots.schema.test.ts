import { describe, expect, it } from 'vitest';
import {
  INSTRUCTION_ASK_MAX,
  INSTRUCTION_REPLY_MAX,
  ZBotRequest,
  ZBotTestRequest,
  ZInstructionFields,
  ZInstructionRequest,
  ZToggleBotStateRequest,
} from './bots.schema';

const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? {} : Object.fromEntries(r.error!.issues.map((i) => [i.path.join('.'), i.message]));

const valid = { bot_id: 1, ask: 'Horario', reply: 'De 9 a 18 h.', segments: [1] };

describe('instruction rules (the form and the server share them)', () => {
  it('words each rule with its own key', () => {
    expect(messages(ZInstructionRequest.safeParse({}))).toEqual({
      ask: 'bots.ask_required',
      reply: 'bots.reply_required',
      segments: 'bots.segments_required',
      bot_id: 'required',
    });
    expect(messages(ZInstructionFields.safeParse({ ask: '  ', reply: '\u200B', segments: [] }))).toEqual({
      ask: 'bots.ask_required',
      reply: 'bots.reply_required',
      segments: 'bots.segments_required',
    });
    expect(
      messages(
        ZInstructionFields.safeParse({
          ask: 'ab',
          reply: 'x'.repeat(INSTRUCTION_REPLY_MAX + 1),
          segments: [1],
        }),
      ),
    ).toEqual({ ask: 'bots.ask_min', reply: 'bots.reply_max' });
    expect(
      messages(ZInstructionFields.safeParse({ ...valid, ask: 'x'.repeat(INSTRUCTION_ASK_MAX + 1) })),
    ).toEqual({
      ask: 'bots.ask_max',
    });
  });

  it('counts after cleaning: trimmed ends and invisible characters do not count', () => {
    expect(ZInstructionFields.parse({ ...valid, ask: `  ${'x'.repeat(100)}\u200B ` }).ask).toHaveLength(100);
    expect(messages(ZInstructionFields.safeParse({ ...valid, ask: ' a\u200Bb ' }))).toEqual({
      ask: 'bots.ask_min',
    });
  });

  it('refuses control and direction characters; the description keeps its line breaks', () => {
    expect(messages(ZInstructionFields.safeParse({ ...valid, ask: 'Hor\u0000ario' }))).toEqual({
      ask: 'validation.text_characters',
    });
    expect(messages(ZInstructionFields.safeParse({ ...valid, ask: 'Hor\nario' }))).toEqual({
      ask: 'validation.text_characters',
    });
    expect(messages(ZInstructionFields.safeParse({ ...valid, reply: 'a\u202Eb' }))).toEqual({
      reply: 'validation.text_characters',
    });
    expect(ZInstructionFields.parse({ ...valid, reply: 'línea 1\nlínea 2' }).reply).toBe('línea 1\nlínea 2');
  });

  it('ids are strict: bot_id and every segment', () => {
    for (const bad of [0, -1, 1.5, '0x1', true, [1], null]) {
      expect(
        Object.keys(messages(ZInstructionRequest.safeParse({ ...valid, bot_id: bad }))),
        String(bad),
      ).toEqual(['bot_id']);
      expect(messages(ZInstructionRequest.safeParse({ ...valid, segments: [bad] }))).toEqual({
        'segments.0': 'validation.id',
      });
    }
    expect(ZInstructionRequest.parse({ ...valid, bot_id: '7', segments: ['3', 4] })).toMatchObject({
      bot_id: 7,
      segments: [3, 4],
    });
  });
});

describe('bot form and state', () => {
  it('bot_name and personality are required; personality may span lines', () => {
    expect(Object.keys(messages(ZBotRequest.safeParse({ bot_name: ' ', personality: '' })))).toEqual([
      'bot_name',
      'personality',
    ]);
    expect(ZBotRequest.parse({ bot_name: 'Sofía', personality: 'a\nb' }).personality).toBe('a\nb');
  });

  it('state is 0 or 1 only; missing reads as required', () => {
    expect(ZToggleBotStateRequest.parse({ state: 0 })).toEqual({ state: 0 });
    for (const state of [2, '1', true, -1])
      expect(ZToggleBotStateRequest.safeParse({ state }).success).toBe(false);
    expect(messages(ZToggleBotStateRequest.safeParse({}))).toEqual({ state: 'validation.required' });
  });

  it('a bot test names one segment or one client, not both and not neither', () => {
    expect(ZBotTestRequest.safeParse({ message: 'hola', segment_id: 1 }).success).toBe(true);
    expect(ZBotTestRequest.safeParse({ message: 'hola', client_id: 1 }).success).toBe(true);
    expect(messages(ZBotTestRequest.safeParse({ message: 'hola' }))).toEqual({
      segment_id: 'bots.test_target',
    });
    expect(messages(ZBotTestRequest.safeParse({ message: 'hola', segment_id: 1, client_id: 2 }))).toEqual({
      segment_id: 'bots.test_target',
    });
  });
});
