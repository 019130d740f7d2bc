import { type FakeGraphApi, type FakeOpenAi, startFakeGraphApi, startFakeOpenAi } from '@hablabot/fakes';
import { createChatCompletionsClient } from '../src/integrations/ai/chat-completions';
import type { PublishedEvent } from '../src/platform/events/events';
import { createBot } from './bots-factories';
import { type TestContext, createTestContext } from './context';
import type { FakeClock } from './fake-clock';
import { type TestUser, createUser } from './factories';
import { connectWhatsApp } from './whatsapp-company';

/**
 * A company whose customers write through the real webhook to a live bot: the fake WhatsApp Cloud API
 * (its number) and the fake OpenAI-compatible server (answering `botAnswer`), an admin, a bot 'Eres
 * Sofía.', the business hours and presence on `clock`, every live event of the company kept in
 * `published`, and the job queue running. The set-up of the automation tests (consent words, hand-off).
 */
export async function startBotCompany(options: {
  token: string;
  openaiKey: string;
  phoneId: string;
  /** The number as WhatsApp shows it. */
  displayPhone: string;
  clock: FakeClock;
  botAnswer: string;
}): Promise<{
  ctx: TestContext;
  graph: FakeGraphApi;
  openai: FakeOpenAi;
  admin: TestUser;
  companyId: number;
  published: PublishedEvent[];
  /** Starts the job queue (after the test's own settings). */
  start(): Promise<void>;
  close(): Promise<void>;
}> {
  const { clock } = options;
  const graph = await startFakeGraphApi({
    tokens: [options.token],
    phoneNumbers: [
      {
        id: options.phoneId,
        display_phone_number: options.displayPhone,
        verified_name: 'Roble',
        quality_rating: 'GREEN',
      },
    ],
  });
  const openai = await startFakeOpenAi({ apiKeys: [options.openaiKey] });
  openai.reply = () => options.botAnswer;
  const ctx = await createTestContext({
    hoursClock: clock,
    presence: { clock },
    botReplyDelayMs: 50,
    chatCompletions: createChatCompletionsClient({ maxRetries: 1, sleep: async () => {} }),
  });
  const admin = await createUser(ctx, { role: 'admin' });
  const companyId = admin.user.company_id!;
  await connectWhatsApp(ctx.container, companyId, {
    phoneId: options.phoneId,
    token: options.token,
    baseUrl: graph.baseUrl,
  });
  await ctx.container.settingsRepository.upsertSettings(companyId, {
    openai_api_key_enc: ctx.container.secrets.encrypt(options.openaiKey),
    openai_model: 'gpt-4o-mini',
    openai_chat_endpoint: openai.endpoint,
  });
  await createBot(ctx, companyId, { personality: 'Eres Sofía.' });
  const published: PublishedEvent[] = [];
  return {
    ctx,
    graph,
    openai,
    admin,
    companyId,
    published,
    async start() {
      await ctx.container.events.subscribe(companyId, (e) => void published.push(e));
      await ctx.container.jobs.start();
    },
    async close() {
      await ctx.close();
      await graph.close();
      await openai.close();
    },
  };
}
