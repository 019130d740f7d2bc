import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, getSession, setSession, subscribeSession } from './session';
import { resetSessionSyncForTests, SIGNED_IN_FLAG, startSessionSync } from './session-sync';

// Another tab of the same browser: a channel of the same name, as a second document would open it.
let otherTab: BroadcastChannel;
let received: unknown[];
let nextMessage: (() => void) | null;

const session = { token: 'tok-1', user: { id: 7, name: 'Ana', email: 'ana@example.test' }, rol: 'admin' };

function messageArrives(): Promise<void> {
  return new Promise((resolve) => {
    nextMessage = resolve;
  });
}

function sessionChanges(): Promise<void> {
  return new Promise((resolve) => {
    const stop = subscribeSession(() => {
      stop();
      resolve();
    });
  });
}

beforeEach(() => {
  received = [];
  nextMessage = null;
  otherTab = new BroadcastChannel('hablabot.session');
  otherTab.onmessage = (event) => {
    received.push(event.data);
    nextMessage?.();
  };
});

afterEach(() => {
  otherTab.close();
  resetSessionSyncForTests();
  clearSession();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('session hand-over between tabs', () => {
  it('a new tab takes the session a signed-in tab hands over', async () => {
    localStorage.setItem(SIGNED_IN_FLAG, '1');
    otherTab.onmessage = (event) => {
      const message = event.data as { type: string; id: string };
      if (message.type === 'ask') otherTab.postMessage({ type: 'share', id: message.id, session });
    };
    await startSessionSync();
    expect(getSession()).toEqual(session);
    expect(sessionStorage.getItem('token')).toBe('tok-1');
    expect(sessionStorage.getItem('rol')).toBe('admin');
  });

  it('asks on a page served over plain http, where crypto.randomUUID does not exist', async () => {
    vi.spyOn(crypto, 'randomUUID').mockImplementation(() => {
      throw new TypeError('crypto.randomUUID is not a function');
    });
    localStorage.setItem(SIGNED_IN_FLAG, '1');
    otherTab.onmessage = (event) => {
      const message = event.data as { type: string; id: string };
      if (message.type === 'ask') otherTab.postMessage({ type: 'share', id: message.id, session });
    };
    await startSessionSync();
    expect(getSession()).toEqual(session);
  });

  it('ignores an answer that is not a session, and carries on signed out when nobody answers', async () => {
    vi.useFakeTimers();
    localStorage.setItem(SIGNED_IN_FLAG, '1');
    otherTab.onmessage = (event) => {
      const message = event.data as { type: string; id: string };
      if (message.type === 'ask') {
        otherTab.postMessage({ type: 'share', id: message.id, session: { token: 42, rol: 'admin' } });
        otherTab.postMessage({ type: 'share', id: 'another-ask', session });
        nextMessage?.();
      }
    };
    const started = startSessionSync();
    await messageArrives();
    await vi.runAllTimersAsync();
    await started;
    expect(getSession()).toBeNull();
  });

  it('does not ask at all in a browser where no tab signed in', async () => {
    vi.useFakeTimers();
    // Resolves without a timer running, so without waiting for any answer.
    await startSessionSync();
    expect(vi.getTimerCount()).toBe(0);
    expect(received).toEqual([]);
  });

  it('a signed-in tab answers an ask with its session and raises the flag', async () => {
    setSession(session);
    await startSessionSync();
    const answered = messageArrives();
    otherTab.postMessage({ type: 'ask', id: 'ask-1' });
    await answered;
    expect(received).toEqual([{ type: 'share', id: 'ask-1', session }]);
  });

  it('a sign-out is announced to the other tabs and lowers the flag', async () => {
    await startSessionSync();
    setSession(session);
    expect(localStorage.getItem(SIGNED_IN_FLAG)).toBe('1');
    const announced = messageArrives();
    clearSession();
    await announced;
    expect(received).toEqual([{ type: 'end', token: 'tok-1' }]);
    expect(localStorage.getItem(SIGNED_IN_FLAG)).toBeNull();
  });

  it('ending the session in another tab ends it here when the token is the same', async () => {
    setSession(session);
    await startSessionSync();
    otherTab.postMessage({ type: 'end', token: 'someone-else' });
    const ended = sessionChanges();
    otherTab.postMessage({ type: 'end', token: 'tok-1' });
    await ended;
    expect(getSession()).toBeNull();
    expect(sessionStorage.getItem('token')).toBeNull();
    // This tab does not announce the end again.
    expect(received).toEqual([]);
  });
});
