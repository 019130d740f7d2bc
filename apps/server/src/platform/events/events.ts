import { EventEmitter } from 'node:events';
import type { ServerEvent } from '@hablabot/contract';

/**
 * Who of the company's team an event is for. It travels with the event (through Redis, in the kept list
 * for resumes) and is never written to a stream. Admins receive every event; an agent receives:
 *
 * - `team`: always (nothing about one conversation);
 * - `admins`: never (mass messages);
 * - `conversation`: when the company let agents see all conversations (`agentsSeeAll`, as it was when the
 *   event was published), or when the conversation is unassigned or assigned to them (`assigneeId`), or
 *   when they are among `also` (the previous assignee, told it was taken from them).
 *
 * An event without an audience (published before audiences existed) reaches admins only.
 */
export type Audience =
  | { kind: 'team' }
  | { kind: 'admins' }
  | { kind: 'conversation'; assigneeId: number | null; agentsSeeAll: boolean; also?: number[] };

/** The reader of a stream: their user id, and whether they see everything (an admin). */
export interface Viewer {
  userId: number;
  seesAll: boolean;
}

/** Whether an event with `audience` may be written to `viewer`'s stream (see `Audience`). */
export function reaches(audience: Audience | undefined, viewer: Viewer): boolean {
  if (viewer.seesAll) return true;
  if (!audience) return false;
  switch (audience.kind) {
    case 'team':
      return true;
    case 'admins':
      return false;
    case 'conversation':
      return (
        audience.agentsSeeAll ||
        audience.assigneeId === null ||
        audience.assigneeId === viewer.userId ||
        (audience.also?.includes(viewer.userId) ?? false)
      );
  }
}

/** A published event with its id (ids grow by one per event within a company) and its audience. */
export type PublishedEvent = ServerEvent & { id: number; audience?: Audience };

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
  /** Publishes `event` for the readers `audience` lets through (unset: the company's admins). */
  publish(companyId: number, event: ServerEvent, audience?: Audience): Promise<PublishedEvent>;
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
    async publish(companyId, event, audience) {
      const state = stateOf(companyId);
      const published = { ...event, id: ++state.seq, ...(audience ? { audience } : {}) } as PublishedEvent;
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
