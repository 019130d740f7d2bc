import { DOMAIN_EVENTS, type DomainEventType, type Subscriber, on } from './events/domain-events';
import type { Metrics } from './metrics';

/** The metrics count every domain event this instance handled, by type. */
export const metricsSubscribers = (metrics: Pick<Metrics, 'domainEvent'>): Subscriber[] =>
  (Object.keys(DOMAIN_EVENTS) as DomainEventType[]).map((type) =>
    on(type, `metrics.${type}`, async () => metrics.domainEvent(type)),
  );
