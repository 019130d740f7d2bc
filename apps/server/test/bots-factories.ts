import type { Bot, Instruction } from '@hablabot/contract';
import type { TestContext } from './context';

let seq = 0;
const next = () => ++seq;

/** Creates a bot in the company straight through the repository (no HTTP); state 1 unless told. */
export async function createBot(
  ctx: TestContext,
  companyId: number,
  values: Partial<{ bot_name: string; personality: string; state: 0 | 1 }> = {},
): Promise<Bot> {
  const repo = ctx.container.botsRepository;
  const id = await repo.createBot(companyId, {
    bot_name: values.bot_name ?? `Bot ${next()}`,
    personality: values.personality ?? 'Eres un asistente amable de una tienda de muebles.',
  });
  if (values.state === 0) await repo.setBotState(companyId, id, 0);
  return (await repo.findBot(companyId, id))!;
}

/** Creates an instruction of the bot (which must be the company's) with the given segment ids. */
export async function createInstruction(
  ctx: TestContext,
  companyId: number,
  botId: number,
  segments: number[],
  values: Partial<{ ask: string; reply: string }> = {},
): Promise<Instruction> {
  const repo = ctx.container.botsRepository;
  const n = next();
  const id = await repo.createInstruction(
    { bot_id: botId, ask: values.ask ?? `Instrucción ${n}`, reply: values.reply ?? `Responde así (${n}).` },
    segments,
  );
  return (await repo.findInstruction(companyId, id))!;
}
