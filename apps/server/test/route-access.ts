// Who may call each route of the API, written once: the authorization matrix walks it, and the hostile
// bodies test sends each write route's bodies as a caller the route lets in.
/**
 * Who may call a route:
 * - public: anyone, signed in or not;
 * - signed-in: any signed-in user;
 * - admin: a company's admin, for that company's data only;
 * - super: the super administrator only;
 * - own-key: a caller with a credential of its own (the WhatsApp signature, the WordPress key, the
 *   metrics token), not a user's session.
 */
export type Access = 'public' | 'signed-in' | 'admin' | 'super' | 'own-key';

/** Which of company A's resources a path parameter or bulk body names. */
export type Resource =
  | 'client'
  | 'segment'
  | 'bot'
  | 'instruction'
  | 'media'
  | 'message'
  | 'user'
  | 'role'
  | 'list'
  | 'mass';

export interface RouteRule {
  access: Access;
  /** The resource every `:param` of the path stands for. */
  param?: Resource;
  /** A body naming A's resources (bulk deletes), instead of `{}`. */
  body?: (a: Fixtures) => unknown;
  /** Answers with a stream that stays open: only its refusals are checked. */
  stream?: true;
}

export interface Fixtures {
  client: number;
  segment: number;
  bot: number;
  instruction: number;
  media: number;
  message: number;
  user: number;
  role: number;
  list: number;
  mass: number;
}

