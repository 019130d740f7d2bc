/**
 * Polls `check` until it gives a value (anything but undefined or false), then returns it; throws after
 * `timeoutMs`. For what happens in the background: jobs, other processes, webhooks that arrive later.
 */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 15_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
