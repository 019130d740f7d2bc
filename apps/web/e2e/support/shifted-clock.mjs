// A test-only clock for a server process a browser spec starts (support/own-server.ts): loaded with
// `node --import` ahead of the server, never by the server itself, so production cannot reach it. It
// does nothing unless HABLABOT_E2E_CLOCK_FILE names a file; then the process's `Date` (Date.now() and
// `new Date()` without arguments, which everything reads the time from: the job queue, business hours,
// sign-in tokens) runs that many milliseconds ahead of the wall clock, the number the file holds. The
// spec writes the file to move the server's time forward, at once and without a restart (the file is
// read again whenever it changed).
import fs from 'node:fs';

const file = process.env.HABLABOT_E2E_CLOCK_FILE;

if (file) {
  const RealDate = Date;
  let seen = '';
  let offset = 0;
  const shift = () => {
    try {
      const stat = fs.statSync(file, { bigint: true });
      const mark = `${stat.mtimeNs}:${stat.size}:${stat.ino}`;
      if (mark !== seen) {
        seen = mark;
        offset = Number(fs.readFileSync(file, 'utf8').trim()) || 0;
      }
    } catch {
      // No file (yet): the wall clock.
    }
    return offset;
  };
  const now = () => RealDate.now() + shift();
  globalThis.Date = new Proxy(RealDate, {
    construct(target, args, newTarget) {
      return args.length === 0
        ? Reflect.construct(target, [now()], newTarget)
        : Reflect.construct(target, args, newTarget);
    },
    apply() {
      return new RealDate(now()).toString();
    },
    get(target, property, receiver) {
      return property === 'now' ? now : Reflect.get(target, property, receiver);
    },
  });
}