export const ROUTES: Record<string, RouteRule> = {
  'GET /sanctum/csrf-cookie': { access: 'public' },
  'GET /storage/*': { access: 'public' },
  'GET /api/v1/sanctum/csrf-cookie': { access: 'public' },
  'GET /api/v1/health': { access: 'public' },
  'GET /api/v1/docs': { access: 'public' },
  'GET /api/v1/metrics': { access: 'own-key' },
  'POST /api/v1/auth/login': { access: 'public' },
  'POST /api/v1/auth/register': { access: 'public' },
  'POST /api/v1/auth/logout': { access: 'signed-in' },
  // Signed in, it is saved to the user; signed out, the answer only confirms the choice.
  'POST /api/v1/language/set': { access: 'public' },
  'GET /api/v1/super-admin/users': { access: 'super' },
  'GET /api/v1/super-admin/companies': { access: 'super' },
  'POST /api/v1/super-admin/companies': { access: 'super' },
  'POST /api/v1/super-admin/create-user': { access: 'super' },
  'PUT /api/v1/super-admin/update-user/:id': { access: 'super', param: 'user' },
  'DELETE /api/v1/super-admin/delete-user': { access: 'super', body: (a) => ({ ids: [a.user] }) },
  'GET /api/v1/super-admin/roles': { access: 'super' },
  'POST /api/v1/super-admin/roles': { access: 'super' },
  'PUT /api/v1/super-admin/roles/:id': { access: 'super', param: 'role' },
  'DELETE /api/v1/super-admin/roles/:id': { access: 'super', param: 'role' },
  'GET /api/v1/admin/client': { access: 'admin' },
  'GET /api/v1/admin/client/messages-summary': { access: 'admin' },
  'GET /api/v1/admin/home-summary': { access: 'admin' },
  'GET /api/v1/admin/client/:id': { access: 'admin', param: 'client' },
  'POST /api/v1/admin/client': { access: 'admin' },
  'PUT /api/v1/admin/client/:id': { access: 'admin', param: 'client' },
  'DELETE /api/v1/admin/client': { access: 'admin', body: (a) => ({ ids: [a.client] }) },
  'POST /api/v1/admin/client/:id/toggle-bot-mode': { access: 'admin', param: 'client' },
  'POST /api/v1/import/clients': { access: 'admin' },
  'GET /api/v1/admin/segment': { access: 'admin' },
  'POST /api/v1/admin/segment': { access: 'admin' },
  'PUT /api/v1/admin/segment/:id': { access: 'admin', param: 'segment' },
  'DELETE /api/v1/admin/segment/:id': { access: 'admin', param: 'segment' },
  'GET /api/v1/admin/setting': { access: 'admin' },
  'POST /api/v1/admin/setting': { access: 'admin' },
  'POST /api/v1/admin/setting/generate': { access: 'admin' },
  'POST /api/v1/admin/setting/test/whatsapp': { access: 'admin' },
  'POST /api/v1/admin/setting/test/openai': { access: 'admin' },
  'GET /api/v1/integrations/wordpress/ping': { access: 'own-key' },
  'POST /api/v1/integrations/wordpress/clients': { access: 'own-key' },
  'GET /api/v1/admin/bot': { access: 'admin' },
  'POST /api/v1/admin/bot': { access: 'admin' },
  'PUT /api/v1/admin/bot/:id': { access: 'admin', param: 'bot' },
  'DELETE /api/v1/admin/bot/:id': { access: 'admin', param: 'bot' },
  'POST /api/v1/admin/bot/:id/toggle-bot-state': { access: 'admin', param: 'bot' },
  'POST /api/v1/admin/bot/:id/test': { access: 'admin', param: 'bot' },
  'GET /api/v1/admin/instructions/:botId': { access: 'admin', param: 'bot' },
  'POST /api/v1/admin/instruction': { access: 'admin' },
  'PUT /api/v1/admin/instruction/:id': { access: 'admin', param: 'instruction' },
  'DELETE /api/v1/admin/instruction': { access: 'admin', body: (a) => ({ ids: [a.instruction] }) },
  'POST /api/v1/media/upload': { access: 'admin' },
  'POST /api/v1/admin/media/upload': { access: 'admin' },
  'GET /api/v1/admin/media/user': { access: 'admin' },
  'DELETE /api/v1/admin/media/:id': { access: 'admin', param: 'media' },
  'GET /api/v1/admin/events': { access: 'admin', stream: true },
  'GET /api/v1/webhooks/whatsapp': { access: 'own-key' },
  'POST /api/v1/webhooks/whatsapp': { access: 'own-key' },
  'GET /api/v1/admin/client/:id/messages': { access: 'admin', param: 'client' },
  'GET /api/v1/admin/messages/:id': { access: 'admin', param: 'message' },
  'PATCH /api/v1/admin/messages/:clientId/mark-as-read': { access: 'admin', param: 'client' },
  // A message not scheduled answers 409 to whoever may see it.
  'PUT /api/v1/admin/messages/:id': { access: 'admin', param: 'message', body: () => ({ content: 'x' }) },
  'DELETE /api/v1/admin/messages/:id': { access: 'admin', param: 'message' },
  'POST /api/v1/admin/message': { access: 'admin', body: (a) => ({ client_id: a.client, content: 'x' }) },
  'GET /api/v1/templates': { access: 'admin' },
  'GET /api/v1/templates/sync': { access: 'admin' },
  'POST /api/v1/templates': { access: 'admin' },
  'DELETE /api/v1/templates/:id': { access: 'admin' },
  'POST /api/v1/admin/messages/send-template-message': { access: 'admin' },
  'GET /api/v1/admin/files/:id': { access: 'admin', param: 'message' },
  'POST /api/v1/admin/messages/:id/media/retry': { access: 'admin', param: 'message' },
  'GET /api/v1/super-admin/analytics': { access: 'super' },
  'GET /api/v1/super-admin/companies/overview': { access: 'super' },
  'GET /api/v1/super-admin/overview': { access: 'super' },
  'PUT /api/v1/super-admin/companies/:id': { access: 'super' },
  'GET /api/v1/super-admin/webhook-deliveries': { access: 'super' },
  'POST /api/v1/super-admin/webhook-deliveries/:id/replay': { access: 'super' },
  'PUT /api/v1/account': { access: 'signed-in' },
  'GET /api/v1/admin/list-clients': { access: 'admin' },
  'POST /api/v1/admin/list-clients': { access: 'admin' },
  'PUT /api/v1/admin/list-clients/:id': { access: 'admin', param: 'list' },
  'DELETE /api/v1/admin/list-clients/:id': { access: 'admin', param: 'list' },
  'GET /api/v1/admin/list-clients/:id/clients': { access: 'admin', param: 'list' },
  'GET /api/v1/admin/mass-message-history': { access: 'admin' },
  'GET /api/v1/admin/mass-message-settings': { access: 'admin' },
  'PUT /api/v1/admin/mass-message-settings': { access: 'admin' },
  'GET /api/v1/admin/mass-message-limits': { access: 'admin' },
  'POST /api/v1/admin/messages-massive': { access: 'admin', body: (a) => ({ list_id: a.list }) },
  'POST /api/v1/admin/messages-massive/preview': { access: 'admin', body: (a) => ({ list_id: a.list }) },
  'GET /api/v1/admin/messages-massive/:id': { access: 'admin', param: 'mass' },
  'GET /api/v1/admin/messages-massive/:id/recipients': { access: 'admin', param: 'mass' },
  'GET /api/v1/admin/messages-massive/:id/recipients/export': { access: 'admin', param: 'mass' },
  'POST /api/v1/admin/messages-massive/:id/pause': { access: 'admin', param: 'mass' },
  'POST /api/v1/admin/messages-massive/:id/resume': { access: 'admin', param: 'mass' },
  'POST /api/v1/admin/messages-massive/:id/cancel': { access: 'admin', param: 'mass' },
  'POST /api/v1/admin/messages-massive/:id/resend': { access: 'admin', param: 'mass' },
  'GET /api/v1/admin/team': { access: 'admin' },
  'POST /api/v1/admin/team': { access: 'admin' },
  'PUT /api/v1/admin/team/:id': { access: 'admin', param: 'user' },
  'DELETE /api/v1/admin/team/:id': { access: 'admin', param: 'user' },
  'GET /api/v1/admin/inbox-settings': { access: 'admin' },
  'PUT /api/v1/admin/inbox-settings': { access: 'admin' },
  'GET /api/v1/admin/business-hours': { access: 'admin' },
  'PUT /api/v1/admin/business-hours': { access: 'admin' },
  'GET /api/v1/admin/quick-replies': { access: 'admin' },
  'POST /api/v1/admin/quick-replies': { access: 'admin' },
  'PUT /api/v1/admin/quick-replies/:id': { access: 'admin' },
  'DELETE /api/v1/admin/quick-replies/:id': { access: 'admin' },
  // Admins and agents of the company (agents: conversations/*.test.ts); :id is a conversation (404 when
  // not the caller's company's).
  'GET /api/v1/admin/conversations': { access: 'admin' },
  'POST /api/v1/admin/conversations/:id/assign': { access: 'admin' },
  'POST /api/v1/admin/conversations/:id/resolve': { access: 'admin' },
  'POST /api/v1/admin/conversations/:id/reopen': { access: 'admin' },
  'POST /api/v1/admin/conversations/:id/notes': { access: 'admin' },
};
