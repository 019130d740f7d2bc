import { z } from 'zod';
import { ZHexColor, ZLanguage, ZTimestamp, requiredText } from './common.schema';

export const ROLE_NAMES = ['super_admin', 'admin', 'client'] as const;
export type BuiltinRoleName = (typeof ROLE_NAMES)[number];

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const ZEmail = z.string().trim().toLowerCase().max(191).pipe(z.email());
export const ZPassword = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);

export const ZRoleSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  color: z.string(),
});
export type RoleSummary = z.infer<typeof ZRoleSummary>;

export const ZRole = ZRoleSummary.extend({
  usersCount: z.number().int(),
  builtin: z.boolean(),
  created_at: ZTimestamp,
});
export type Role = z.infer<typeof ZRole>;

export const ZSessionUser = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  company_id: z.number().int().nullable(),
  language: ZLanguage,
  roles: z.array(ZRoleSummary),
});
export type SessionUser = z.infer<typeof ZSessionUser>;

export const ZUser = ZSessionUser.extend({
  company_name: z.string().nullable(),
  created_at: ZTimestamp,
});
export type User = z.infer<typeof ZUser>;

export const ZCompany = z.object({ id: z.number().int(), name: z.string(), created_at: ZTimestamp });
export type Company = z.infer<typeof ZCompany>;

// --- auth ---

export const ZLoginRequest = z.object({
  email: z.string().trim().toLowerCase().min(1).max(191).pipe(z.email()),
  password: z.string().min(1).max(PASSWORD_MAX),
});
export type LoginRequest = z.infer<typeof ZLoginRequest>;

export const ZLoginResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  token: z.string(),
  user: ZSessionUser,
  language: ZLanguage,
});
export type LoginResponse = z.infer<typeof ZLoginResponse>;

export const ZRegisterRequest = z.object({
  name: requiredText(120),
  email: ZEmail,
  password: ZPassword,
});
export type RegisterRequest = z.infer<typeof ZRegisterRequest>;

export const ZLanguageSetRequest = z.object({ language: ZLanguage });
export type LanguageSetRequest = z.infer<typeof ZLanguageSetRequest>;

// --- super admin: users ---

const ZRoleIds = z.array(z.coerce.number().int().positive()).min(1).max(20);

export const ZCreateUserRequest = z.object({
  name: requiredText(120),
  email: ZEmail,
  password: ZPassword,
  roles: ZRoleIds,
  company_id: z.coerce.number().int().positive().nullish(),
  company_name: z.string().trim().max(120).nullish(),
});
export type CreateUserRequest = z.infer<typeof ZCreateUserRequest>;

export const ZUpdateUserRequest = ZCreateUserRequest.extend({
  password: ZPassword.nullish().or(z.literal('')),
});
export type UpdateUserRequest = z.infer<typeof ZUpdateUserRequest>;

export const ZUsersResponse = z.object({ data: z.array(ZUser) });
export const ZUserMutationResponse = z.object({ success: z.boolean(), message: z.string(), data: ZUser });
export const ZCompaniesResponse = z.object({ data: z.array(ZCompany) });

// --- super admin: roles ---

export const ZRoleRequest = z.object({
  name: requiredText(50),
  description: z.string().trim().max(255).nullish(),
  color: ZHexColor,
});
export type RoleRequest = z.infer<typeof ZRoleRequest>;

export const ZRolesResponse = z.object({ success: z.literal(true), data: z.array(ZRole) });
export const ZRoleMutationResponse = z.object({ success: z.boolean(), message: z.string(), data: ZRole });
