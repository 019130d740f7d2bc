import { type Subscriber, on } from '../../platform/events/domain-events';
import type { EventBus } from '../../platform/events/events';
import type { TokenHealth } from '../settings/token-health';

/**
 * The live event of the company's WhatsApp connection (part of the real-time module, beside
 * realtime.subscribers.ts): 'channel.token_changed' (WhatsApp started refusing the stored token, or accepts
 * it again) → 'channel.whatsapp_status' with `whatsapp_status` and `whatsapp_token_refused_at` as
 * GET /admin/setting says them now (read when handled, so a late event never shows an older state). For
 * the company's admins only: the token banner is theirs (agents cannot read the settings).
 */
export function channelSubscribers(deps: {
  events: Pick<EventBus, 'publish'>;
  tokenHealth: Pick<TokenHealth, 'status'>;
}): Subscriber[] {
  return [
    on('channel.token_changed', 'realtime.channel-token', async (e) => {
      const data = await deps.tokenHealth.status(e.companyId);
      await deps.events.publish(e.companyId, { type: 'channel.whatsapp_status', data }, { kind: 'admins' });
    }),
  ];
}
