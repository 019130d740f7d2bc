import { ZIdParams, ZIdsRequest, ZSuccessResponse } from '../common.schema';
import {
  ZCompaniesResponse,
  ZCreateUserRequest,
  ZRoleMutationResponse,
  ZRoleRequest,
  ZRolesResponse,
  ZUpdateUserRequest,
  ZUserMutationResponse,
  ZUsersResponse,
} from '../identity.schema';
import {
  ZAnalyticsQuery,
  ZAnalyticsResponse,
  ZCompaniesOverviewResponse,
  ZCompanyMutationResponse,
  ZCreateCompanyRequest,
  ZOverviewResponse,
  ZRenameCompanyRequest,
} from '../platform-stats.schema';
import {
  ZWebhookDeliveriesQuery,
  ZWebhookDeliveriesResponse,
  ZWebhookReplayResponse,
} from '../webhook-deliveries.schema';
import { superAdminPaths } from './paths';
import { declareRoutes, errorResponses as errors } from './route';

/** The platform's owner: users, companies, roles, the platform's figures and the failed webhooks. */
export const superAdminRoutes = /* @__PURE__ */ declareRoutes(superAdminPaths, {
  users: { responses: { 200: ZUsersResponse, ...errors } },
  companies: { responses: { 200: ZCompaniesResponse, ...errors } },
  companiesOverview: { responses: { 200: ZCompaniesOverviewResponse, ...errors } },
  createCompany: { body: ZCreateCompanyRequest, responses: { 201: ZCompanyMutationResponse, ...errors } },
  renameCompany: {
    params: ZIdParams,
    body: ZRenameCompanyRequest,
    responses: { 200: ZCompanyMutationResponse, ...errors },
  },
  overview: { responses: { 200: ZOverviewResponse, ...errors } },
  analytics: { query: ZAnalyticsQuery, responses: { 200: ZAnalyticsResponse, ...errors } },
  createUser: { body: ZCreateUserRequest, responses: { 201: ZUserMutationResponse, ...errors } },
  updateUser: {
    params: ZIdParams,
    body: ZUpdateUserRequest,
    responses: { 200: ZUserMutationResponse, ...errors },
  },
  deleteUsers: { body: ZIdsRequest, responses: { 200: ZSuccessResponse, ...errors } },
  roles: { responses: { 200: ZRolesResponse, ...errors } },
  createRole: { body: ZRoleRequest, responses: { 201: ZRoleMutationResponse, ...errors } },
  updateRole: { params: ZIdParams, body: ZRoleRequest, responses: { 200: ZRoleMutationResponse, ...errors } },
  deleteRole: { params: ZIdParams, responses: { 200: ZSuccessResponse, ...errors } },
  webhookDeliveries: {
    query: ZWebhookDeliveriesQuery,
    responses: { 200: ZWebhookDeliveriesResponse, ...errors },
  },
  replayWebhookDelivery: { params: ZIdParams, responses: { 200: ZWebhookReplayResponse, ...errors } },
});
