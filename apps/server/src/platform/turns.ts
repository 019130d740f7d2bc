// Long work on the event loop, cut into turns so other requests keep being answered meanwhile: the
// webhook's large deliveries and the clients' import use it.

/** Resolves on the next turn of the event loop, once other requests, timers and I/O had theirs. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Call between units of work: once `turnMs` passed since the last turn, waits for the next turn of the
 * event loop (other requests, timers and I/O run meanwhile), so no piece of work holds the loop much longer.
 */
export function createPacer(turnMs: number, now = () => performance.now()) {
  let since = now();
  return async function pace(): Promise<void> {
    if (now() - since < turnMs) return;
    await nextTurn();
    since = now();
  };
}
