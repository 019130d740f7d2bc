import { EventEmitter } from 'node:events';
import type { ServerEvent } from '@hablabot/contract';

/** A published event with its id: ids grow by one per event within a company. */
export type PublishedEvent = ServerEvent & { id: number };

export type EventListener = (event: PublishedEvent) => void;

export interface MissedEvents {
  /** The kept events after the id asked for, oldest first. */
  events: PublishedEvent[];
  /** False when some events after that id are no longer kept (or the ids started over). */
  complete: boolean;
}

/**
 * Live events per company (see "Domain events and the outbox" in docs/architecture.md): in-process by default, Redis
 * pub/sub with REDIS_URL so every app process sees every event. The last events of each company are kept
 * so a reconnecting stream can get what it missed.
 */
export interface EventBus {
  readonly kind: 'memory' | 'redis';
  publish(companyId: number, event: ServerEvent): Promise<PublishedEvent>;
  /** Resolves once the listener will receive every later event; the result unsubscribes. */
  subscribe(companyId: number, listener: EventListener): Promise<() => void>;
  /** The kept events with an id above `lastId`. */
  since(companyId: number, lastId: number): Promise<MissedEvents>;
  /** Listeners of a company in this process (open streams). */
  listenerCount(companyId: number): number;
  close(): Promise<void>;
}

/** How many recent events per company are kept for `Last-Event-ID` resume. */
export const EVENTS_KEPT = 500;

/** Missed events out of a kept list (oldest first) whose newest id is `lastKnown`. */
export function missedAfter(kept: PublishedEvent[], lastKnown: number, lastId: number): MissedEvents {
  // An id from the future means the ids started over (an in-process bus after a restart).
  if (lastId > lastKnown) return { events: kept, complete: false };
  const events = kept.filter((e) => e.id > lastId);
  const oldest = kept[0]?.id ?? lastKnown + 1;
  return { events, complete: lastId === lastKnown || oldest <= lastId + 1 };
}

export function createMemoryEventBus(options: { kept?: number } = {}): EventBus {
  const capacity = options.kept ?? EVENTS_KEPT;
  const emitter = new EventEmitter();
  // One listener per open stream; many admins may watch at once.
  emitter.setMaxListeners(0);
  const companies = new Map<number, { seq: number; kept: PublishedEvent[] }>();

  const stateOf = (companyId: number) => {
    let state = companies.get(companyId);
    if (!state) {
      state = { seq: 0, kept: [] };
      companies.set(companyId, state);
    }
    return state;
  };

  return {
    kind: 'memory',
    async publish(companyId, event) {
      const state = stateOf(companyId);
      const published = { ...event, id: ++state.seq } as PublishedEvent;
      state.kept.push(published);
      if (state.kept.length > capacity) state.kept.splice(0, state.kept.length - capacity);
      emitter.emit(String(companyId), published);
      return published;
    },
    async subscribe(companyId, listener) {
      const channel = String(companyId);
      emitter.on(channel, listener);
      return () => {
        emitter.off(channel, listener);
      };
    },
    async since(companyId, lastId) {
      const state = stateOf(companyId);
      return missedAfter(state.kept, state.seq, lastId);
    },
    listenerCount(companyId) {
      return emitter.listenerCount(String(companyId));
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}
