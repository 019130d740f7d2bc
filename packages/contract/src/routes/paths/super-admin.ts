import type { Endpoints, TypedEndpoints } from '../route';
import type { superAdminRoutes } from '../super-admin.routes';

export const superAdminPaths = {
  users: { method: 'GET', path: '/super-admin/users' },
  companies: { method: 'GET', path: '/super-admin/companies' },
  companiesOverview: { method: 'GET', path: '/super-admin/companies/overview' },
  createCompany: { method: 'POST', path: '/super-admin/companies' },
  renameCompany: { method: 'PUT', path: '/super-admin/companies/:id' },
  overview: { method: 'GET', path: '/super-admin/overview' },
  analytics: { method: 'GET', path: '/super-admin/analytics' },
  createUser: { method: 'POST', path: '/super-admin/create-user' },
  updateUser: { method: 'PUT', path: '/super-admin/update-user/:id' },
  deleteUsers: { method: 'DELETE', path: '/super-admin/delete-user' },
  roles: { method: 'GET', path: '/super-admin/roles' },
  createRole: { method: 'POST', path: '/super-admin/roles' },
  updateRole: { method: 'PUT', path: '/super-admin/roles/:id' },
  deleteRole: { method: 'DELETE', path: '/super-admin/roles/:id' },
  webhookDeliveries: { method: 'GET', path: '/super-admin/webhook-deliveries' },
  replayWebhookDelivery: { method: 'POST', path: '/super-admin/webhook-deliveries/:id/replay' },
} as const satisfies Endpoints;

/** The web's superAdmin calls: these paths at run time, typed by their declarations (types only). */
export const superAdminApi: TypedEndpoints<typeof superAdminRoutes> = superAdminPaths;
