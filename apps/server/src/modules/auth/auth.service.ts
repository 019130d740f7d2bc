import type { Language, LoginRequest, LoginResponse, RegisterRequest } from '@hablabot/contract';
import { isUniqueViolation } from '../../db/errors';
import { AppError, invalid, tooManyRequests } from '../../platform/errors';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../../platform/passwords';
import type { RateLimitStore } from '../../platform/rate-limit';
import { generateToken, hashToken } from '../../platform/tokens';
import type { IdentityRepository } from '../identity/identity.repository';

export interface LoginLimits {
  /** Attempts allowed from one IP address per window. */
  perIp: number;
  /** Failed attempts allowed for one email per window. */
  perEmail: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { perIp: 30, perEmail: 5, windowMs: 15 * 60 * 1000 };
export const TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export function createAuthService(deps: {
  identity: IdentityRepository;
  rateLimits: RateLimitStore;
  limits?: LoginLimits;
}) {
  const { identity, rateLimits } = deps;
  const limits = deps.limits ?? DEFAULT_LOGIN_LIMITS;

  return {
    async login(input: LoginRequest, ip: string): Promise<Omit<LoginResponse, 'message'>> {
      const ipKey = `login:ip:${ip}`;
      const emailKey = `login:email:${input.email}`;
      const byIp = await rateLimits.hit(ipKey, limits.windowMs);
      if (byIp.count > limits.perIp) throw tooManyRequests('auth.too_many_attempts', byIp.resetSeconds);
      const byEmail = await rateLimits.peek(emailKey);
      if (byEmail.count >= limits.perEmail)
        throw tooManyRequests('auth.too_many_attempts', byEmail.resetSeconds);

      const user = await identity.findUserByEmail(input.email);
      // Verify against a dummy hash for unknown emails so timing does not reveal which emails exist.
      const ok = await verifyPassword(input.password, user?.password_hash ?? DUMMY_HASH);
      if (!user || !ok) {
        await rateLimits.hit(emailKey, limits.windowMs);
        throw new AppError(401, 'auth.invalid_credentials');
      }
      await rateLimits.reset(emailKey);
      const token = generateToken();
      await identity.createToken(user.id, hashToken(token), TOKEN_TTL_MS);
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

    /** Self-registration makes a client user: least privilege; a super admin promotes. */
    async register(input: RegisterRequest, language: Language): Promise<void> {
      if (await identity.emailTaken(input.email)) throw invalid('email', 'auth.email_taken');
      const role = await identity.findRoleByName('client');
      if (!role) throw new Error('the client role is missing');
      try {
        await identity.createUser({
          name: input.name,
          email: input.email,
          passwordHash: await hashPassword(input.password),
          roleIds: [role.id],
          language,
        });
      } catch (err) {
        // Two sign-ups with one email at the same instant: the database keeps one, the other hears why.
        if (isUniqueViolation(err)) throw invalid('email', 'auth.email_taken');
        throw err;
      }
    },

    async logout(tokenId: number): Promise<void> {
      await identity.deleteToken(tokenId);
    },

    async setLanguage(userId: number, language: Language): Promise<void> {
      await identity.setUserLanguage(userId, language);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
