import type { FastifyBaseLogger } from 'fastify';
import type { IdentityRepository } from './modules/identity/identity.repository';
import { hashPassword } from './platform/passwords';
import { KEY_ALPHABET, generateKey } from './platform/tokens';

/**
 * Makes sure someone can manage users. On the first start there is no super admin: create one from
 * SUPERADMIN_EMAIL / SUPERADMIN_PASSWORD, or with a generated password that is shown once. If the
 * super admins were all removed later and SUPERADMIN_EMAIL's user exists, that user gets the role back
 * (its password and other roles stay as they are).
 */
export async function ensureSuperAdmin(
  identity: Pick<
    IdentityRepository,
    'countUsersWithRole' | 'findRoleByName' | 'findUserByEmail' | 'createUser' | 'grantRole'
  >,
  wanted: { email: string; password?: string },
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
  print: (text: string) => void = (t) => process.stdout.write(t),
): Promise<{ created: boolean; restored?: boolean; email?: string; password?: string }> {
  if ((await identity.countUsersWithRole('super_admin')) > 0) return { created: false };
  const role = await identity.findRoleByName('super_admin');
  if (!role) throw new Error('the super_admin role is missing; migrations did not run');
  const existing = await identity.findUserByEmail(wanted.email);
  if (existing) {
    const restored = await identity.grantRole(existing.id, role.id, { onlyIfNone: 'super_admin' });
    if (restored)
      log.warn({ email: wanted.email }, "no super admin existed: SUPERADMIN_EMAIL's user got the role back");
    return { created: false, restored };
  }
  const password = wanted.password ?? generateKey(20, '', KEY_ALPHABET.slice(0, 62));
  await identity.createUser({
    name: 'Super Admin',
    email: wanted.email,
    passwordHash: await hashPassword(password),
    roleIds: [role.id],
  });
  log.info({ email: wanted.email }, 'first super admin created');
  const shown = wanted.password ? '(the SUPERADMIN_PASSWORD you set)' : password;
  print(
    [
      '',
      '┌──────────────────────────────────────────────────────────────┐',
      '│ HablaBot: first super admin created                          │',
      `│   email:    ${wanted.email.padEnd(49)}│`,
      `│   password: ${shown.padEnd(49)}│`,
      wanted.password
        ? '│ Sign in at /login.                                           │'
        : '│ This password is shown only once: sign in and change it.     │',
      '└──────────────────────────────────────────────────────────────┘',
      '',
      '',
    ].join('\n'),
  );
  return { created: true, email: wanted.email, password };
}
