import { type Subscriber, on } from '../../platform/events/domain-events';
import type { EventBus } from '../../platform/events/events';
import type { Audiences } from './audience';

/**
 * The live notice of a hand-off (part of the real-time module, beside realtime.subscribers.ts):
 * 'conversation.handoff' → the live event of the same name, for those who may see the conversation as it
 * is when published (its assignee after auto-assign, or every agent while it waits in 'Sin asignar', or
 * everyone when the company lets agents see all; admins always). The chat shows it as a notice.
 */
export function handoffSubscribers(deps: {
  events: Pick<EventBus, 'publish'>;
  audiences: Pick<Audiences, 'ofClients'>;
}): Subscriber[] {
  return [
    on('conversation.handoff', 'realtime.conversation-handoff', async (e) => {
      const audience = (await deps.audiences.ofClients(e.companyId, [e.clientId])).get(e.clientId)!;
      await deps.events.publish(
        e.companyId,
        { type: 'conversation.handoff', data: { client_id: e.clientId, reason: e.reason } },
        audience,
      );
    }),
  ];
}
