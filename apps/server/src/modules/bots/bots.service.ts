import type {
  Bot,
  BotRequest,
  BotState,
  ChatMessage,
  Instruction,
  InstructionInput,
} from '@hablabot/contract';
import {
  ChatCompletionError,
  type ChatCompletionFailure,
  type ChatCompletionsClient,
} from '../../integrations/ai/chat-completions';
import { AppError, notFound } from '../../platform/errors';
import type { ClientsRepository } from '../clients/clients.repository';
import type { SegmentsRepository } from '../clients/segments.repository';
import type { BotModelSettingsSource } from './bot-model-settings';
import type { BotsRepository } from './bots.repository';
import { type BotPrompt, type BotPromptInput, buildBotPrompt } from './prompt';

/** A server message to translate: a locale key and its parameters. */
export interface MessageRef {
  key: string;
  params?: Record<string, string | number>;
}

export interface BotTestInput {
  message: string;
  segment_id?: number;
  client_id?: number;
}

export interface BotTestResult {
  prompt: ChatMessage[];
  instruction_ids: number[];
  reply: string | null;
  model: string | null;
  /** Why the model gave no answer, to translate; null when it answered or was not asked. */
  modelError: MessageRef | null;
}

const FAILURE_KEYS: Record<ChatCompletionFailure, string> = {
  invalid_api_key: 'bots.test_invalid_key',
  model_not_found: 'bots.test_model_not_found',
  rate_limited: 'bots.test_rate_limited',
  insufficient_quota: 'bots.test_quota',
  timeout: 'bots.test_timeout',
  unreachable: 'bots.test_unreachable',
  address_refused: 'bots.test_address_refused',
  bad_response: 'bots.test_provider_error',
  provider_error: 'bots.test_provider_error',
};

/** True when a write broke a foreign key, on either engine (a row it points at was deleted meanwhile). */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/** A 422 naming every field that failed, each with its locale key. */
function invalidFields(fields: Record<string, string>): AppError {
  const entries = Object.entries(fields);
  return new AppError(
    422,
    entries[0][1],
    undefined,
    Object.fromEntries(entries.map(([field, key]) => [field, [key]])),
  );
}

/**
 * A company's bots and their instructions. The bot that answers customers is the company's lowest-id
 * bot with state 1 (`liveBot`); an instruction applies to the customers in at least one of its segments,
 * and `promptFor` builds what the model is sent — the same for the "Probar bot" panel and the engine.
 */
/** How long "this company has (no) live bot" is remembered between customer messages. */
export const LIVE_BOT_MEMORY_MS = 2_000;

