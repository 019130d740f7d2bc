import { type ChatMessage, DEFAULT_LANGUAGE, MESSAGE_STATUS } from '@hablabot/contract';
import { ChatCompletionError, type ChatCompletionsClient } from '../../integrations/ai/chat-completions';
import { AppError } from '../../platform/errors';
import { z } from 'zod';
import { on } from '../../platform/events/domain-events';
import { defineJob } from '../../platform/jobs/definitions';
import type { JobQueue } from '../../platform/jobs/jobs';
import { translate } from '../../platform/locale';
import type { BotModelSettingsSource } from '../bots/bot-model-settings';
import { HANDOFF_MARKER } from '../bots/prompt';
import type { BotsService } from '../bots/bots.service';
import type { WithTransaction } from '../../repositories';
import type { ClientsRepository } from '../clients/clients.repository';
import { isConsentKeyword } from '../clients/consent';
import { matchesHandoffPhrase } from '../conversations/handoff-phrases';
import type { InboxSettingsRepository } from '../team/inbox-settings.repository';
import { BOT_FAILURE_TYPE, type ConversationTurn, type MessagesRepository } from './messages.repository';

declare module '../../platform/jobs/jobs' {
  interface JobPayloads {
    'messaging.bot-reply': { companyId: number; clientId: number };
  }
}

export const BOT_REPLY_JOB = 'messaging.bot-reply';
/** How long the bot waits after a customer's message, so a burst of messages gets one answer. */
export const BOT_REPLY_DELAY_MS = 2_000;
/** The latest messages of the conversation the model sees, at most. */
export const BOT_HISTORY_MESSAGES = 20;
/** Characters of conversation the model sees, at most (the newest kept). */
export const BOT_HISTORY_CHARS = 8_000;

/** What the bot sends through: the outbound service's send (it stores the message and tells the chat). */
export type BotSend = (input: {
  companyId: number;
  clientId: number;
  sender: 'bot';
  content: string;
}) => Promise<{ outcome: 'sent' | 'failed' | 'retrying' | 'scheduled'; failure?: { message: string } }>;

/**
 * The prompt's moving parts from the recent conversation (oldest first): the customer's messages since
 * the last answer (an admin's or the bot's) become the message to answer, one per line; the turns
 * before them become the history (customer = user, admin and bot = assistant), cut from the oldest end
 * to `maxChars`. Null when the conversation ends with an answer: nothing is waiting for the bot. Waiting
 * messages `leave` names (the consent words: STOP, ALTA…) are not for the bot: left out of the message to
 * answer, and alone they ask for no answer at all.
 */
export function conversationForPrompt(
  turns: readonly ConversationTurn[],
  maxChars = BOT_HISTORY_CHARS,
  leave: (content: string) => boolean = () => false,
): {
  message: string;
  history: ChatMessage[];
  lastCustomerMessageId: number;
  /** The waiting customer texts, oldest first (those `leave` names left out). */
  waiting: string[];
} | null {
  let cut = turns.length;
  while (cut > 0 && turns[cut - 1].sender === 'client') cut--;
  const waiting = turns.slice(cut).filter((t) => t.content.trim() !== '' && !leave(t.content));
  if (waiting.length === 0) return null;
  const message = waiting
    .map((t) => t.content)
    .join('\n')
    .slice(-maxChars);
  let budget = maxChars - message.length;
  const history: ChatMessage[] = [];
  for (let i = cut - 1; i >= 0; i--) {
    const t = turns[i];
    if (!t.content.trim()) continue;
    if (t.content.length > budget) break;
    budget -= t.content.length;
    history.unshift({ role: t.sender === 'client' ? 'user' : 'assistant', content: t.content });
  }
  return {
    message,
    history,
    lastCustomerMessageId: waiting[waiting.length - 1].id,
    waiting: waiting.map((t) => t.content),
  };
}

