import { isIP } from 'node:net';
import {
  type AccountRequest,
  type Language,
  type LoginRequest,
  type LoginResponse,
  PASSWORD_MAX,
  PASSWORD_MIN,
  passwordProblem,
  type RegisterRequest,
  type SessionUser,
} from '@hablabot/contract';
import { isUniqueViolation } from '../../db/errors';
import type { AuthCache } from '../../platform/auth-cache';
import { AppError, invalid, tooManyRequests } from '../../platform/errors';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../../platform/passwords';
import type { RateLimitStore } from '../../platform/rate-limit';
import { generateToken, hashToken } from '../../platform/tokens';
import type { RolesRepository } from '../identity/roles.repository';
import type { TokensRepository } from '../identity/tokens.repository';
import type { UsersRepository, UserWithRoles } from '../identity/users.repository';

export interface LoginLimits {
  /** Sign-in attempts allowed from one IP address per window, whatever the email. */
  perIp: number;
  /** Failed attempts allowed for one email from one address per window; then that pair gets 429. */
  perEmail: number;
  /**
   * Failed attempts for one email from all addresses together before that email slows down: past it,
   * addresses that already failed for the email must wait a growing delay between checks (fresh
   * addresses are not delayed, so the owner can still sign in while someone else hammers the account).
   */
  perEmailSlowAfter?: number;
  windowMs: number;
}

export interface RegisterLimits {
  /** Registrations allowed from one IP address per window. */
  perIp: number;
  /**
   * Registrations allowed from everyone together per `overallWindowMs`. Past it an address waits its own
   * turn (`REGISTER_WAIT_MS`), so a flood cannot keep a newcomer out for longer than that.
   */
  overall: number;
  overallWindowMs?: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  perIp: 30,
  perEmail: 5,
  perEmailSlowAfter: 20,
  windowMs: 15 * 60 * 1000,
};
export const DEFAULT_REGISTER_LIMITS: RegisterLimits = {
  perIp: 5,
  overall: 10,
  overallWindowMs: 60 * 1000,
  windowMs: 15 * 60 * 1000,
};
/** How long an address waits, from its first refused try, for its own turn past the overall cap. */
export const REGISTER_WAIT_MS = 60 * 1000;
export const TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** How long a sign-in waits for another check of the same email to finish before answering 429. */
const EMAIL_LOCK_WAIT_MS = 3000;
/** Longest a check may hold an email's lock (a crashed process frees it after this). */
const EMAIL_LOCK_TTL_MS = 15_000;
/** How long a known address (one that signed in to the account) skips the email's slow-down. */
export const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;
/** The one wait of a fresh address while its email is under a siege (see `waitTurn`). */
export const FRESH_WAIT_MS = 5000;
/** The delay between checks of a slowed-down email: 1 s, doubling every 10 failures, at most 60 s. */
export function slowDownMs(failures: number, slowAfter: number): number {
  if (failures <= slowAfter) return 0;
  return Math.min(60_000, 1000 * 2 ** Math.floor((failures - slowAfter - 1) / 10));
}

/**
 * The address a limit is kept for: IPv4 as it is; IPv6 by its /64 network, since one subscriber usually
 * holds a whole /64 and could otherwise use a new address for every guess.
 */
