import type { Endpoints } from '../route';

/** The WordPress inbound API (a WordPress site's plugin calls it with the company's key and secret). */
export const wordpressPaths = {
  ping: { method: 'GET', path: '/integrations/wordpress/ping' },
  upsertClient: { method: 'POST', path: '/integrations/wordpress/clients' },
} as const satisfies Endpoints;
