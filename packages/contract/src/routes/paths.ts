// Every route of /api/v1 by area: method and path (Fastify's syntax, `:name` for a path parameter), one
// module per area. No zod there: the web imports an area's strings alone (`<area>Api`, the same object typed
// by the area's declarations, types only), so a screen's bundle carries only the paths of the areas it
// calls. What each route takes and answers is declared in <area>.routes.ts.
export * from './paths/clients';
export * from './paths/segments';
export * from './paths/settings';
export * from './paths/admin-home';
export * from './paths/bots';
export * from './paths/auth';
export * from './paths/super-admin';
export * from './paths/mass-messages';
export * from './paths/media';
export * from './paths/messages';
export * from './paths/templates';
export * from './paths/stream';
export * from './paths/wordpress';
export * from './paths/inbox';
export * from './paths/business-hours';
