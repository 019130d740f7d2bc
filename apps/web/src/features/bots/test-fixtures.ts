import type { Bot, BotsResponse, Instruction } from '@hablabot/contract';

export function makeBot(overrides: Partial<Bot> = {}): Bot {
  return {
    id: 1,
    bot_name: 'Sofía',
    personality: 'Eres Sofía, la asistente de Muebles Roble.',
    state: 1,
    instructions_count: 0,
    created_at: '2026-11-23T10:00:00.000Z',
    updated_at: '2026-11-23T10:00:00.000Z',
    ...overrides,
  };
}

export function makeInstruction(overrides: Partial<Instruction> = {}): Instruction {
  return {
    id: 1,
    bot_id: 1,
    ask: 'Horario de atención',
    reply: 'Atendemos de lunes a viernes de 9 a 18 h.',
    segments: ['1'],
    created_at: '2026-11-23T10:00:00.000Z',
    updated_at: '2026-11-23T10:00:00.000Z',
    ...overrides,
  };
}

/** GET /admin/bot's answer for these bots: the live bot is the lowest id with state 1. */
export function botsResponse(bots: Bot[]): BotsResponse {
  const live = [...bots].sort((a, b) => a.id - b.id).find((bot) => bot.state === 1);
  return { bots, live_bot_id: live?.id ?? null, message: 'Bots obtenidos con éxito.' };
}