/**
 * The bot's answers to customers (see "Bot replies" in docs/modules/messaging.md). A stored customer message
 * enqueues one job per client, deduplicated while it waits its short delay, so a burst of messages gets
 * one reply. The job checks the client's bot mode and the company's live bot, builds the prompt (the
 * bots module's prompt builder: personality, the instructions of the client's segments, the recent
 * conversation), asks the company's OpenAI-compatible endpoint, checks the bot mode again (an admin may
 * have taken over meanwhile) and sends the answer as the bot. When the model cannot answer, the reason
 * is published (`bot.failed`) and stored as a bot failure note in the conversation.
 */
export function createBotReplies(deps: {
  jobs: Pick<JobQueue, 'enqueue'>;
  clientsRepository: Pick<ClientsRepository, 'findClient' | 'conversationState'>;
  messagesRepository: MessagesRepository;
  bots: Pick<BotsService, 'liveBot' | 'hasLiveBot' | 'promptFor'>;
  modelSettings: BotModelSettingsSource;
  chatCompletions: Pick<ChatCompletionsClient, 'complete'>;
  withTransaction: WithTransaction;
  /** Sends the answer on WhatsApp; unset, the job stops before sending. */
  send?: BotSend;
  /**
   * The company's consent words and hand-off phrases: a customer message that is a consent word is
   * consent's, one that asks for a person the hand-off's; the bot answers neither.
   */
  inboxSettings?: Pick<InboxSettingsRepository, 'get'>;
  /** Hands the client to a person when the model's answer starts with HANDOFF_MARKER. */
  onHandoff?: (companyId: number, clientId: number) => Promise<unknown>;
  delayMs?: number;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}) {
  const { jobs, clientsRepository, messagesRepository, bots } = deps;
  const t = (key: string, params?: Record<string, string | number>) =>
    translate(DEFAULT_LANGUAGE, key, params);

  /** Tells the admins why the bot did not answer, live and in the conversation. */
  async function failed(
    companyId: number,
    clientId: number,
    phone: string,
    messageId: number | null,
    reason: string,
  ) {
    const text = t('messaging.bot.failed', { reason });
    await deps.withTransaction(async (tx) => {
      const note = await tx.messagesRepository.insertMessage(companyId, {
        clientId,
        wamid: null,
        sender: 'bot',
        messageType: 'text',
        waType: BOT_FAILURE_TYPE,
        content: '',
        phone,
        status: MESSAGE_STATUS.failed,
        errorMessage: text,
        createdAt: new Date().toISOString(),
      });
      tx.events.emit('bot.failed', { companyId, clientId, reason: text, messageId });
      if (note) tx.events.emit('message.sent', { companyId, clientId, messageId: note.id });
    });
  }

  async function run(payload: { companyId: number; clientId: number }): Promise<void> {
    const { companyId, clientId } = payload;
    const client = await clientsRepository.findClient(companyId, clientId);
    if (client?.mode_bot !== 1) return;
    const bot = await bots.liveBot(companyId);
    if (!bot) return;
    const words = await deps.inboxSettings?.get(companyId);
    const conversation = conversationForPrompt(
      await messagesRepository.recentConversation(companyId, clientId, BOT_HISTORY_MESSAGES),
      BOT_HISTORY_CHARS,
      (content) => words !== undefined && isConsentKeyword(words, content),
    );
    if (!conversation) return;
    // A customer asking for a person is the hand-off's to answer (conversations/handoff.ts), whichever
    // of the two subscribers of their message runs first: the bot stays silent.
    if (words && conversation.waiting.some((text) => matchesHandoffPhrase(text, words.handoff_phrases)))
      return;
    const phone = client.whatsapp_cellphone;
    const settings = await deps.modelSettings.forCompany(companyId);
    if (!settings)
      return failed(
        companyId,
        clientId,
        phone,
        conversation.lastCustomerMessageId,
        t('messaging.bot.no_settings'),
      );

    const prompt = await bots.promptFor(
      companyId,
      bot,
      client.segments.map((s) => s.id),
      conversation.message,
      conversation.history,
    );
    let answer: string;
    try {
      const completion = await deps.chatCompletions.complete({
        endpoint: settings.endpoint,
        apiKey: settings.apiKey,
        model: settings.model,
        messages: prompt.messages,
      });
      answer = completion.content.trim();
    } catch (err) {
      if (!(err instanceof ChatCompletionError)) throw err;
      deps.log?.warn({ companyId, clientId, kind: err.kind, status: err.status }, 'bot reply: model failed');
      const reason = t(`messaging.bot.${err.kind}`, {
        model: settings.model,
        status: err.status,
        detail: err.providerMessage ?? '',
      });
      return failed(companyId, clientId, phone, conversation.lastCustomerMessageId, reason);
    }
    if (!answer)
      return failed(
        companyId,
        clientId,
        phone,
        conversation.lastCustomerMessageId,
        t('messaging.bot.empty_reply'),
      );

    // An admin may have taken the conversation over while the model was thinking.
    const now = await clientsRepository.findClient(companyId, clientId);
    if (now?.mode_bot !== 1) return;
    // The model asks for a person: the hand-off answers the customer instead of the model's text.
    if (deps.onHandoff && answer.startsWith(HANDOFF_MARKER)) {
      await deps.onHandoff(companyId, clientId);
      return;
    }
    if (!deps.send) {
      deps.log?.warn({ companyId, clientId }, 'bot reply: no sender wired, answer dropped');
      return;
    }
    let sent: Awaited<ReturnType<BotSend>>;
    try {
      sent = await deps.send({ companyId, clientId, sender: 'bot', content: answer });
    } catch (err) {
      // Refused before anything was stored (the 24-hour window closed, the client was deleted).
      deps.log?.warn({ companyId, clientId, err }, 'bot reply: send refused');
      const detail =
        err instanceof AppError ? translate(DEFAULT_LANGUAGE, err.key, err.params) : (err as Error).message;
      return failed(
        companyId,
        clientId,
        phone,
        conversation.lastCustomerMessageId,
        t('messaging.bot.send_failed', { detail }),
      );
    }
    // The answer is stored as the bot's message with status 4 and WhatsApp's reason: tell the admins too.
    if (sent.outcome === 'failed')
      await deps.withTransaction(async (tx) =>
        tx.events.emit('bot.failed', {
          companyId,
          clientId,
          reason: t('messaging.bot.failed', {
            reason: t('messaging.bot.send_failed', { detail: sent.failure?.message ?? '' }),
          }),
          messageId: conversation.lastCustomerMessageId,
        }),
      );
  }

  return {
    run,
    /** The reply's job: a reply messages a customer, so it never runs twice. */
    job: defineJob({
      name: BOT_REPLY_JOB,
      schema: z.object({ companyId: z.number().int(), clientId: z.number().int() }),
      handler: run,
      options: { atMostOnce: true },
    }),
    /**
     * After a customer's message: queues the client's reply when the bot answers them (mode 1) and the
     * company has a live bot. Messages arriving while the job waits join it.
     */
    async enqueueFor(companyId: number, clientId: number): Promise<void> {
      // The company's live bot is remembered for a while: most messages need no read at all.
      if (!(await bots.hasLiveBot(companyId))) return;
      const conversation = await clientsRepository.conversationState(companyId, clientId);
      if (conversation?.mode_bot !== 1) return;
      await jobs.enqueue(
        BOT_REPLY_JOB,
        { companyId, clientId },
        { delayMs: deps.delayMs ?? BOT_REPLY_DELAY_MS, dedupeKey: `${companyId}:${clientId}` },
      );
    },
  };
}

export type BotReplies = ReturnType<typeof createBotReplies>;

/**
 * A customer's message gets the bot's answer when the bot answers that client; a consent word (STOP,
 * ALTA…) does not (the job leaves it out, see `conversationForPrompt`).
 */
export const botReplySubscriber = (replies: Pick<BotReplies, 'enqueueFor'>) =>
  on('message.received', 'messaging.bot-reply', (e) => replies.enqueueFor(e.companyId, e.clientId));
