import type { FakeSentMessage } from './graph-messages';
import { createWebhookEmitter } from './webhook-emitter';

/**
 * The statuses Meta reports after accepting a message: `sent` once it left, `delivered` once it reached
 * the phone, `read` once the customer opened it, each a signed webhook of its own some time after the
 * send. The fake reports them only when told to (`FakeMessagesControl.reportStatuses`): the tests that do
 * not ask get no status webhook, as before; the demo asks, with delays like a real phone's.
 */
export interface StatusTimings {
  /** Milliseconds from the send to its `sent` status. */
  sentMs: number;
  /** Milliseconds from the send to its `delivered` status. */
  deliveredMs: number;
  /** Milliseconds from the send to its `read` status; null: never read. */
  readMs: number | null;
  /** The share of messages read (0 to 1; all by default). Below 1, which ones is left to chance. */
  readShare?: number;
}

/** Where webhooks go, as FakeMessagesControl.webhook says. */
export interface StatusTarget {
  url: string;
  appSecret?: string;
  wabaId?: string;
}

/**
 * Reports `sent`, `delivered` and (unless left unread) `read` for one accepted message, each after its
 * delay. `track` is given each delivery so the fake can wait for it (flushWebhooks) or cancel it (close).
 */
export function reportStatuses(
  sent: FakeSentMessage,
  target: StatusTarget,
  timings: StatusTimings,
  track: (delivery: Promise<unknown>, cancel: () => void) => void,
  random: () => number = Math.random,
) {
  const emitter = createWebhookEmitter({
    url: target.url,
    appSecret: target.appSecret,
    wabaId: target.wabaId,
    phoneNumberId: sent.phoneNumberId,
  });
  const read = timings.readMs !== null && random() < (timings.readShare ?? 1);
  const steps: ['sent' | 'delivered' | 'read', number][] = [
    ['sent', timings.sentMs],
    ['delivered', Math.max(timings.sentMs, timings.deliveredMs)],
  ];
  if (read && timings.readMs !== null) steps.push(['read', Math.max(timings.deliveredMs, timings.readMs)]);
  // One after the other, so each status arrives after the one before it, as a phone reports them.
  let previous: Promise<unknown> = Promise.resolve();
  let elapsed = 0;
  for (const [status, at] of steps) {
    const wait = at - elapsed;
    elapsed = at;
    let timer: NodeJS.Timeout | undefined;
    let wake: (() => void) | undefined;
    let cancelled = false;
    const delivery = previous
      .then(
        () =>
          new Promise<void>((resolve) => {
            if (cancelled) return resolve();
            wake = resolve;
            timer = setTimeout(resolve, wait);
          }),
      )
      .then(() => {
        if (cancelled) return undefined;
        return emitter.statuses([{ wamid: sent.wamid, status, recipientId: sent.to }]);
      })
      .catch(() => undefined);
    previous = delivery;
    track(delivery, () => {
      cancelled = true;
      clearTimeout(timer);
      wake?.();
    });
  }
}
