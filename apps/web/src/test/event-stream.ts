import { act } from '@testing-library/react';

/**
 * The live stream (GET /api/v1/admin/events) as the server writes it, for mockFetch: a route answers
 * `response()` (a 200 text/event-stream whose body the test writes into) and `send` delivers one event
 * with the next id. `connected` resolves once the screen has opened the stream, so a test sends only
 * after someone listens (never a guess of how long that takes).
 */
export function eventStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const encoder = new TextEncoder();
  let id = 0;
  let opened!: () => void;
  const connected = new Promise<void>((resolve) => (opened = resolve));
  return {
    /** Resolves once the screen has opened the stream. */
    connected,
    response: () => {
      opened();
      return new Response(body, {
        status: 200,
        headers: { 'content-type': 'text/event-stream; charset=utf-8' },
      });
    },
    /** Writes one event; the screen's state settles inside `act`. */
    async send(type: string, data: unknown) {
      id += 1;
      await act(async () => {
        controller.enqueue(encoder.encode(`id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`));
      });
    },
  };
}
