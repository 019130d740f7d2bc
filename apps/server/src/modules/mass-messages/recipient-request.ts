import { fillRecipientTokens } from '@hablabot/contract';
import type {
  CloudApiAccount,
  CloudApiClient,
  OutgoingContent,
  SendResult,
} from '../../integrations/whatsapp/cloud-api';
import { RATE_LIMIT_CODES } from '../../integrations/whatsapp/cloud-api';
import type { JobLogger } from '../../platform/jobs/jobs';
import type { Metrics } from '../../platform/metrics';
import { fillPlaceholders, placeholdersOf } from '../templates/template-parameters';
import { DAY_MS } from './daily-limit';
import { FREQUENCY_CAP_CODE, type MassMessageRow, type RecipientRow } from './mass-messages.repository';
import type { MassSenderRepository } from './mass-sender.repository';

/** Tries at most per recipient for a passing error, for the pair limit, and for the number's rate limit. */
const MAX_TRANSIENT_TRIES = 3;
const MAX_PAIR_TRIES = 4;
const MAX_RATE_LIMIT_TRIES = 10;

/**
 * A recipient WhatsApp accepted, with the text they read (the template's body filled in for them) and the
 * request that was sent.
 */
export type OnSent = (
  send: MassMessageRow,
  recipient: RecipientRow,
  sent: { wamid: string; text: string; content: OutgoingContent },
) => Promise<void>;

/** What every recipient of a send shares, parsed once per send rather than once per recipient. */
interface SendParts {
  given: Record<string, string>;
  placeholders: number[];
  header: unknown;
  buttons: unknown[];
}

/** Parsed parts by send row: a run reads its send once, so its recipients share one entry. */
const partsOf = new WeakMap<MassMessageRow, SendParts>();

function sendParts(send: MassMessageRow): SendParts {
  let parts = partsOf.get(send);
  if (!parts) {
    parts = {
      given: JSON.parse(send.body_parameters) as Record<string, string>,
      placeholders: placeholdersOf(send.template_body),
      header: send.header ? JSON.parse(send.header) : undefined,
      buttons: send.buttons ? (JSON.parse(send.buttons) as unknown[]) : [],
    };
    partsOf.set(send, parts);
  }
  return parts;
}

/**
 * The values of the body's placeholders for one recipient, in order and by number; the first blank one's
 * number, if any.
 */
function valuesFor(
  parts: SendParts,
  r: RecipientRow,
): { values: string[]; byNumber: Record<string, string>; blank?: number } {
  const fields = { name: r.name, last_names: r.last_names, whatsapp_cellphone: r.phone, email: r.email };
  const values: string[] = [];
  const byNumber: Record<string, string> = {};
  for (const n of parts.placeholders) {
    const value = fillRecipientTokens(parts.given[String(n)] ?? '', fields)
      .replace(/[\n\r\t]+/g, ' ')
      .replace(/ {5,}/g, '    ')
      .trim();
    if (!value) return { values, byNumber, blank: n };
    values.push(value);
    byNumber[String(n)] = value;
  }
  return { values, byNumber };
}

/**
 * One recipient's request to WhatsApp and what its answer means for the recipient. Refusals WhatsApp
 * reports before sending (rate limits, a passing error) put the recipient back to `queued`, as nothing
 * went out; a request that got no answer is `unknown`, never tried again by the sender. The pair limit
 * (131056) waits only for that recipient (`pairBackoffMs`, ×4 each time); a passing error waits
 * `retryBackoffMs`, doubling. Meta's marketing frequency cap (131049) is tried once more 24 hours later
 * when the send asked for it (`retry_capped`).
 */
