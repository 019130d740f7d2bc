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
  /** Whether the business is open now and, closed, when it opens next (absent: not said). */
  hours?: PromptHours;
  /** Asks the model to start its answer with this marker when the customer wants a person (absent: not asked). */
  handoffMarker?: string;
}

/** The business hours as the prompt states them. */
export interface PromptHours {
  open: boolean;
  /** When it opens next, in words and in the business's zone ('Monday 9:00 (America/Bogota)'). */
  opensNext?: string | null;
}

export interface BotPrompt {
  /** What the chat-completions call sends: the system prompt, the history, then the customer's message. */
  messages: ChatMessage[];
  /** The instructions that entered the prompt, in prompt order. */
  instructionIds: number[];
}

/** The heading that opens the instructions part of the system prompt. */
export const INSTRUCTIONS_HEADING = '# Instructions';
/** The heading of the business hours part of the system prompt. */
export const HOURS_HEADING = '# Business hours';
/**
 * What the model writes, at the start of its answer, to hand the customer to a person (the prompt's
 * hand-off part asks for it): a plain text marker rather than a tool call, so any OpenAI-compatible model
 * and endpoint can give it. The answer is then not sent; the hand-off's own message is.
 */
export const HANDOFF_MARKER = '[[HANDOFF]]';
/** The heading of the hand-off part of the system prompt. */
export const HANDOFF_HEADING = '# Hand-off to a person';

/** The business hours part: open now, or closed and when it opens next. */
export function hoursSection(hours: PromptHours): string {
  const now = hours.open
    ? 'The business is open now: the team can answer today.'
    : hours.opensNext
      ? `The business is closed now. It opens next on ${hours.opensNext}. Tell the customer the team will answer then if they need a person.`
      : 'The business is closed now and has no opening hours set.';
  return `${HOURS_HEADING}\n${now}`;
}

/** The hand-off part: how the model says the customer should talk to a person. */
export function handoffSection(marker: string): string {
  return [
    HANDOFF_HEADING,
    `When the customer asks to talk to a person, or you cannot help them and a person of the team should, start your answer with ${marker} followed by a short message telling them a person of the team will continue. Never write ${marker} otherwise.`,
  ].join('\n');
}

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
  if (input.hours) parts.push(hoursSection(input.hours));
  if (input.handoffMarker) parts.push(handoffSection(input.handoffMarker));
  return {
    messages: [
      { role: 'system', content: parts.filter(Boolean).join('\n\n') },
      ...(input.history ?? []),
      { role: 'user', content: input.message },
    ],
    instructionIds: matched.map((i) => i.id),
  };
}
