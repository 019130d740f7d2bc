/** Accounts the e2e run creates (global-setup) and signs in with. */
export const E2E_PASSWORD = 'E2e-Secret-2026!';

export const E2E_USERS = {
  super_admin: { role: 'super_admin', name: 'Sofía Superadmin', email: 'superadmin@e2e.hablabot.test' },
  admin: { role: 'admin', name: 'Andrés Admin', email: 'admin@e2e.hablabot.test' },
  client: { role: 'client', name: 'Carla Cliente', email: 'client@e2e.hablabot.test' },
  // Used by tests that sign in through the form, so their sign-ins don't touch the shared tokens.
  adminForm: { role: 'admin', name: 'Ana Formulario', email: 'admin.form@e2e.hablabot.test' },
  clientForm: { role: 'client', name: 'Carlos Formulario', email: 'client.form@e2e.hablabot.test' },
  // The language test changes this account's saved language; nobody else uses it.
  adminLanguage: { role: 'admin', name: 'Lara Idiomas', email: 'admin.lang@e2e.hablabot.test' },
  // Signs out (revoking its token), so it has its own account.
  adminLogout: { role: 'admin', name: 'Luis Salida', email: 'admin.logout@e2e.hablabot.test' },
} as const;

export type E2ERole = keyof typeof E2E_USERS;
