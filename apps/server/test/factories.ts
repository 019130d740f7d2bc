import { randomBytes } from 'node:crypto';
import type { BuiltinRoleName } from '@hablabot/contract';
import type { UserWithRoles } from '../src/modules/identity/identity.repository';
import { hashPassword } from '../src/platform/passwords';
import { generateToken, hashToken } from '../src/platform/tokens';
import type { TestContext } from './context';

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(++seq).toString(36)}${randomBytes(2).toString('hex')}`;

export interface TestUser {
  user: UserWithRoles;
  token: string;
  password: string;
  /** Headers that sign requests in as this user. */
  headers: { authorization: string };
}

// Hashing costs ~50 ms; factories share one hash for their default password.
const DEFAULT_PASSWORD = 'secret-pass-123';
let defaultHash: Promise<string> | undefined;

/** Creates a user with one role (admins get a company of their own unless one is given) and a token. */
export async function createUser(
  ctx: TestContext,
  options: {
    role?: BuiltinRoleName;
    companyId?: number;
    name?: string;
    email?: string;
    password?: string;
  } = {},
): Promise<TestUser> {
  const { identity } = ctx.container;
  const roleName = options.role ?? 'admin';
  const role = await identity.findRoleByName(roleName);
  if (!role) throw new Error(`no role ${roleName}`);
  const name = options.name ?? `User ${unique()}`;
  const password = options.password ?? DEFAULT_PASSWORD;
  defaultHash ??= hashPassword(DEFAULT_PASSWORD);
  const id = await identity.createUser({
    name,
    email: options.email ?? `${unique()}@example.test`,
    passwordHash: password === DEFAULT_PASSWORD ? await defaultHash : await hashPassword(password),
    roleIds: [role.id],
    companyId: options.companyId ?? null,
    newCompanyName: roleName === 'admin' && !options.companyId ? `Company of ${name}` : undefined,
  });
  const token = generateToken();
  await identity.createToken(id, hashToken(token), 60 * 60 * 1000);
  const user = (await identity.findUserById(id))!;
  return { user, token, password, headers: { authorization: `Bearer ${token}` } };
}

/** One of each role, plus an admin of a second company, for role matrices. */
export async function createCast(ctx: TestContext) {
  const [superAdmin, admin, otherAdmin, client] = await Promise.all([
    createUser(ctx, { role: 'super_admin' }),
    createUser(ctx, { role: 'admin' }),
    createUser(ctx, { role: 'admin' }),
    createUser(ctx, { role: 'client' }),
  ]);
  return { superAdmin, admin, otherAdmin, client };
}
