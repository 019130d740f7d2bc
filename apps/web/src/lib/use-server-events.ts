import { useEffect, useRef, useState } from 'react';
import { type EventStreamState, openEventStream, type ReceivedEvent } from './event-stream';
import { useSession } from './session';

/**
 * Follows the company's live events while the component is mounted and someone is signed in: each
 * event reaches the latest `onEvent` (so an inline callback does not reconnect on every render). A
 * `stream.reset` event means some events were missed: reload the screen's data. Returns the
 * connection's state, for a "reconnecting…" hint.
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
    const stream = openEventStream({
      onEvent: (event) => handler.current(event),
      onStateChange: setState,
    });
    return () => stream.close();
  }, [enabled, token]);

  return state;
}
