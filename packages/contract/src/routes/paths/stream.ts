import type { Endpoints } from '../route';

/**
 * The live events (server-sent events). Not a JSON call: the web reads the stream with fetch
 * (lib/event-stream.ts) and the server registers it by hand (platform/events); the path is the contract's.
 */
export const streamPaths = {
  events: { method: 'GET', path: '/admin/events' },
} as const satisfies Endpoints;
