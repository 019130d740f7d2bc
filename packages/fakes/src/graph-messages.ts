import { randomBytes } from 'node:crypto';
import type { FakeResponse, RecordedRequest } from './http';
import type { FakeGraphApi } from './graph-api';
import { reportStatuses, type StatusTimings } from './graph-statuses';
import { templateSendRefusal } from './graph-templates';
import { createWebhookEmitter, type StatusError } from './webhook-emitter';

/**
 * The send endpoint of the fake Graph API: `POST /{version}/{phone_number_id}/messages` for text, media
 * (by link or id), templates and marking a message read, with Meta's answers and error bodies. Every
 * accepted send is recorded; tests script failures (now, or later by a signed `failed` status webhook as
 * Meta does outside the 24-hour window) and a per-number throughput limit. Template sends are checked
 * against the fake's templates (graph-templates.ts), as Meta does. With `reportStatuses` set, each
 * accepted send is followed by its `sent`, `delivered` and `read` status webhooks (graph-statuses.ts).
 */

/** A message the fake accepted. */
export interface FakeSentMessage {
  phoneNumberId: string;
  wamid: string;
  to: string;
  type: string;
  /** The request body as sent. */
  body: Record<string, unknown>;
  /** The message this one quotes (`context.message_id`), as WhatsApp shows it above the reply; null when none. */
  contextMessageId: string | null;
  at: Date;
}

/** A "mark as read" the fake accepted. */
export interface FakeReadReceipt {
  phoneNumberId: string;
  messageId: string;
}

/** A scripted failure of the next sends. */
export interface ScriptedFailure {
  code: number;
  /** Meta's text (a usual one per code by default). */
  message?: string;
  /** 'sync' answers the error; 'async' answers 200 with a wamid, then a signed `failed` status webhook. */
  mode?: 'sync' | 'async';
  /** HTTP status of a sync error (Meta's usual one for the code by default). */
  status?: number;
}

export interface FakeMessagesControl {
  /** Every message the fake accepted, oldest first (also those that fail later by webhook). */
  sent: FakeSentMessage[];
  /** Every "mark as read" the fake accepted. */
  reads: FakeReadReceipt[];
  /** The next `times` sends (not reads) fail this way, in order after any already scripted. */
  failSends(failure: ScriptedFailure, times?: number): void;
  /**
   * Every send to this phone (digits) fails this way until cleared with null — e.g. Meta's marketing
   * frequency cap (131049) for chosen customers. Checked before the scripted failures.
   */
  failFor(phone: string, failure: ScriptedFailure | null): void;
  /** Sends accepted per phone number per second before 130429 (80 by default, Meta's default tier). */
  throughputPerSecond: number;
  /** Where `failed` statuses (and other webhooks) are delivered, signed with `appSecret` when set. */
  webhook: { url: string; appSecret?: string; wabaId?: string } | null;
  /**
   * When set, every send accepted from then on is followed by signed `sent`, `delivered` and `read`
   * status webhooks after these delays; null (the default) reports no status but a scripted failure.
   */
  reportStatuses: StatusTimings | null;
  /** Waits for the webhooks the fake is delivering (status reports still waiting for their delay too). */
  flushWebhooks(): Promise<void>;
}

/** Meta's usual text and HTTP status per error code. */
export const SEND_ERRORS: Record<number, { message: string; status: number; title?: string }> = {
  2: { message: 'Service temporarily unavailable', status: 503 },
  100: { message: '(#100) Invalid parameter', status: 400 },
  130429: { message: '(#130429) Rate limit hit', status: 429 },
  131000: { message: '(#131000) Something went wrong', status: 500 },
  131026: { message: '(#131026) Message undeliverable', status: 400, title: 'Message undeliverable' },
  131047: {
    message: '(#131047) Re-engagement message',
    status: 400,
    title: 'Re-engagement message',
  },
  131049: {
    message: '(#131049) This message was not delivered to maintain healthy ecosystem engagement.',
    status: 400,
    title: 'This message was not delivered to maintain healthy ecosystem engagement.',
  },
  131050: {
    message:
      '(#131050) Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.',
    status: 400,
    title: 'User has stopped marketing messages',
  },
  131051: { message: '(#131051) Unsupported message type', status: 400 },
  131056: {
    message: '(#131056) (Business Account, Consumer Account) pair rate limit hit',
    status: 400,
  },
  131057: { message: '(#131057) Account in maintenance mode', status: 503 },
  132000: {
    message: '(#132000) Number of parameters does not match the expected number of params',
    status: 400,
  },
  132001: { message: '(#132001) Template name does not exist in the translation', status: 404 },
  190: { message: 'Error validating access token: Session has expired', status: 401 },
  368: { message: '(#368) Temporarily blocked for policies violations', status: 400 },
};

