import { z } from 'zod';
import { COMMON_PASSWORDS } from './common-passwords';
import { PASSWORD_MAX, PASSWORD_MIN } from './constants';
import {
  ZHexColor,
  ZLanguage,
  type ZSuccessResponse,
  ZTimestamp,
  requiredText,
  zId,
  zIdList,
  zText,
} from './common.schema';

export const ZEmail = z.string().trim().toLowerCase().max(191).pipe(z.email());

/** A password as the rules compare it: lower case, letters and digits only. */
const foldPassword = (p: string) =>
  p
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
/** Built on first use, so a bundle that never checks a password does not carry the list. */
let common: Set<string> | undefined;
function isCommon(folded: string): boolean {
  if (!common) common = new Set(COMMON_PASSWORDS.map(foldPassword));
  return common.has(folded);
}
const RUNS = [
  '01234567890123456789',
  'abcdefghijklmnopqrstuvwxyz',
  'qwertyuiopasdfghjklzxcvbnm',
  'qwertzuiopasdfghjklyxcvbnm',
  'azertyuiopqsdfghjklmwxcvbn',
  '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p',
];

/**
 * Why a password is refused, as a message key, or undefined when it is acceptable. The rules: at least
 * PASSWORD_MIN characters; not only spaces; not one of the common passwords; not one character or a
 * short pattern repeated (fewer than 4 different characters); not a run of the alphabet, the digits or
 * a keyboard row; and — when the account is known — not little more than its email's name or its name.
 */
export function passwordProblem(
  password: string,
  account: { email?: string | null; name?: string | null } = {},
): string | undefined {
  if (password.trim() === '') return 'validation.required';
  if (password.length < PASSWORD_MIN) return 'validation.password_min';
  if (password.length > PASSWORD_MAX) return 'validation.password_max';
  const folded = foldPassword(password);
  if (folded.length < 4 || new Set(folded).size < 4 || isCommon(folded)) return 'validation.password_weak';
  if (RUNS.some((run) => run.includes(folded) || [...run].reverse().join('').includes(folded)))
    return 'validation.password_weak';
  const personal = [account.email?.split('@')[0], account.name]
    .map((w) => (w ? foldPassword(w) : ''))
    .filter((w) => w.length >= 3);
  for (const word of personal) {
    if (folded.includes(word) && folded.replace(word, '').length < 6) return 'validation.password_personal';
  }
  return undefined;
}

/** A new password, checked without the account (the account checks come with `withPasswordRules`). */
export const ZPassword = z
  .string()
  .max(PASSWORD_MAX)
  .superRefine((password, ctx) => {
    const problem = passwordProblem(password);
    if (problem)
      ctx.addIssue({ code: 'custom', message: problem, params: { min: PASSWORD_MIN, max: PASSWORD_MAX } });
  });

/** Adds the personal-password rule (not the account's email or name) to a form with a password. */
export function withPasswordRules<
  T extends z.ZodType<{ password?: string | null; email: string; name: string }>,
>(schema: T) {
  return schema.superRefine((value, ctx) => {
    if (!value.password || passwordProblem(value.password)) return; // already reported by ZPassword
    const problem = passwordProblem(value.password, value);
    if (problem)
      ctx.addIssue({
        code: 'custom',
        path: ['password'],
        message: problem,
        params: { min: PASSWORD_MIN, max: PASSWORD_MAX },
      });
  });
}

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

export const ZRegisterRequest = withPasswordRules(
  z.object({
    name: requiredText(120),
    email: ZEmail,
    password: ZPassword,
  }),
);
export type RegisterRequest = z.infer<typeof ZRegisterRequest>;

export const ZLanguageSetRequest = z.object({ language: ZLanguage });
export type LanguageSetRequest = z.infer<typeof ZLanguageSetRequest>;

// --- super admin: users ---

const ZRoleIds = zIdList({ min: 1, max: 20 });

const userShape = {
  name: requiredText(120),
  email: ZEmail,
  password: ZPassword,
  roles: ZRoleIds,
  /** An existing company; null detaches the user from any company. */
  company_id: zId().nullish(),
  company_name: zText({ max: 120 }).nullish(),
};

export const ZCreateUserRequest = withPasswordRules(z.object(userShape));
export type CreateUserRequest = z.infer<typeof ZCreateUserRequest>;

/** Like creation, but an empty or absent password keeps the current one. */
export const ZUpdateUserRequest = withPasswordRules(
  z.object({ ...userShape, password: ZPassword.nullish().or(z.literal('')) }),
);
export type UpdateUserRequest = z.infer<typeof ZUpdateUserRequest>;

export const ZUsersResponse = z.object({ data: z.array(ZUser) });
export const ZUserMutationResponse = z.object({ success: z.boolean(), message: z.string(), data: ZUser });
export const ZCompaniesResponse = z.object({ data: z.array(ZCompany) });

// --- super admin: roles ---

export const ZRoleRequest = z.object({
  name: requiredText(50),
  description: zText({ max: 255, multiline: true }).nullish(),
  color: ZHexColor,
});
export type RoleRequest = z.infer<typeof ZRoleRequest>;

export const ZRolesResponse = z.object({ success: z.literal(true), data: z.array(ZRole) });
export const ZRoleMutationResponse = z.object({ success: z.boolean(), message: z.string(), data: ZRole });

// --- sign-in answers the web app reads ---

/** A 200 to a sign-in that did not open a session: `success: false` and, when the server has one, a message. */
export const ZLoginFailure = z.object({ success: z.literal(false), message: z.string().optional() });
export type LoginFailure = z.infer<typeof ZLoginFailure>;
export type LoginAnswer = LoginResponse | LoginFailure;
export type RegisterResponse = z.infer<typeof ZSuccessResponse>;

// --- the signed-in user's own account ('Mi cuenta') ---

/**
 * Name and language of the signed-in user, and optionally a new password: then the current one is
 * required too. An empty or absent `password` keeps the current one.
 */
export const ZAccountRequest = z
  .object({
    name: requiredText(120),
    language: ZLanguage,
    current_password: z.string().max(PASSWORD_MAX).nullish(),
    password: ZPassword.nullish().or(z.literal('')),
  })
  .superRefine((value, ctx) => {
    if (value.password && !value.current_password)
      ctx.addIssue({ code: 'custom', path: ['current_password'], message: 'validation.required' });
  });
export type AccountRequest = z.infer<typeof ZAccountRequest>;

export const ZAccountResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  user: ZSessionUser,
});
export type AccountResponse = z.infer<typeof ZAccountResponse>;
