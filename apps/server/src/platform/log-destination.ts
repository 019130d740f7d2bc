import pino from 'pino';

/** Log lines held while standard output does not take them; past this, new lines are dropped. */
const MAX_BUFFERED = 16 * 1024 * 1024;

/**
 * Where the server's log lines go: standard output, written asynchronously. Lines logged while a write is
 * under way are gathered and written together, so a busy server makes one write for many lines and the
 * event loop never waits on a slow reader of its output. `flush` writes what is left before the process
 * exits, and never waits on a reader that is gone or not reading: the lines are then dropped.
 */
export function createLogDestination(fd = 1) {
  let stopping = false;
  const stream = pino.destination({
    dest: fd,
    sync: false,
    maxLength: MAX_BUFFERED,
    // A full pipe is retried while the server runs; when stopping, it is given up on.
    retryEAGAIN: () => !stopping,
  });
  return {
    stream,
    flush(): void {
      stopping = true;
      try {
        stream.flushSync();
      } catch {
        // Output closed (EPIPE) or not read: the rest is dropped.
      }
      // pino flushes again as the process exits; there is nothing left to write, or no way to write it.
      stream.flushSync = () => {};
    },
  };
}
