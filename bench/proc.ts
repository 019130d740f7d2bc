import fs from 'node:fs';

// A process's memory as Linux reports it in /proc, for the benches that watch a server child.

/** A process's resident memory in bytes: now (VmRSS) and its peak since start or `resetPeak` (VmHWM). */
export function processMemory(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Starts a process's peak resident memory again from now ("5" to clear_refs), so a phase's peak is its own. */
export function resetPeak(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}
