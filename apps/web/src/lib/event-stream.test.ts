import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUnauthorizedHandler } from './api-client';
import {
  backoffDelay,
  createSseParser,
  type EventStreamState,
  openEventStream,
  type ReceivedEvent,
  type SseFrame,
} from './event-stream';
import { getSession, setSession } from './session';
import { useServerEvents } from './use-server-events';

const unread = (clientId: number, count: number) => ({
  client_id: clientId,
  unread_messages_count: count,
  last_message_content: 'Hola',
  last_message_date: '2026-11-22T10:15:00.000Z',
});

function frame(id: number, type: string, data: unknown): string {
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A 200 text/event-stream answer whose body the test writes into, as the server would. */
function sseResponse() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const encoder = new TextEncoder();
  let closed = false;
  return {
    response: new Response(body, {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8' },
    }),
    write(text: string) {
      if (!closed) controller.enqueue(encoder.encode(text));
    },
    writeBytes(bytes: Uint8Array) {
      controller.enqueue(bytes);
    },
    close() {
      if (closed) return;
      closed = true;
      controller.close();
    },
  };
}

const fetchMock = vi.fn<typeof fetch>();

function requestAt(n: number) {
  const [url, init] = fetchMock.mock.calls[n] ?? [];
  return { url: String(url), headers: new Headers((init as RequestInit | undefined)?.headers) };
}

function signIn(token = 'tok-events') {
  setSession({ token, user: { id: 3, email: 'ana@example.com' }, rol: 'admin' });
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  signIn();
});

afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedHandler(() => {});
});

describe('server-sent events parser', () => {
  function parseAll(chunks: string[]) {
    const frames: SseFrame[] = [];
    const comments: string[] = [];
    const retries: number[] = [];
    const parser = createSseParser({
      onFrame: (f) => frames.push(f),
      onComment: (c) => comments.push(c),
      onRetry: (ms) => retries.push(ms),
    });
    for (const chunk of chunks) parser.push(chunk);
    return { frames, comments, retries, lastId: parser.lastId };
  }

  const stream = `retry: 3000\n: connected\n\n${frame(7, 'client.unread', unread(1, 2))}: heartbeat\n\nid: 8\nevent: message.status\ndata: {"a":\ndata: 1}\n\n`;

  it('reads frames, comments and retry whole', () => {
    const { frames, comments, retries, lastId } = parseAll([stream]);
    expect(frames).toEqual([
      { id: '7', event: 'client.unread', data: JSON.stringify(unread(1, 2)) },
      { id: '8', event: 'message.status', data: '{"a":\n1}' },
    ]);
    expect(comments).toEqual(['connected', 'heartbeat']);
    expect(retries).toEqual([3000]);
    expect(lastId).toBe('8');
  });

  it('gives the same frames however the text is cut, one character at a time included', () => {
    const whole = parseAll([stream]);
    expect(parseAll(stream.split(''))).toEqual(whole);
    for (const at of [1, 5, 13, 30, 60, stream.length - 2]) {
      expect(parseAll([stream.slice(0, at), stream.slice(at)])).toEqual(whole);
    }
  });

  it('takes \\r\\n and \\r line ends, also when \\r and \\n arrive in different chunks', () => {
    const crlf = 'id: 1\r\nevent: stream.reset\r\ndata: {}\r\n\r\n';
    const expected = [{ id: '1', event: 'stream.reset', data: '{}' }];
    expect(parseAll([crlf]).frames).toEqual(expected);
    expect(parseAll(['id: 1\r', '\nevent: stream.reset\r', '\ndata: {}\r', '\n\r', '\n']).frames).toEqual(
      expected,
    );
    // A lone '\r' at the very end may still be the first half of '\r\n': the frame comes with the next text.
    expect(parseAll(['id: 1\revent: stream.reset\rdata: {}\r\r']).frames).toEqual([]);
    expect(parseAll(['id: 1\revent: stream.reset\rdata: {}\r\r', ': heartbeat\r']).frames).toEqual(expected);
  });

  it('keeps the last id for frames without one, and sends nothing for a frame without data', () => {
    const { frames } = parseAll([
      'id: 4\nevent: x\ndata: {}\n\nevent: x\n\nevent: stream.reset\ndata: {}\n\n',
    ]);
    expect(frames).toEqual([
      { id: '4', event: 'x', data: '{}' },
      { id: '4', event: 'stream.reset', data: '{}' },
    ]);
  });
});

