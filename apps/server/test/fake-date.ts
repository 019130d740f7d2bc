import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { createTestApi, type TestApi } from './http';

/**
 * A test file's app (default limits) on a faked `Date`: each test starts on the real time, and `step(ms)`
 * moves the clock on — waits the rate limits ask for become clock steps, never sleeps. Only `Date` is
 * faked, so the server's own timers and I/O run as usual.
 */
export function appOnFakeDate() {
  const holder: { api: TestApi; step(ms: number): void } = {
    api: undefined as unknown as TestApi,
    step: (ms) => vi.setSystemTime(Date.now() + ms),
  };
  beforeAll(async () => {
    holder.api = await createTestApi();
  });
  afterAll(async () => {
    await holder.api.close();
  });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  return holder;
}
