import { z } from 'zod';
import { ZTimestamp, cleanText, hasForbiddenCharacters, requiredText, zId, zText } from './common.schema';

// --- limits and constants of bots and instructions ---

/** A bot's name as the cards show it. */
export const BOT_NAME_MAX = 100;
/** The personality is the bot's system prompt: long enough for a detailed brief (about 5,000 tokens). */
export const BOT_PERSONALITY_MAX = 20_000;
/** An instruction's name (`ask`): 3 to 100 characters; typing stops at 100. */
export const INSTRUCTION_ASK_MIN = 3;
export const INSTRUCTION_ASK_MAX = 100;
/** An instruction's description (`reply`): at most 1000 characters; typing stops at 1000. */
export const INSTRUCTION_REPLY_MAX = 1000;
/** Most segments one instruction may apply to. */
export const INSTRUCTION_SEGMENTS_MAX = 200;
/** A test message typed in the "Probar bot" panel. */
export const BOT_TEST_MESSAGE_MAX = 2000;
/** Bot states: 1 active, 0 inactive. */
export const BOT_STATES = [0, 1] as const;

// --- bots ---

/** 0 or 1; a missing state reads as required rather than as a value outside the two. */
export const ZBotState = z.literal(BOT_STATES, {
  error: (issue) => (issue.input === undefined ? 'validation.required' : undefined),
});
export type BotState = z.infer<typeof ZBotState>;

export const ZBot = z.object({
  id: z.number().int(),
  bot_name: z.string(),
  /** Free text, the bot's system prompt; it may embed media addresses. */
  personality: z.string(),
  state: ZBotState,
  /** How many instructions the bot has (the card shows it). */
  instructions_count: z.number().int(),
  created_at: ZTimestamp,
  updated_at: ZTimestamp,
});
export type Bot = z.infer<typeof ZBot>;

/** Body of POST /admin/bot and PUT /admin/bot/{id} (the bot form): both fields required. */
export const ZBotRequest = z.object({
  bot_name: requiredText(BOT_NAME_MAX),
  personality: requiredText(BOT_PERSONALITY_MAX, { multiline: true }),
});
export type BotRequest = z.infer<typeof ZBotRequest>;

/**
 * GET /admin/bot. `live_bot_id` names the bot that answers customers — the company's lowest-id bot with
 * state 1 — or null when every bot is inactive.
 */
export const ZBotsResponse = z.object({
  bots: z.array(ZBot),
  live_bot_id: z.number().int().nullable(),
  message: z.string(),
});
export type BotsResponse = z.infer<typeof ZBotsResponse>;

export const ZBotMutationResponse = z.object({ message: z.string(), bot: ZBot });
export type BotMutationResponse = z.infer<typeof ZBotMutationResponse>;

/** Body of POST /admin/bot/{id}/toggle-bot-state: only 0 or 1. */
export const ZToggleBotStateRequest = z.object({ state: ZBotState });
export type ToggleBotStateRequest = z.infer<typeof ZToggleBotStateRequest>;

// --- instructions ---