describe('backoff', () => {
  it('doubles up to the cap, with half of the wait random', () => {
    expect(backoffDelay(0, 1000, 30_000, () => 0)).toBe(500);
    expect(backoffDelay(0, 1000, 30_000, () => 0.999999)).toBe(1000);
    expect(backoffDelay(3, 1000, 30_000, () => 0)).toBe(4000);
    expect(backoffDelay(20, 1000, 30_000, () => 0)).toBe(15_000);
  });
});

describe('event stream over fetch', () => {
  function open(overrides: Partial<Parameters<typeof openEventStream>[0]> = {}) {
    const events: ReceivedEvent[] = [];
    const states: EventStreamState[] = [];
    const errors: unknown[] = [];
    const stream = openEventStream({
      onEvent: (e) => events.push(e),
      onStateChange: (s) => states.push(s),
      onError: (e) => errors.push(e),
      initialDelayMs: 1,
      maxDelayMs: 5,
      ...overrides,
    });
    return { stream, events, states, errors };
  }

  it('asks with the bearer token and Accept-Language in headers, never in the URL, and delivers valid events', async () => {
    localStorage.setItem('language', 'en');
    const server = sseResponse();
    fetchMock.mockResolvedValueOnce(server.response);
    const { stream, events, errors } = open();
    server.write('retry: 1\n: connected\n\n');
    server.write(frame(1, 'client.unread', unread(5, 1)).slice(0, 20));
    server.write(frame(1, 'client.unread', unread(5, 1)).slice(20));
    server.write(frame(2, 'client.bot_mode', { client_id: 5, mode_bot: 0 }));
    server.write(frame(3, 'message.created', { client_id: 5 })); // not a valid message: skipped
    server.write('event: stream.reset\ndata: {}\n\n');
    await waitFor(() => expect(events).toHaveLength(3));

    const request = requestAt(0);
    expect(request.url).toBe('/api/v1/admin/events');
    expect(request.url).not.toContain('tok-events');
    expect(request.headers.get('Authorization')).toBe('Bearer tok-events');
    expect(request.headers.get('Accept-Language')).toBe('en');
    expect(request.headers.get('Accept')).toBe('text/event-stream');
    expect(request.headers.has('Last-Event-ID')).toBe(false);
    expect(events).toEqual([
      { id: 1, type: 'client.unread', data: unread(5, 1) },
      { id: 2, type: 'client.bot_mode', data: { client_id: 5, mode_bot: 0 } },
      { id: null, type: 'stream.reset', data: {} },
    ]);
    expect(errors).toHaveLength(1);
    stream.close();
    await stream.done;
  });

  it('decodes a character split across chunks', async () => {
    const server = sseResponse();
    fetchMock.mockResolvedValueOnce(server.response);
    const { stream, events } = open();
    const bytes = new TextEncoder().encode(
      frame(1, 'client.unread', { ...unread(5, 1), last_message_content: 'Año ñandú' }),
    );
    const cut = bytes.indexOf(0xc3) + 1;
    server.writeBytes(bytes.slice(0, cut));
    server.writeBytes(bytes.slice(cut));
    await waitFor(() => expect(events).toHaveLength(1));
    expect(events[0].type === 'client.unread' && events[0].data.last_message_content).toBe('Año ñandú');
    stream.close();
    await stream.done;
  });

  it('reconnects after the server closes, sending the last id seen as Last-Event-ID', async () => {
    const first = sseResponse();
    const second = sseResponse();
    fetchMock.mockResolvedValueOnce(first.response).mockResolvedValueOnce(second.response);
    const { stream, events, states } = open();
    first.write(frame(41, 'client.unread', unread(1, 1)));
    first.write(frame(42, 'client.unread', unread(1, 2)));
    await waitFor(() => expect(events).toHaveLength(2));
    first.close();

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(requestAt(1).headers.get('Last-Event-ID')).toBe('42');
    expect(requestAt(1).headers.get('Authorization')).toBe('Bearer tok-events');
    second.write(frame(43, 'client.unread', unread(1, 3)));
    await waitFor(() => expect(events.map((e) => e.id)).toEqual([41, 42, 43]));
    expect(states).toEqual(['connecting', 'open', 'reconnecting', 'open']);
    stream.close();
    await stream.done;
    expect(states.at(-1)).toBe('closed');
  });

  it('reconnects after network errors and 5xx answers, keeping Last-Event-ID', async () => {
    const first = sseResponse();
    const last = sseResponse();
    fetchMock
      .mockResolvedValueOnce(first.response)
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(new Response('{"message":"x"}', { status: 503 }))
      .mockResolvedValueOnce(last.response);
    const { stream, events } = open();
    first.write(frame(9, 'client.unread', unread(1, 1)));
    await waitFor(() => expect(events).toHaveLength(1));
    first.close();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(4));
    expect(requestAt(1).headers.get('Last-Event-ID')).toBe('9');
    expect(requestAt(3).headers.get('Last-Event-ID')).toBe('9');
    stream.close();
    await stream.done;
  });

  it('treats a silence longer than 2.5 heartbeats as a dead connection and reconnects', async () => {
    const silent = sseResponse();
    const next = sseResponse();
    fetchMock.mockResolvedValueOnce(silent.response).mockResolvedValueOnce(next.response);
    const { stream, events } = open({ heartbeatMs: 20 });
    silent.write(frame(5, 'client.unread', unread(1, 1)));
    await waitFor(() => expect(events).toHaveLength(1));
    // The first connection stays open but says nothing more.
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(requestAt(1).headers.get('Last-Event-ID')).toBe('5');
    stream.close();
    await stream.done;
  });

  it('keeps a connection whose heartbeats keep coming', async () => {
    const server = sseResponse();
    fetchMock.mockResolvedValueOnce(server.response);
    const { stream, states } = open({ heartbeatMs: 100 });
    const beats = setInterval(() => server.write(': heartbeat\n\n'), 5);
    // Six dead-connection periods' worth of silence, had the heartbeats not counted.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    clearInterval(beats);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(states).toEqual(['connecting', 'open']);
    stream.close();
    await stream.done;
  });

  it('stops on 401 and ends the session as the API client does', async () => {
    const unauthorized = vi.fn();
    setUnauthorizedHandler(unauthorized);
    fetchMock.mockResolvedValue(new Response('{"message":"No autenticado."}', { status: 401 }));
    const { stream, states } = open();
    await stream.done;
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(getSession()).toBeNull();
    expect(unauthorized).toHaveBeenCalledTimes(1);
    expect(states).toEqual(['connecting', 'closed']);
  });

  it('stops on 403 without retrying and keeps the session', async () => {
    fetchMock.mockResolvedValue(new Response('{"message":"No"}', { status: 403 }));
    const { stream, errors } = open();
    await stream.done;
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(errors).toHaveLength(1);
    expect(getSession()?.token).toBe('tok-events');
  });

  it('stops when its signal aborts, also while the body is being read', async () => {
    const server = sseResponse();
    fetchMock.mockImplementation(async (_url, init) => {
      init?.signal?.addEventListener('abort', () => server.close());
      return server.response;
    });
    const abort = new AbortController();
    const { stream, events } = open({ signal: abort.signal });
    server.write(frame(1, 'client.unread', unread(1, 1)));
    await waitFor(() => expect(events).toHaveLength(1));
    abort.abort();
    await stream.done;
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('does not connect without a session', async () => {
    sessionStorage.clear();
    const { stream } = open();
    await stream.done;
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('useServerEvents', () => {
  it('hands events to the latest callback and closes on unmount', async () => {
    const server = sseResponse();
    let aborted = false;
    fetchMock.mockImplementation(async (_url, init) => {
      init?.signal?.addEventListener('abort', () => {
        aborted = true;
        server.close();
      });
      return server.response;
    });
    const first = vi.fn();
    const second = vi.fn();
    const { result, rerender, unmount } = renderHook(({ cb }) => useServerEvents(cb), {
      initialProps: { cb: first },
    });
    await waitFor(() => expect(result.current).toBe('open'));
    rerender({ cb: second });
    act(() => server.write(frame(1, 'client.bot_mode', { client_id: 2, mode_bot: 1 })));
    await waitFor(() => expect(second).toHaveBeenCalledTimes(1));
    expect(first).not.toHaveBeenCalled();
    expect(second.mock.calls[0][0]).toEqual({
      id: 1,
      type: 'client.bot_mode',
      data: { client_id: 2, mode_bot: 1 },
    });
    unmount();
    await waitFor(() => expect(aborted).toBe(true));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
