import { clearSession, getSession, type Session, setSession, subscribeSession } from './session';

/**
 * The session lives in each tab's session storage (SPEC's keys token, user and rol), so a link opened in a
 * new tab would start signed out. The tabs of one browser talk over a BroadcastChannel, which only reaches
 * documents of the same origin (and storage partition): a new tab without a session asks, a signed-in tab
 * answers with its session, and ending a session (sign-out, a 401, a role without an area) ends it in every
 * tab that holds the same token. Nothing goes to another origin, and nothing is kept in local storage but
 * a flag saying that some tab was signed in, so a visitor who never signed in does not wait for an answer.
 */

const CHANNEL_NAME = 'hablabot.session';
/** Set while a tab of this browser holds a session; holds no secret. */
export const SIGNED_IN_FLAG = 'hablabot.signedIn';
/** How long a new tab waits for a signed-in tab to answer before it carries on signed out. */
export const ASK_TIMEOUT_MS = 400;

type SessionMessage =
  | { type: 'ask'; id: string }
  | { type: 'share'; id: string; session: Session }
  | { type: 'end'; token: string };

let channel: BroadcastChannel | null = null;
let started = false;
let lastToken: string | null = null;
/** Set while a session is being ended because another tab asked: that end is not announced again. */
let endingFromAnotherTab = false;

function openChannel(): BroadcastChannel | null {
  if (channel) return channel;
  if (typeof BroadcastChannel === 'undefined') return null;
  try {
    channel = new BroadcastChannel(CHANNEL_NAME);
  } catch {
    return null;
  }
  return channel;
}

function local(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

function isSession(value: unknown): value is Session {
  if (!value || typeof value !== 'object') return false;
  const session = value as Partial<Session>;
  return (
    typeof session.token === 'string' &&
    session.token !== '' &&
    (session.rol === null || typeof session.rol === 'string') &&
    (session.user === null || typeof session.user === 'object')
  );
}

function onMessage(event: MessageEvent<unknown>): void {
  const message = event.data as Partial<SessionMessage> | null;
  if (!message || typeof message !== 'object') return;
  const mine = getSession();
  if (message.type === 'ask' && typeof message.id === 'string' && mine) {
    openChannel()?.postMessage({ type: 'share', id: message.id, session: mine } satisfies SessionMessage);
  } else if (message.type === 'end' && mine && message.token === mine.token) {
    endingFromAnotherTab = true;
    try {
      clearSession();
    } finally {
      endingFromAnotherTab = false;
    }
  }
}

/**
 * Watches this tab's session: a new one raises the signed-in flag, an ended one is announced to the other
 * tabs (they drop it if they hold the same token) and, when this tab ended it itself, lowers the flag.
 */
function watchSession(): void {
  lastToken = getSession()?.token ?? null;
  subscribeSession(() => {
    const token = getSession()?.token ?? null;
    if (token === lastToken) return;
    const ended = lastToken;
    lastToken = token;
    if (token) {
      local()?.setItem(SIGNED_IN_FLAG, '1');
    } else if (ended && !endingFromAnotherTab) {
      local()?.removeItem(SIGNED_IN_FLAG);
      openChannel()?.postMessage({ type: 'end', token: ended } satisfies SessionMessage);
    }
  });
}

/**
 * Starts the hand-over once, at start-up. A tab without a session, in a browser where a tab said it is
 * signed in, asks the other tabs and resolves when one answers (its session is stored here) or after
 * ASK_TIMEOUT_MS; otherwise it resolves at once.
 */
export function startSessionSync(): Promise<void> {
  if (started) return Promise.resolve();
  started = true;
  const bus = openChannel();
  watchSession();
  if (!bus) return Promise.resolve();
  bus.addEventListener('message', onMessage);
  if (getSession()) {
    local()?.setItem(SIGNED_IN_FLAG, '1');
    return Promise.resolve();
  }
  if (local()?.getItem(SIGNED_IN_FLAG) !== '1') return Promise.resolve();

  // Only pairs an answer with this ask (no secret): crypto.randomUUID exists in secure contexts only
  // (https or localhost), and the app may be served over plain http.
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      bus.removeEventListener('message', onShare);
      resolve();
    };
    const onShare = (event: MessageEvent<unknown>) => {
      const message = event.data as Partial<SessionMessage> | null;
      if (message?.type !== 'share' || message.id !== id || !isSession(message.session)) return;
      if (!getSession()) setSession(message.session);
      done();
    };
    const timer = setTimeout(done, ASK_TIMEOUT_MS);
    bus.addEventListener('message', onShare);
    bus.postMessage({ type: 'ask', id } satisfies SessionMessage);
  });
}

/** For tests: forget the channel and listeners so the next start begins afresh. */
export function resetSessionSyncForTests(): void {
  channel?.close();
  channel = null;
  started = false;
  lastToken = null;
  local()?.removeItem(SIGNED_IN_FLAG);
}
