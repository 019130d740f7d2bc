import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request a piece of work belongs to, carried through everything it awaits (AsyncLocalStorage): set
 * for each HTTP request (its X-Request-Id) and for each job run (the id of the request that queued it),
 * so a job's log lines name the request that caused it.
 */
const storage = new AsyncLocalStorage<{ requestId: string }>();

/** The request id of the work running now; undefined outside a request or a job. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** Runs `work` as part of the request `requestId` (none: as part of nothing). */
export function withRequestId<T>(requestId: string | undefined, work: () => T): T {
  return requestId === undefined ? storage.exit(work) : storage.run({ requestId }, work);
}
