import {
  DEFAULT_INBOX_SETTINGS,
  type InboxSettings,
  type QuickReply,
  type TeamMember,
} from '@hablabot/contract';
import { jsonResponse, mockFetch } from '../../test';

export function makeMember(overrides: Partial<TeamMember> = {}): TeamMember {
  return {
    id: 1,
    name: 'Ana Admin',
    email: 'ana@example.com',
    role: 'admin',
    open_conversations: 0,
    online: false,
    created_at: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

export function makeQuickReply(overrides: Partial<QuickReply> = {}): QuickReply {
  return {
    id: 1,
    shortcut: 'hola',
    text: '¡Hola! ¿En qué te puedo ayudar?',
    media_id: null,
    media: null,
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

export const ana = makeMember();
export const beto = makeMember({
  id: 2,
  name: 'Beto Agente',
  email: 'beto@example.com',
  role: 'agent',
  open_conversations: 7,
  online: true,
});
export const carla = makeMember({ id: 3, name: 'Carla Agente', email: 'carla@example.com', role: 'agent' });

export const SETTINGS: InboxSettings = {
  ...DEFAULT_INBOX_SETTINGS,
  agents_see_all: false,
  auto_assign: false,
  agent_capacity: 20,
};

/** The team screen's routes, answering the way the server does; a test changes one with `set`. */
export function teamRoutes(
  members: TeamMember[] = [ana, beto, carla],
  replies: QuickReply[] = [makeQuickReply()],
) {
  return mockFetch({
    'GET /api/v1/admin/team': [200, { data: members }],
    'POST /api/v1/admin/team': [201, { message: 'Miembro creado con éxito.', data: carla }],
    'PUT /api/v1/admin/team/2': [200, { message: 'Miembro actualizado con éxito.', data: beto }],
    'DELETE /api/v1/admin/team/3': [200, { message: 'Miembro eliminado con éxito.' }],
    'GET /api/v1/admin/inbox-settings': [200, { data: SETTINGS }],
    'PUT /api/v1/admin/inbox-settings': (call) => {
      const body = call.body as Partial<InboxSettings>;
      return jsonResponse(200, { message: 'Configuración guardada.', data: { ...SETTINGS, ...body } });
    },
    'GET /api/v1/admin/quick-replies': [200, { data: replies }],
    'POST /api/v1/admin/quick-replies': [
      201,
      { message: 'Respuesta rápida creada.', data: makeQuickReply({ id: 9 }) },
    ],
    'PUT /api/v1/admin/quick-replies/1': [
      200,
      { message: 'Respuesta rápida actualizada.', data: makeQuickReply() },
    ],
    'DELETE /api/v1/admin/quick-replies/1': [200, { message: 'Respuesta rápida eliminada.' }],
  });
}
