/** Texts of the inbox's conversations (views, assignment, status, notes), in both interface languages. */
export const conversationsTexts = {
  es: {
    'conversations.not_found': 'La conversación no existe.',
    'conversations.agent_assign_forbidden':
      'Solo puedes tomar una conversación sin asignar o soltar una tuya.',
    'conversations.assignee_not_member': 'El usuario no es administrador ni agente de tu empresa.',
  },
  en: {
    'conversations.not_found': 'The conversation does not exist.',
    'conversations.agent_assign_forbidden':
      'You can only take an unassigned conversation or give back one of yours.',
    'conversations.assignee_not_member': 'The user is not an admin or agent of your company.',
  },
} as const;
