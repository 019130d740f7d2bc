// The team inbox in the scale run (bench/scale.ts), on its first company (5,000 conversations of the
// 50,000 clients, 10 agents: see SCALE_AGENTS in apps/server/test/scale-seed.ts):
//
// - GET /admin/conversations per view, with and without a search, for the admin (4 views) and an agent
//   (their 2): p95 < 20 ms, one request at a time;
// - 50 event streams open at once (the admin's 10, the most a user may hold, and 4 of each agent): an
//   internal note in agent 0's conversation reaches exactly the admin's and agent 0's streams, a note in an
//   unassigned one reaches all 50. Not timed: a check that fails the run. Events of a company reach a
//   stream in order, so once the unassigned note is in every stream, a stream without the first never
//   gets it.
import type { ScaleSeed } from '../../apps/server/test/scale-seed';
import type { Stats } from '../lib';

interface InboxDeps {
  url: string;
  seed: ScaleSeed;
  get: (path: string, token: string) => Promise<Record<string, unknown>>;
  send: (method: string, path: string, token: string, body: unknown) => Promise<{ data: { id: number } }>;
  one: (n: number, fn: (i: number) => Promise<unknown>) => Promise<Stats>;
  keep: (name: string, s: Stats, p95Ms: number) => void;
  /** A check that is not a timing: its line in the results table. */
  check: (name: string, figure: string, met: boolean) => void;
}

type Page = { data: { id: number }[]; pagination: { total: number } };

export async function inboxAtScale(deps: InboxDeps): Promise<void> {
  const { seed, get, one, keep } = deps;
  const admin = seed.companies[0]!.adminToken;
  const agent = seed.agents[0]!;
  // 'cliente 0-12' matches the clients 0-12, 0-120…0-129, 0-1200…0-1299: a few in each view.
  const searches = [
    ['', 'no search'],
    ['&search=cliente%200-12', "search 'cliente 0-12'"],
  ] as const;
  const cases = [
    ['admin', admin, ['mine', 'unassigned', 'all', 'resolved']],
    ['agent', agent.token, ['mine', 'unassigned']],
  ] as const;
  for (const [who, token, views] of cases) {
    for (const view of views) {
      for (const [search, label] of searches) {
        const path = `/admin/conversations?view=${view}${search}`;
        for (let i = 0; i < 3; i++) await get(path, token);
        const total = ((await get(path, token)) as unknown as Page).pagination.total;
        keep(
          `conversations, ${who} '${view}', ${label} (${total} in view)`,
          await one(100, () => get(path, token)),
          20,
        );
      }
    }
  }
  await streamsCheck(deps);
}

/** One open stream: its reader's label and everything it has received so far. */
interface Stream {
  who: string;
  text: string;
  opened: Promise<void>;
}

async function streamsCheck(deps: InboxDeps): Promise<void> {
  const { url, seed, get, send, check } = deps;
  const admin = seed.companies[0]!.adminToken;
  const abort = new AbortController();
  const open = (who: string, token: string): Stream => {
    const stream: Stream = { who, text: '', opened: Promise.resolve() };
    stream.opened = (async () => {
      const res = await fetch(`${url}/api/v1/admin/events`, {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        signal: abort.signal,
      });
      if (res.status !== 200) throw new Error(`stream of ${who}: ${res.status}`);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let first: () => void = () => {};
      const connected = new Promise<void>((resolve) => {
        first = resolve;
      });
      void (async () => {
        for (;;) {
          const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (chunk.done) return;
          stream.text += decoder.decode(chunk.value, { stream: true });
          if (stream.text.includes(': connected')) first();
        }
      })();
      await connected;
    })();
    return stream;
  };
  const streams: Stream[] = [];
  for (let i = 0; i < 10; i++) streams.push(open('admin', admin));
  for (const [a, { token }] of seed.agents.entries())
    for (let i = 0; i < 4; i++) streams.push(open(`agent ${a}`, token));
  try {
    await Promise.all(streams.map((s) => s.opened));
    const first = <T>(page: Record<string, unknown>) => (page as unknown as { data: T[] }).data[0]!;
    const ofAgent = first<{ id: number }>(await get('/admin/conversations?view=mine', seed.agents[0]!.token));
    const unassigned = first<{ id: number }>(await get('/admin/conversations?view=unassigned', admin));
    const privateNote = `nota-privada-${Date.now()}`;
    const teamNote = `nota-de-todos-${Date.now()}`;
    await send('POST', `/admin/conversations/${ofAgent.id}/notes`, admin, { text: privateNote });
    await send('POST', `/admin/conversations/${unassigned.id}/notes`, admin, { text: teamNote });
    const started = performance.now();
    while (!streams.every((s) => s.text.includes(teamNote))) {
      if (performance.now() - started > 30_000)
        throw new Error('the unassigned note did not reach every stream');
      await new Promise((r) => setTimeout(r, 20));
    }
    const reached = streams.filter((s) => s.text.includes(privateNote)).map((s) => s.who);
    const expected = streams.filter((s) => s.who === 'admin' || s.who === 'agent 0').map((s) => s.who);
    const met = JSON.stringify(reached) === JSON.stringify(expected);
    const figure = `agent 0's note reached ${reached.length} of 50 streams (${[...new Set(reached)].join(', ')}); the unassigned one all 50`;
    console.log(`50 streams open: ${figure}`);
    check('50 event streams (admin 10, 4 per agent): who gets an event', figure, met);
  } finally {
    abort.abort();
  }
}
