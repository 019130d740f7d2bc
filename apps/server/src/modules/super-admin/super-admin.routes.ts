import {
  ZAnalyticsQuery,
  ZAnalyticsResponse,
  ZCompaniesOverviewResponse,
  ZCompaniesResponse,
  ZCompanyMutationResponse,
  ZCreateCompanyRequest,
  ZOverviewResponse,
  ZRenameCompanyRequest,
  ZCreateUserRequest,
  ZIdParams,
  ZIdsRequest,
  ZRoleMutationResponse,
  ZRoleRequest,
  ZRolesResponse,
  ZSuccessResponse,
  ZUpdateUserRequest,
  ZUserMutationResponse,
  ZUsersResponse,
} from '@hablabot/contract';
import type { FastifyInstance } from 'fastify';
import type { Guards } from '../../platform/auth';
import { errorResponses, typed } from '../../platform/http';
import { translate } from '../../platform/locale';
import type { PlatformStatsService } from './platform-stats.service';
import type { SuperAdminService } from './super-admin.service';

const errors = errorResponses;

export function superAdminRoutes(deps: {
  superAdmin: SuperAdminService;
  platformStats: PlatformStatsService;
  guards: Guards;
}) {
  const { superAdmin, platformStats, guards } = deps;
  return async (instance: FastifyInstance) => {
    const app = typed(instance);
    app.addHook('onRequest', guards.requireRole('super_admin'));
    const tags = ['super-admin'];

    app.get(
      '/super-admin/users',
      { schema: { tags, response: { 200: ZUsersResponse, ...errors } } },
      async () => ({
        data: await superAdmin.listUsers(),
      }),
    );

    app.get(
      '/super-admin/companies',
      { schema: { tags, response: { 200: ZCompaniesResponse, ...errors } } },
      async () => ({
        data: await superAdmin.listCompanies(),
      }),
    );

    app.get(
      '/super-admin/companies/overview',
      { schema: { tags, response: { 200: ZCompaniesOverviewResponse, ...errors } } },
      async () => ({ data: await platformStats.companiesOverview() }),
    );

    app.post(
      '/super-admin/companies',
      {
        schema: { tags, body: ZCreateCompanyRequest, response: { 201: ZCompanyMutationResponse, ...errors } },
      },
      async (request, reply) => {
        const data = await superAdmin.createCompany(request.body.name);
        return reply
          .status(201)
          .send({ success: true, message: translate(request.lang, 'companies.created'), data });
      },
    );

    app.put(
      '/super-admin/companies/:id',
      {
        schema: {
          tags,
          params: ZIdParams,
          body: ZRenameCompanyRequest,
          response: { 200: ZCompanyMutationResponse, ...errors },
        },
      },
      async (request) => {
        const data = await superAdmin.renameCompany(request.params.id, request.body.name);
        return { success: true, message: translate(request.lang, 'companies.renamed'), data };
      },
    );

    app.get(
      '/super-admin/overview',
      { schema: { tags, response: { 200: ZOverviewResponse, ...errors } } },
      async () => ({ data: await platformStats.overview() }),
    );

    app.get(
      '/super-admin/analytics',
      { schema: { tags, querystring: ZAnalyticsQuery, response: { 200: ZAnalyticsResponse, ...errors } } },
      async (request) => ({ data: await platformStats.messagesPerDay(request.query.company_id) }),
    );

    app.post(
      '/super-admin/create-user',
      { schema: { tags, body: ZCreateUserRequest, response: { 201: ZUserMutationResponse, ...errors } } },
      async (request, reply) => {
        const data = await superAdmin.createUser(request.body);
        return reply
          .status(201)
          .send({ success: true, message: translate(request.lang, 'users.created'), data });
      },
    );

    app.put(
      '/super-admin/update-user/:id',
      {
        schema: {
          tags,
          params: ZIdParams,
          body: ZUpdateUserRequest,
          response: { 200: ZUserMutationResponse, ...errors },
        },
      },
      async (request) => {
        const data = await superAdmin.updateUser(request.params.id, request.body);
        return { success: true, message: translate(request.lang, 'users.updated'), data };
      },
    );

    app.delete(
      '/super-admin/delete-user',
      { schema: { tags, body: ZIdsRequest, response: { 200: ZSuccessResponse, ...errors } } },
      async (request) => {
        await superAdmin.deleteUsers(request.body.ids, request.auth!.user.id);
        return { success: true, message: translate(request.lang, 'users.deleted') };
      },
    );

    app.get(
      '/super-admin/roles',
      { schema: { tags, response: { 200: ZRolesResponse, ...errors } } },
      async () => ({
        success: true as const,
        data: await superAdmin.listRoles(),
      }),
    );

    app.post(
      '/super-admin/roles',
      { schema: { tags, body: ZRoleRequest, response: { 201: ZRoleMutationResponse, ...errors } } },
      async (request, reply) => {
        const data = await superAdmin.createRole(request.body);
        return reply
          .status(201)
          .send({ success: true, message: translate(request.lang, 'roles.created'), data });
      },
    );

    app.put(
      '/super-admin/roles/:id',
      {
        schema: {
          tags,
          params: ZIdParams,
          body: ZRoleRequest,
          response: { 200: ZRoleMutationResponse, ...errors },
        },
      },
      async (request) => {
        const data = await superAdmin.updateRole(request.params.id, request.body);
        return { success: true, message: translate(request.lang, 'roles.updated'), data };
      },
    );

    app.delete(
      '/super-admin/roles/:id',
      { schema: { tags, params: ZIdParams, response: { 200: ZSuccessResponse, ...errors } } },
      async (request) => {
        await superAdmin.deleteRole(request.params.id);
        return { success: true, message: translate(request.lang, 'roles.deleted') };
      },
    );
  };
}