/** The form's messages are locale keys (section `bots`): the server and the web app word them. */
const missingAs = (key: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? key : undefined;

/**
 * A text with the shared rules of `zText` (invisible characters removed, ends trimmed, control and
 * direction characters refused) whose "required" and length checks carry the instruction form's own
 * messages.
 */
function instructionText(options: {
  required: string;
  min?: { value: number; message: string };
  max: { value: number; message: string };
  multiline?: boolean;
}) {
  let text = z
    .string({ error: missingAs(options.required) })
    .overwrite(cleanText)
    .refine((v) => !hasForbiddenCharacters(v, options.multiline), {
      message: 'validation.text_characters',
      abort: true,
    })
    .min(1, { message: options.required, abort: true });
  if (options.min) text = text.min(options.min.value, { message: options.min.message });
  return text.max(options.max.value, { message: options.max.message });
}

/** The fields the instruction form edits, with the form's messages (also the server's 422 texts). */
export const ZInstructionFields = z.object({
  /** The instruction's name. */
  ask: instructionText({
    required: 'bots.ask_required',
    min: { value: INSTRUCTION_ASK_MIN, message: 'bots.ask_min' },
    max: { value: INSTRUCTION_ASK_MAX, message: 'bots.ask_max' },
  }),
  /** The instruction's description: what the bot should do or say. */
  reply: instructionText({
    required: 'bots.reply_required',
    max: { value: INSTRUCTION_REPLY_MAX, message: 'bots.reply_max' },
    multiline: true,
  }),
  /** Segment ids of the caller's company; at least one. */
  segments: z
    .array(zId(), { error: missingAs('bots.segments_required') })
    .min(1, { message: 'bots.segments_required' })
    .max(INSTRUCTION_SEGMENTS_MAX),
});
export type InstructionFields = z.input<typeof ZInstructionFields>;

/** Body of POST /admin/instruction and PUT /admin/instruction/{id}. */
export const ZInstructionRequest = ZInstructionFields.extend({ bot_id: zId() });
export type InstructionRequest = z.input<typeof ZInstructionRequest>;
export type InstructionInput = z.output<typeof ZInstructionRequest>;

export const ZInstruction = z.object({
  id: z.number().int(),
  bot_id: z.number().int(),
  ask: z.string(),
  reply: z.string(),
  /** Segment ids as strings, ascending (the form maps them back to numbers). */
  segments: z.array(z.string()),
  created_at: ZTimestamp,
  updated_at: ZTimestamp,
});
export type Instruction = z.infer<typeof ZInstruction>;

export const ZBotIdParams = z.object({ botId: zId() });

/** GET /admin/instructions/{botId}: the bot's instructions, oldest first. */
export const ZInstructionsResponse = z.object({ data: z.array(ZInstruction), message: z.string() });
export type InstructionsResponse = z.infer<typeof ZInstructionsResponse>;

export const ZInstructionMutationResponse = z.object({ message: z.string(), data: ZInstruction });
export type InstructionMutationResponse = z.infer<typeof ZInstructionMutationResponse>;

// --- "Probar bot": the prompt a customer's message would produce, and the model's answer ---

/**
 * Body of POST /admin/bot/{id}/test: a customer message, and whose segments decide the instructions —
 * one segment (`segment_id`) or one client's segments (`client_id`), exactly one of the two.
 */
export const ZBotTestRequest = z
  .object({
    message: zText({ min: 1, max: BOT_TEST_MESSAGE_MAX, multiline: true }),
    segment_id: zId().optional(),
    client_id: zId().optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.segment_id === undefined) === (body.client_id === undefined))
      ctx.addIssue({ code: 'custom', path: ['segment_id'], message: 'bots.test_target' });
  });
export type BotTestRequest = z.input<typeof ZBotTestRequest>;

export const CHAT_ROLES = ['system', 'user', 'assistant'] as const;
export const ZChatMessage = z.object({ role: z.enum(CHAT_ROLES), content: z.string() });
export type ChatMessage = z.infer<typeof ZChatMessage>;

export const ZBotTestResponse = z.object({
  /** The messages the model receives: the system prompt, then the customer's message. */
  prompt: z.array(ZChatMessage),
  /** Ids of the instructions whose segments matched, in the order the prompt lists them. */
  instruction_ids: z.array(z.number().int()),
  /** The model's answer; null when no OpenAI settings exist or the model could not answer. */
  reply: z.string().nullable(),
  /** The model asked, when settings exist. */
  model: z.string().nullable(),
  /** Why the model gave no answer (the provider's error, plainly), or null. */
  model_error: z.string().nullable(),
  message: z.string(),
});
export type BotTestResponse = z.infer<typeof ZBotTestResponse>;