const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'] as const;

export const newWamid = () => `wamid.${randomBytes(24).toString('base64url')}`;

function errorBody(code: number, message: string, details?: string) {
  return {
    error: {
      message,
      type: 'OAuthException',
      code,
      error_data: { messaging_product: 'whatsapp', details: details ?? message },
      fbtrace_id: randomBytes(9).toString('base64url'),
    },
  };
}

const invalidParameter = (details: string): FakeResponse => ({
  status: 400,
  body: errorBody(100, '(#100) Invalid parameter', details),
});

/** The reason a send body is not one Meta accepts; null when it is well formed. */
function refusal(body: Record<string, unknown>): string | null {
  if (body.messaging_product !== 'whatsapp') return 'messaging_product must be whatsapp';
  if (body.context !== undefined) {
    const context = body.context as { message_id?: unknown } | null;
    if (
      !context ||
      typeof context !== 'object' ||
      typeof context.message_id !== 'string' ||
      context.message_id === ''
    )
      return 'context.message_id is missing';
  }
  if (typeof body.to !== 'string' || !/^\+?\d{5,15}$/.test(body.to)) return 'to is not a phone number';
  const type = body.type ?? 'text';
  const part = body[type as string] as Record<string, unknown> | undefined;
  if (!part || typeof part !== 'object') return `${String(type)} object is missing`;
  if (type === 'text') {
    return typeof part.body === 'string' && part.body.trim() !== '' && part.body.length <= 4096
      ? null
      : 'text.body is missing or longer than 4096 characters';
  }
  if ((MEDIA_TYPES as readonly string[]).includes(type as string)) {
    const hasLink = typeof part.link === 'string' && /^https?:\/\//.test(part.link);
    const hasId = typeof part.id === 'string' && part.id !== '';
    if (hasLink === hasId) return `${String(type)} needs exactly one of link or id`;
    if (type === 'audio' && part.caption !== undefined) return 'audio takes no caption';
    return null;
  }
  if (type === 'template') {
    const language = part.language as { code?: unknown } | undefined;
    if (typeof part.name !== 'string' || part.name === '') return 'template.name is missing';
    if (typeof language?.code !== 'string') return 'template.language.code is missing';
    return null;
  }
  return `unsupported type ${String(type)}`;
}

