import type { TestUser } from './factories';

/** One record of the stream: its fields, or a comment line. */
export interface SseRecord {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/** Reads GET /api/v1/admin/events over real HTTP, as the web app does with fetch. */
export async function openStream(base: string, user: TestUser, lastEventId?: string) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/v1/admin/events`, {
    headers: { ...user.headers, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal: controller.signal,
  });
  const records: SseRecord[] = [];
  let ended = false;
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) records.push({ comment: line.slice(1).trim() });
          }
          const fields: SseRecord = {};
          for (const line of block.split('\n')) {
            const m = /^(id|event|data): ?(.*)$/.exec(line);
            if (m) fields[m[1] as 'id' | 'event' | 'data'] = m[2];
          }
          if (fields.event || fields.data) records.push(fields);
          cut = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted by the test
    }
    ended = true;
  })();
  const events = () => records.filter((r) => r.event);
  return {
    res,
    records,
    events,
    ended: () => ended,
    reading,
    close: () => controller.abort(),
  };
}
