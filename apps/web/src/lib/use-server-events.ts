import { useEffect, useRef, useState } from 'react';
import { type EventStreamState, openEventStream, type ReceivedEvent } from './event-stream';
import { useSession } from './session';

interface Listener {
  onEvent(event: ReceivedEvent): void;
  onState(state: EventStreamState): void;
}

/** One open stream per session token, shared by every component that follows the live events. */
interface SharedStream {
  listeners: Set<Listener>;
  state: EventStreamState;
  close(): void;
}

const streams = new Map<string, SharedStream>();

/** Joins the token's stream (opening it for the first listener); returns how to leave it. */
function join(token: string, listener: Listener): () => void {
  let shared = streams.get(token);
  if (!shared) {
    const created: SharedStream = { listeners: new Set(), state: 'connecting', close: () => {} };
    const stream = openEventStream({
      onEvent: (event) => {
        for (const l of [...created.listeners]) l.onEvent(event);
      },
      onStateChange: (state) => {
        created.state = state;
        for (const l of [...created.listeners]) l.onState(state);
      },
    });
    created.close = () => stream.close();
    streams.set(token, created);
    shared = created;
  }
  const current = shared;
  current.listeners.add(listener);
  listener.onState(current.state);
  return () => {
    current.listeners.delete(listener);
    if (current.listeners.size > 0) return;
    current.close();
    if (streams.get(token) === current) streams.delete(token);
  };
}

/**
 * Follows the company's live events while the component is mounted and someone is signed in: each
 * event reaches the latest `onEvent` (so an inline callback does not reconnect on every render). A
 * `stream.reset` event means some events were missed: reload the screen's data. Returns the
 * connection's state, for a "reconnecting…" hint.
 *
 * Every component on the page shares one connection (the chat, the token banner of the admin layout,
 * the templates' list …): it opens with the first one mounted and closes with the last one, so a screen
 * never holds several streams of the browser's few connections per server.
 */
export function useServerEvents(
  onEvent: (event: ReceivedEvent) => void,
  options: { enabled?: boolean } = {},
): EventStreamState {
  const enabled = options.enabled ?? true;
  const token = useSession()?.token ?? null;
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const [state, setState] = useState<EventStreamState>('closed');

  useEffect(() => {
    if (!enabled || !token) {
      setState('closed');
      return;
    }
    const leave = join(token, { onEvent: (event) => handler.current(event), onState: setState });
    return () => {
      leave();
    };
  }, [enabled, token]);

  return state;
}