/** Adds the send endpoint and its control knobs to a fake Graph API. */
export function installMessageRoutes(
  fake: FakeGraphApi,
  checkToken: (r: RecordedRequest) => FakeResponse | null,
) {
  const failures: ScriptedFailure[] = [];
  const windowStart = new Map<string, { second: number; count: number }>();
  const deliveries = new Set<Promise<unknown>>();
  /** How to cancel the status reports still waiting for their delay. */
  const pending = new Map<Promise<unknown>, () => void>();
  const control = fake as FakeGraphApi & FakeMessagesControl;
  control.sent = [];
  control.reads = [];
  control.throughputPerSecond = 80;
  control.webhook = null;
  control.reportStatuses = null;
  control.failSends = (failure, times = 1) => {
    for (let i = 0; i < times; i++) failures.push(failure);
  };
  const failuresByPhone = new Map<string, ScriptedFailure>();
  control.failFor = (phone, failure) => {
    if (failure) failuresByPhone.set(phone, failure);
    else failuresByPhone.delete(phone);
  };
  control.flushWebhooks = async () => {
    while (deliveries.size) await Promise.allSettled([...deliveries]);
  };
  const baseReset = fake.reset.bind(fake);
  fake.reset = () => {
    baseReset();
    control.sent.length = 0;
    control.reads.length = 0;
    failures.length = 0;
    failuresByPhone.clear();
    windowStart.clear();
    control.reportStatuses = null;
    for (const cancel of pending.values()) cancel();
  };
  // Closing drops the status reports not yet made, so no timer outlives the fake.
  const baseClose = fake.close.bind(fake);
  fake.close = () => {
    for (const cancel of pending.values()) cancel();
    return baseClose();
  };

  /** True when this send exceeds the number's throughput in the current second. */
  function overThroughput(phoneNumberId: string): boolean {
    const second = Math.floor(Date.now() / 1000);
    const current = windowStart.get(phoneNumberId);
    if (!current || current.second !== second) {
      windowStart.set(phoneNumberId, { second, count: 1 });
      return false;
    }
    current.count++;
    return current.count > control.throughputPerSecond;
  }

  function deliverFailed(sent: FakeSentMessage, failure: ScriptedFailure) {
    const target = control.webhook;
    if (!target) return;
    const known = SEND_ERRORS[failure.code];
    const error: StatusError = {
      code: failure.code,
      title: known?.title ?? failure.message ?? known?.message ?? 'Message failed to send',
      message: failure.message ?? known?.title ?? known?.message ?? 'Message failed to send',
    };
    const emitter = createWebhookEmitter({
      url: target.url,
      appSecret: target.appSecret,
      wabaId: target.wabaId,
      phoneNumberId: sent.phoneNumberId,
    });
    // After the answer has gone out, as Meta reports a failure seconds after accepting the message.
    const delivery = new Promise((resolve) => setTimeout(resolve, 10))
      .then(() =>
        emitter.statuses([{ wamid: sent.wamid, status: 'failed', recipientId: sent.to, errors: [error] }]),
      )
      .catch(() => undefined)
      .finally(() => deliveries.delete(delivery));
    deliveries.add(delivery);
  }

  fake.route('POST', '/:version/:id/messages', (request, { id }) => {
    const refused = checkToken(request);
    if (refused) return refused;
    if (!fake.phoneNumbers.has(id)) {
      return {
        status: 400,
        body: errorBody(
          100,
          `Unsupported post request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        ),
      };
    }
    const body = request.body;
    if (!body || typeof body !== 'object') return invalidParameter('The request body is not JSON');
    const b = body as Record<string, unknown>;

    if (b.status === 'read') {
      if (b.messaging_product !== 'whatsapp' || typeof b.message_id !== 'string')
        return invalidParameter('message_id is missing');
      control.reads.push({ phoneNumberId: id, messageId: b.message_id });
      return { status: 200, body: { success: true } };
    }

    const problem = refusal(b);
    if (problem) return invalidParameter(problem);
    if (b.type === 'template') {
      const refused = templateSendRefusal(fake, id, b.template as Record<string, unknown>);
      if (refused) return refused;
    }
    if (overThroughput(id)) {
      return {
        status: 429,
        body: errorBody(
          130429,
          SEND_ERRORS[130429].message,
          'Message failed to send because there were too many messages sent from this phone number in a short period of time',
        ),
      };
    }
    const failure = failuresByPhone.get(String(b.to).replace(/^\+/, '')) ?? failures.shift();
    if (failure && (failure.mode ?? 'sync') === 'sync') {
      const known = SEND_ERRORS[failure.code];
      return {
        status: failure.status ?? known?.status ?? 400,
        body: errorBody(failure.code, failure.message ?? known?.message ?? `(#${failure.code}) Error`),
      };
    }
    const to = (b.to as string).replace(/^\+/, '');
    const sent: FakeSentMessage = {
      phoneNumberId: id,
      wamid: newWamid(),
      to,
      type: String(b.type ?? 'text'),
      body: b,
      contextMessageId: b.context ? (b.context as { message_id: string }).message_id : null,
      at: new Date(),
    };
    control.sent.push(sent);
    if (failure) deliverFailed(sent, failure);
    else if (control.reportStatuses && control.webhook) {
      reportStatuses(sent, control.webhook, control.reportStatuses, (delivery, cancel) => {
        const tracked = delivery.finally(() => {
          deliveries.delete(tracked);
          pending.delete(tracked);
        });
        deliveries.add(tracked);
        pending.set(tracked, cancel);
      });
    }
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [{ input: b.to, wa_id: to }],
        messages: [{ id: sent.wamid }],
      },
    };
  });
}
