import type { Executor } from '../../db/transactions';
import { type UserWithRoles, usersQuery, withRoles } from './users.repository';

/** Access tokens (stored hashed) and the user a token signs in. */
export function createTokensRepository(db: Executor) {
  return {
    async createToken(userId: number, tokenHash: string, ttlMs: number): Promise<void> {
      const at = new Date();
      await db
        .insertInto('access_tokens')
        .values({
          user_id: userId,
          token_hash: tokenHash,
          created_at: at.toISOString(),
          last_used_at: null,
          expires_at: new Date(at.getTime() + ttlMs).toISOString(),
        })
        .execute();
    },

    /** The token's user when the token exists and has not expired, and when the token expires. */
    async findUserByTokenHash(
      tokenHash: string,
    ): Promise<{ tokenId: number; user: UserWithRoles; expiresAt: number } | undefined> {
      const token = await db
        .selectFrom('access_tokens')
        .select(['id', 'user_id', 'expires_at'])
        .where('token_hash', '=', tokenHash)
        .where('expires_at', '>', new Date().toISOString())
        .executeTakeFirst();
      if (!token) return undefined;
      const row = await usersQuery(db).where('users.id', '=', token.user_id).executeTakeFirst();
      if (!row) return undefined;
      const [user] = await withRoles(db, [row]);
      return { tokenId: token.id, user, expiresAt: Date.parse(token.expires_at) };
    },

    async deleteToken(tokenId: number): Promise<void> {
      await db.deleteFrom('access_tokens').where('id', '=', tokenId).execute();
    },

    async deleteExpiredTokens(): Promise<void> {
      await db.deleteFrom('access_tokens').where('expires_at', '<=', new Date().toISOString()).execute();
    },
  };
}

export type TokensRepository = ReturnType<typeof createTokensRepository>;