export function createBotsService(deps: {
  botsRepository: BotsRepository;
  segmentsRepository: Pick<SegmentsRepository, 'findChips'>;
  clientsRepository: Pick<ClientsRepository, 'findClient'>;
  modelSettings: BotModelSettingsSource;
  chatCompletions: Pick<ChatCompletionsClient, 'complete'>;
  /** What the prompt says beyond the bot's own texts: the business hours now, the hand-off marker. */
  promptContext?: (companyId: number) => Promise<Pick<BotPromptInput, 'hours' | 'handoffMarker'>>;
}) {
  const { botsRepository: repo, segmentsRepository: segments, clientsRepository: clients } = deps;

  async function get(companyId: number, id: number): Promise<Bot> {
    const bot = await repo.findBot(companyId, id);
    if (!bot) throw notFound('bots.not_found');
    return bot;
  }

  async function getInstruction(companyId: number, id: number): Promise<Instruction> {
    const instruction = await repo.findInstruction(companyId, id);
    if (!instruction) throw notFound('instructions.not_found');
    return instruction;
  }

  /**
   * Checks an instruction's bot and segments belong to the company: a 422 on `bot_id` and/or `segments`
   * otherwise (another company's ids are as unknown as ids that do not exist). Returns the unique ids.
   */
  async function checkInstruction(companyId: number, input: InstructionInput): Promise<number[]> {
    const unique = [...new Set(input.segments)];
    const [bot, found] = await Promise.all([
      repo.findBot(companyId, input.bot_id),
      segments.findChips(companyId, unique),
    ]);
    const failed: Record<string, string> = {};
    if (!bot) failed.bot_id = 'bots.unknown_bot';
    if (found.length !== unique.length) failed.segments = 'bots.unknown_segment';
    if (Object.keys(failed).length > 0) throw invalidFields(failed);
    return unique;
  }

  /**
   * Runs an instruction write; when the bot or a segment was deleted between the check and the write
   * (a foreign key refuses it), the check runs again and answers the same 422 as if it had been gone.
   */
  async function guardReferences<T>(companyId: number, input: InstructionInput, write: () => Promise<T>) {
    try {
      return await write();
    } catch (err) {
      if (isForeignKeyViolation(err)) await checkInstruction(companyId, input);
      throw err;
    }
  }

  const valuesOf = (input: InstructionInput) => ({
    bot_id: input.bot_id,
    ask: input.ask,
    reply: input.reply,
  });

  /** The prompt the bot builds for a customer in these segments sending this message. */
  async function promptFor(
    companyId: number,
    bot: Pick<Bot, 'id' | 'personality'>,
    customerSegments: readonly number[],
    message: string,
    history?: readonly ChatMessage[],
  ): Promise<BotPrompt> {
    const instructions = await repo.instructionsForPrompt(companyId, bot.id);
    const context = (await deps.promptContext?.(companyId)) ?? {};
    return buildBotPrompt({
      personality: bot.personality,
      instructions,
      segments: customerSegments,
      message,
      history,
      ...context,
    });
  }

  /**
   * Whether each company has a live bot, remembered for LIVE_BOT_MEMORY_MS: asked after every customer
   * message, answered for most companies "no". Forgotten at once on any change made here; another app
   * instance's change is seen within that time (the bot's job asks the database again before answering).
   */
  const liveness = new Map<number, { live: boolean; until: number }>();
  const forget = <T>(companyId: number, result: T): T => {
    liveness.delete(companyId);
    return result;
  };

  return {
    /** The cards' list and which of them answers customers. */
    async list(companyId: number): Promise<{ bots: Bot[]; liveBotId: number | null }> {
      const bots = await repo.listBots(companyId);
      return { bots, liveBotId: bots.find((bot) => bot.state === 1)?.id ?? null };
    },

    get,

    /** The bot that answers the company's customers: the lowest id with state 1; undefined if none. */
    liveBot: (companyId: number) => repo.findLiveBot(companyId),

    /** Whether the company has a live bot now (or had, a moment ago: see `liveness`). */
    async hasLiveBot(companyId: number): Promise<boolean> {
      const known = liveness.get(companyId);
      if (known && known.until > Date.now()) return known.live;
      const live = (await repo.findLiveBot(companyId)) !== undefined;
      liveness.set(companyId, { live, until: Date.now() + LIVE_BOT_MEMORY_MS });
      return live;
    },

    promptFor,

    /** New bots start active (state 1): the first one goes live at once; later ones wait behind it. */
    async create(companyId: number, input: BotRequest): Promise<Bot> {
      const id = forget(companyId, await repo.createBot(companyId, input));
      return get(companyId, id);
    },

    async update(companyId: number, id: number, input: BotRequest): Promise<Bot> {
      if (!forget(companyId, await repo.updateBot(companyId, id, input))) throw notFound('bots.not_found');
      return get(companyId, id);
    },

    async setState(companyId: number, id: number, state: BotState): Promise<Bot> {
      if (!forget(companyId, await repo.setBotState(companyId, id, state))) throw notFound('bots.not_found');
      return get(companyId, id);
    },

    /** Deletes the bot and its instructions. */
    async remove(companyId: number, id: number): Promise<void> {
      if (!forget(companyId, await repo.deleteBot(companyId, id))) throw notFound('bots.not_found');
    },

    async listInstructions(companyId: number, botId: number): Promise<Instruction[]> {
      await get(companyId, botId);
      return repo.listInstructions(companyId, botId);
    },

    async createInstruction(companyId: number, input: InstructionInput): Promise<Instruction> {
      const segmentIds = await checkInstruction(companyId, input);
      const id = await guardReferences(companyId, input, () =>
        repo.createInstruction(valuesOf(input), segmentIds),
      );
      return getInstruction(companyId, id);
    },

    /** Replaces the instruction's fields and segments (it may move to another bot of the company). */
    async updateInstruction(companyId: number, id: number, input: InstructionInput): Promise<Instruction> {
      await getInstruction(companyId, id);
      const segmentIds = await checkInstruction(companyId, input);
      const updated = await guardReferences(companyId, input, () =>
        repo.updateInstruction(companyId, id, valuesOf(input), segmentIds),
      );
      if (!updated) throw notFound('instructions.not_found');
      return getInstruction(companyId, id);
    },

    /** Deletes all the instructions or none: one id that is not the company's makes it a 404. */
    async removeInstructions(companyId: number, ids: number[]): Promise<void> {
      const unique = [...new Set(ids)];
      if (!(await repo.deleteInstructions(companyId, unique))) throw notFound('instructions.not_found');
    },

    /**
     * "Probar bot": the prompt a customer in the chosen segment (or the chosen client's segments) would
     * produce with this message, and — when the company has model settings — the model's reply to it.
     */
    async test(companyId: number, botId: number, input: BotTestInput): Promise<BotTestResult> {
      const bot = await get(companyId, botId);
      let customerSegments: number[];
      if (input.client_id !== undefined) {
        const client = await clients.findClient(companyId, input.client_id);
        if (!client) throw invalidFields({ client_id: 'bots.unknown_client' });
        customerSegments = client.segments.map((s) => s.id);
      } else {
        const segmentId = input.segment_id as number;
        const found = await segments.findChips(companyId, [segmentId]);
        if (found.length === 0) throw invalidFields({ segment_id: 'bots.unknown_segment' });
        customerSegments = [segmentId];
      }
      const prompt = await promptFor(companyId, bot, customerSegments, input.message);
      const base = { prompt: prompt.messages, instruction_ids: prompt.instructionIds };
      const settings = await deps.modelSettings.forCompany(companyId);
      if (!settings) return { ...base, reply: null, model: null, modelError: null };
      try {
        const answer = await deps.chatCompletions.complete({
          endpoint: settings.endpoint,
          apiKey: settings.apiKey,
          model: settings.model,
          messages: prompt.messages,
        });
        return { ...base, reply: answer.content, model: settings.model, modelError: null };
      } catch (err) {
        if (!(err instanceof ChatCompletionError)) throw err;
        return {
          ...base,
          reply: null,
          model: settings.model,
          modelError: {
            key: FAILURE_KEYS[err.kind],
            // Our own sentence from the status and the provider's code, never the provider's text.
            params: { model: settings.model, status: err.status },
          },
        };
      }
    },
  };
}

export type BotsService = ReturnType<typeof createBotsService>;
