import { createHash, timingSafeEqual } from 'node:crypto';
import { WORDPRESS_KEY_LENGTH } from '@hablabot/contract';
import { AppError, tooManyRequests } from '../../platform/errors';
import type { RateLimitStore } from '../../platform/rate-limit';
import type { SecretBox } from '../../platform/secrets';
import { addressKey } from '../auth/auth.service';
import type { SettingsRepository } from '../settings/settings.repository';
import { wordpressKeyHash } from '../settings/settings.service';

export interface WordPressLimits {
  /** Failed attempts one address may make per window; then 429 until the window ends. */
  failures: number;
  windowMs: number;
  /** Contacts one company's site may push per minute; then 429 until the minute ends. */
  writesPerMinute?: number;
}

export const DEFAULT_WORDPRESS_LIMITS: WordPressLimits = {
  failures: 10,
  windowMs: 15 * 60 * 1000,
  writesPerMinute: 600,
};

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * Recognises a company's WordPress site by the key and secret it sends. The key finds the company (by
 * its SHA-256); the secret is compared in constant time, also when the key matched nothing (against a
 * dummy), so timing does not tell a known key from an unknown one. Failures are counted per address and
 * past the limit every attempt from that address is refused, right or wrong, until the window ends.
 */
export function createWordPressAuth(deps: {
  settingsRepository: Pick<SettingsRepository, 'findByWordPressKeyHash'>;
  secrets: SecretBox;
  rateLimits: RateLimitStore;
  limits?: WordPressLimits;
}) {
  const { settingsRepository: repo, secrets, rateLimits } = deps;
  const limits = deps.limits ?? DEFAULT_WORDPRESS_LIMITS;
  const dummySealed = secrets.encrypt(`HB-${'0'.repeat(WORDPRESS_KEY_LENGTH - 3)}`);

  return {
    /** The company whose key and secret these are; throws 401, or 429 past the failure limit. */
    async authenticate(key: string | undefined, secret: string | undefined, ip: string): Promise<number> {
      const failKey = `wordpress:fail:${addressKey(ip)}`;
      const seen = await rateLimits.peek(failKey);
      if (seen.count >= limits.failures)
        throw tooManyRequests('wordpress.too_many_failures', seen.resetSeconds);

      const fail = async (reason: string): Promise<never> => {
        const hit = await rateLimits.hit(failKey, limits.windowMs);
        if (hit.count > limits.failures)
          throw tooManyRequests('wordpress.too_many_failures', hit.resetSeconds);
        throw new AppError(401, reason);
      };

      if (!key || !secret) return fail('wordpress.missing_credentials');
      // A header longer than any key we issue cannot be one (and is not worth hashing).
      const plausible = key.length <= 256 && secret.length <= 256;
      const row = plausible ? await repo.findByWordPressKeyHash(wordpressKeyHash(key)) : undefined;
      let stored: string | null = null;
      try {
        stored = secrets.decrypt(row?.wordpress_secret_key_enc ?? dummySealed);
      } catch {
        stored = null;
      }
      const matches = timingSafeEqual(sha256(secret), sha256(stored ?? ''));
      if (!row?.wordpress_secret_key_enc || stored === null || !matches) {
        return fail('wordpress.unauthenticated');
      }
      return row.company_id;
    },

    /**
     * Counts one contact push of the company, before it is written: past `writesPerMinute` in the
     * minute, 429 with the seconds left, so a leaked key cannot rewrite the company's clients at will.
     */
    async countWrite(companyId: number): Promise<void> {
      const writes = await rateLimits.hit(`wordpress:writes:${companyId}`, 60_000);
      const allowed = limits.writesPerMinute ?? DEFAULT_WORDPRESS_LIMITS.writesPerMinute!;
      if (writes.count > allowed) throw tooManyRequests('wordpress.too_many_writes', writes.resetSeconds);
    },
  };
}

export type WordPressAuth = ReturnType<typeof createWordPressAuth>;