export function addressKey(ip: string): string {
  // A forwarded address is whatever the proxy wrote: keep something odd short rather than parse it.
  if (isIP(ip) === 0) return ip.slice(0, 64);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head, tail = ''] = ip.toLowerCase().split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createAuthService(deps: {
  users: Pick<
    UsersRepository,
    'findUserByEmail' | 'findUserById' | 'createUser' | 'setUserLanguage' | 'updateOwnAccount'
  >;
  roles: Pick<RolesRepository, 'findRoleByName'>;
  tokens: Pick<TokensRepository, 'createToken' | 'deleteToken'>;
  rateLimits: RateLimitStore;
  authCache: Pick<AuthCache, 'forgetUsers'>;
  limits?: LoginLimits;
  registerLimits?: RegisterLimits;
}) {
  const { users, roles, tokens, rateLimits } = deps;
  const limits = deps.limits ?? DEFAULT_LOGIN_LIMITS;
  const slowAfter = limits.perEmailSlowAfter ?? DEFAULT_LOGIN_LIMITS.perEmailSlowAfter!;
  const registerLimits = deps.registerLimits ?? DEFAULT_REGISTER_LIMITS;

  /** At most one password check per email at a time, in this process and across processes (Redis). */
  async function lockEmail(key: string): Promise<void> {
    const deadline = Date.now() + EMAIL_LOCK_WAIT_MS;
    for (;;) {
      const claim = await rateLimits.acquire(key, EMAIL_LOCK_TTL_MS);
      if (claim.acquired) return;
      if (Date.now() >= deadline) throw tooManyRequests('auth.too_many_attempts', 1);
      await sleep(20 + Math.random() * 30);
    }
  }

  /**
   * Whether an address that is not known for the email may have its password checked now (it returns)
   * or must wait (429 with Retry-After). A fresh address is one whose password was not checked for the
   * email in this window:
   * - up to `perEmailSlowAfter` failures of the email, nobody waits;
   * - past it, fresh addresses go at once and addresses already checked share one turn per delay
   *   (`slowDownMs`: 1 s doubling every 10 failures, at most 60 s);
   * - past five times the threshold (a siege), a fresh address is checked after one wait of
   *   `FRESH_WAIT_MS`, its own and not shared — so many guesses at the email cannot push the owner's
   *   turn back — and addresses already checked keep sharing the growing delay.
   */
  async function waitTurn(email: string, ip: string, failures: number): Promise<void> {
    const delay = slowDownMs(failures, slowAfter);
    const checkedKey = `login:checked:${email}:${ip}`;
    const fresh = (await rateLimits.peek(checkedKey)).count === 0;
    if (delay > 0 && !fresh) {
      const slot = await rateLimits.acquire(`login:slow:${email}`, delay);
      if (!slot.acquired) throw tooManyRequests('auth.too_many_attempts', Math.ceil(slot.retryMs / 1000));
    } else if (delay > 0 && failures > slowAfter * 5) {
      const since = await rateLimits.firstSeen(`login:wait:${email}:${ip}`, limits.windowMs);
      const waitMs = since + FRESH_WAIT_MS - Date.now();
      if (waitMs > 0) throw tooManyRequests('auth.too_many_attempts', Math.ceil(waitMs / 1000));
    }
    await rateLimits.hit(checkedKey, limits.windowMs);
  }

  /** Past the overall registration limit: this address's own turn, once per window, or 429. */
  async function registerTurn(ip: string, overallResetSeconds: number): Promise<void> {
    const since = await rateLimits.firstSeen(`register:wait:${ip}`, registerLimits.windowMs);
    const waitMs = since + REGISTER_WAIT_MS - Date.now();
    if (waitMs > 0) throw tooManyRequests('auth.too_many_registrations', Math.ceil(waitMs / 1000));
    // A claim never released: one turn per address per window, even for parallel tries.
    const turn = await rateLimits.acquire(`register:turn:${ip}`, registerLimits.windowMs);
    if (!turn.acquired) throw tooManyRequests('auth.too_many_registrations', overallResetSeconds);
  }

  return {
    /**
     * Signs in. Every attempt is counted before the password is checked, and one email's checks run one
     * at a time, so parallel guesses cannot slip past the limits:
     * - per address: `perIp` attempts per window;
     * - per (email, address): `perEmail` attempts, then 429 for that pair only — the right password from
     *   another address still works, so nobody can lock anyone out;
     * - per email from all addresses: past `perEmailSlowAfter` failures the email is slowed down
     *   (`waitTurn`); an address that signed in to the account before (a known address) is never slowed;
     * - addresses are IPv4 addresses or IPv6 /64 networks (`addressKey`).
     * A success clears that address's count and makes it known for `KNOWN_ADDRESS_MS`; the email's count
     * keeps running, so the owner signing in does not lift an attacker's delay.
     */
    async login(input: LoginRequest, rawIp: string): Promise<Omit<LoginResponse, 'message'>> {
      const email = input.email;
      const ip = addressKey(rawIp);
      const byIp = await rateLimits.hit(`login:ip:${ip}`, limits.windowMs);
      if (byIp.count > limits.perIp) throw tooManyRequests('auth.too_many_attempts', byIp.resetSeconds);

      const lockKey = `login:lock:${email}`;
      const pairKey = `login:fail:${email}:${ip}`;
      const knownKey = `login:known:${email}:${ip}`;
      await lockEmail(lockKey);
      let user: UserWithRoles;
      try {
        const byPair = await rateLimits.hit(pairKey, limits.windowMs);
        if (byPair.count > limits.perEmail)
          throw tooManyRequests('auth.too_many_attempts', byPair.resetSeconds);
        const byEmail = await rateLimits.hit(`login:fail:${email}`, limits.windowMs);
        const known = (await rateLimits.peek(knownKey)).count > 0;
        if (!known) await waitTurn(email, ip, byEmail.count);

        const found = await users.findUserByEmail(email);
        // Verify against a dummy hash for unknown emails so timing does not reveal which emails exist.
        const ok = await verifyPassword(input.password, found?.password_hash ?? DUMMY_HASH);
        if (!found || !ok) throw new AppError(401, 'auth.invalid_credentials');
        user = found;
        await rateLimits.reset(pairKey);
        await rateLimits.reset(knownKey);
        await rateLimits.hit(knownKey, KNOWN_ADDRESS_MS);
      } finally {
        await rateLimits.release(lockKey);
      }
      const token = generateToken();
      await tokens.createToken(user.id, hashToken(token), TOKEN_TTL_MS);
      const language: Language = user.language === 'en' ? 'en' : 'es';
      return {
        success: true,
        token,
        language,
        user: {
          id: user.id,
          name: user.name,
          email: user.email,
          company_id: user.company_id,
          language,
          roles: user.roles,
        },
      };
    },

    /**
     * Self-registration makes a client user: least privilege; a super admin promotes. Limited per address
     * (`perIp` per window) and overall (`overall` per minute); past the overall limit an address gets
     * one registration of its own once `REGISTER_WAIT_MS` have passed since its first refused try, so a
     * flood from many addresses delays a newcomer by a minute at most. The answer is the same whether or not the email already had an account (that account
     * is left exactly as it was), so registration cannot be used to find out who has one.
     */
    async register(input: RegisterRequest, language: Language, rawIp: string): Promise<void> {
      const ip = addressKey(rawIp);
      const byIp = await rateLimits.hit(`register:ip:${ip}`, registerLimits.windowMs);
      if (byIp.count > registerLimits.perIp)
        throw tooManyRequests('auth.too_many_registrations', byIp.resetSeconds);
      const overall = await rateLimits.hit(
        'register:all',
        registerLimits.overallWindowMs ?? registerLimits.windowMs,
      );
      if (overall.count > registerLimits.overall) await registerTurn(ip, overall.resetSeconds);
      // Hash first, whether or not the email is taken, so both answers take the same time.
      const passwordHash = await hashPassword(input.password);
      if (await users.findUserByEmail(input.email)) return;
      const role = await roles.findRoleByName('client');
      if (!role) throw new Error('the client role is missing');
      try {
        await users.createUser({
          name: input.name,
          email: input.email,
          passwordHash,
          roleIds: [role.id],
          language,
        });
      } catch (err) {
        // Two sign-ups with one email at the same instant: the database keeps one; both hear the same.
        if (!isUniqueViolation(err)) throw err;
      }
    },

    /** Revokes the token: refused from the next request on, in every process. */
    async logout(tokenId: number, userId: number): Promise<void> {
      await tokens.deleteToken(tokenId);
      await deps.authCache.forgetUsers([userId]);
    },

    /**
     * 'Mi cuenta': the signed-in user changes their name, language and password. A new password needs the
     * current one, follows the password rules (not based on the account's email or name) and signs out
     * every other session; this one stays signed in.
     *
     * Checks of the current password are limited per user like sign-ins per email and address
     * (`perEmail` per window, counted before the check so parallel guesses cannot slip past; the right
     * password clears the count): a stolen session cannot be used to guess the account's password.
     */
    async updateAccount(userId: number, tokenId: number, input: AccountRequest): Promise<SessionUser> {
      const user = await users.findUserById(userId);
      if (!user) throw new AppError(401, 'auth.unauthenticated');
      let passwordHash: string | undefined;
      if (input.password) {
        const checks = `account:password:${userId}`;
        const tries = await rateLimits.hit(checks, limits.windowMs);
        if (tries.count > limits.perEmail)
          throw tooManyRequests('auth.too_many_password_checks', tries.resetSeconds);
        if (!(await verifyPassword(input.current_password ?? '', user.password_hash)))
          throw invalid('current_password', 'auth.current_password_wrong');
        await rateLimits.reset(checks);
        const problem = passwordProblem(input.password, { email: user.email, name: input.name });
        if (problem) throw invalid('password', problem, { min: PASSWORD_MIN, max: PASSWORD_MAX });
        passwordHash = await hashPassword(input.password);
      }
      await users.updateOwnAccount(userId, {
        name: input.name,
        language: input.language,
        passwordHash,
        keepTokenId: tokenId,
      });
      await deps.authCache.forgetUsers([userId]);
      const updated = (await users.findUserById(userId))!;
      return {
        id: updated.id,
        name: updated.name,
        email: updated.email,
        company_id: updated.company_id,
        language: updated.language as Language,
        roles: updated.roles,
      };
    },

    async setLanguage(userId: number, language: Language): Promise<void> {
      await users.setUserLanguage(userId, language);
      await deps.authCache.forgetUsers([userId]);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
