import type { ChatMessage } from '@hablabot/contract';

/** An instruction as the prompt reads it. */
export interface PromptInstruction {
  id: number;
  /** The instruction's name: the heading of its section. */
  ask: string;
  /** The instruction's description: what the bot should do or say. */
  reply: string;
  /** The segments it applies to; an instruction with none applies to nobody. */
  segments: readonly number[];
}

export interface BotPromptInput {
  /** The bot's personality: the start of the system prompt. */
  personality: string;
  /** Every instruction of the bot; only those matching `segments` enter the prompt. */
  instructions: readonly PromptInstruction[];
  /** The customer's segments. */
  segments: readonly number[];
  /** The customer's message. */
  message: string;
  /** Earlier turns of the conversation, oldest first, placed between the system prompt and the message. */
  history?: readonly ChatMessage[];
}

export interface BotPrompt {
  /** What the chat-completions call sends: the system prompt, the history, then the customer's message. */
  messages: ChatMessage[];
  /** The instructions that entered the prompt, in prompt order. */
  instructionIds: number[];
}

/** The heading that opens the instructions part of the system prompt. */
export const INSTRUCTIONS_HEADING = '# Instructions';

/** The instructions that share at least one segment with the customer, in id order. */
export function matchingInstructions(
  instructions: readonly PromptInstruction[],
  segments: readonly number[],
): PromptInstruction[] {
  const wanted = new Set(segments);
  return instructions
    .filter((instruction) => instruction.segments.some((segment) => wanted.has(segment)))
    .sort((a, b) => a.id - b.id);
}

/**
 * The prompt a customer's message produces: one system message holding the bot's personality and,
 * under '# Instructions', one '## <ask>' section per instruction whose segments include one of the
 * customer's, then the history, then the message as the user's turn. Pure: the same input gives the
 * same prompt, so the bot test screen shows exactly what the messaging engine sends.
 */
export function buildBotPrompt(input: BotPromptInput): BotPrompt {
  const matched = matchingInstructions(input.instructions, input.segments);
  const parts = [input.personality.trim()];
  if (matched.length > 0) {
    parts.push(
      [INSTRUCTIONS_HEADING, ...matched.map((i) => `## ${i.ask.trim()}\n${i.reply.trim()}`)].join('\n\n'),
    );
  }
  return {
    messages: [
      { role: 'system', content: parts.filter(Boolean).join('\n\n') },
      ...(input.history ?? []),
      { role: 'user', content: input.message },
    ],
    instructionIds: matched.map((i) => i.id),
  };
}