export function createRecipientRequest(deps: {
  repository: Pick<MassSenderRepository, 'settle'>;
  /** A recipient WhatsApp accepted, marked `sent` with its wamid (in a batch: see sent-batch.ts). */
  sent: (recipientId: number, wamid: string) => Promise<void>;
  cloudApi: Pick<CloudApiClient, 'sendAs'>;
  metrics?: Pick<Metrics, 'sent'>;
  onSent?: OnSent;
  pairBackoffMs: number;
  retryBackoffMs: number;
  logger: () => JobLogger;
}) {
  const { repository, cloudApi, pairBackoffMs, retryBackoffMs } = deps;

  /**
   * What the run learns from one answer: whether WhatsApp said the number is over its rate. `account` is
   * the company's WhatsApp account as the run read it when it started.
   */
  return async function sendOne(
    send: MassMessageRow,
    r: RecipientRow,
    account: CloudApiAccount | null,
  ): Promise<'ok' | 'rate_limited'> {
    const settle = repository.settle;
    if (!/^\d{10,15}$/.test(r.phone)) {
      await settle(r.id, { status: 'failed', error_code: null, error_message: 'mass.no_phone' });
      return 'ok';
    }
    const parts = sendParts(send);
    const { values, byNumber, blank } = valuesFor(parts, r);
    if (blank !== undefined) {
      await settle(r.id, {
        status: 'failed',
        error_code: null,
        error_message: `mass.empty_parameter|${blank}`,
      });
      return 'ok';
    }
    const components: unknown[] = parts.header ? [parts.header] : [];
    if (values.length)
      components.push({ type: 'body', parameters: values.map((text) => ({ type: 'text', text })) });
    // The quick replies' payloads, after the body as WhatsApp lists a template's parts.
    components.push(...parts.buttons);
    const content: OutgoingContent = {
      type: 'template',
      template: {
        name: send.template_name,
        language: { code: send.template_language },
        ...(components.length ? { components } : {}),
      },
    };
    let result: SendResult;
    try {
      result = await cloudApi.sendAs(account, r.phone, content);
    } catch (err) {
      // Whether the request left is not known: never tried again by itself.
      deps.logger().error({ err, recipient: r.id }, 'mass send request threw');
      await settle(r.id, { status: 'unknown', error_message: 'mass.unconfirmed' });
      return 'ok';
    }
    if (result.ok) {
      deps.metrics?.sent('mass', 'sent');
      // A late answer for a recipient already marked unknown still tells the truth; written with the
      // other answers of the moment (sent-batch.ts).
      await deps.sent(r.id, result.wamid);
      if (deps.onSent) {
        const text = fillPlaceholders(send.template_body ?? '', byNumber);
        await deps
          .onSent(send, r, { wamid: result.wamid, text, content })
          .catch((err) =>
            deps.logger().error({ err, recipient: r.id }, 'mass send message not kept in the conversation'),
          );
      }
      return 'ok';
    }
    if (result.unconfirmed) {
      await settle(r.id, {
        status: 'unknown',
        error_code: result.code || null,
        error_message: result.message,
      });
      return 'ok';
    }
    if (result.code === 130429) {
      const status = r.attempts >= MAX_RATE_LIMIT_TRIES ? 'failed' : 'queued';
      await settle(r.id, { status, error_code: result.code, error_message: result.message });
      return 'rate_limited';
    }
    if (result.code === FREQUENCY_CAP_CODE && send.retry_capped && r.error_code !== FREQUENCY_CAP_CODE) {
      // Meta's marketing frequency cap: the send asked for one more try a day later ('Reintento
      // programado'); a second refusal fails the recipient.
      await settle(r.id, {
        status: 'queued',
        waitMs: DAY_MS,
        error_code: result.code,
        error_message: 'mass.retry_scheduled',
      });
      return 'ok';
    }
    if (result.code === 131056 && r.attempts < MAX_PAIR_TRIES) {
      await settle(r.id, {
        status: 'queued',
        waitMs: pairBackoffMs * 4 ** (r.attempts - 1),
        error_code: result.code,
        error_message: result.message,
      });
      return 'ok';
    }
    if (result.transient && !RATE_LIMIT_CODES.includes(result.code) && r.attempts < MAX_TRANSIENT_TRIES) {
      await settle(r.id, {
        status: 'queued',
        waitMs: retryBackoffMs * 2 ** (r.attempts - 1),
        error_code: result.code || null,
        error_message: result.message,
      });
      return 'ok';
    }
    deps.metrics?.sent('mass', 'failed');
    await settle(r.id, { status: 'failed', error_code: result.code || null, error_message: result.message });
    return 'ok';
  };
}
