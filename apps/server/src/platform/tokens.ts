import crypto, { createHash, randomBytes } from 'node:crypto';

/** An opaque bearer token: 32 random bytes, base64url, prefixed so leaked tokens are recognisable. */
export function generateToken(): string {
  return `hb_${randomBytes(32).toString('base64url')}`;
}

/**
 * Tokens carry 256 bits of entropy, so a fast hash is enough to make a stolen table useless. Every signed-in
 * request hashes its token: the one-step `crypto.hash` (Node 20.12+) costs half of a Hash object.
 */
export const hashToken: (token: string) => string =
  typeof crypto.hash === 'function'
    ? (token) => crypto.hash('sha256', token, 'hex')
    : (token) => createHash('sha256').update(token).digest('hex');

/** A random key of the given length from the alphabet a-z A-Z 0-9 - _ (the generated hub token and WordPress keys use it). */
export const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_';

export function generateKey(length: number, prefix = '', alphabet = KEY_ALPHABET): string {
  const body = length - prefix.length;
  const bytes = randomBytes(body * 2);
  let out = '';
  for (let i = 0; out.length < body; i++) {
    const b = bytes[i % bytes.length];
    if (b < 256 - (256 % alphabet.length)) out += alphabet[b % alphabet.length];
    if (i > bytes.length * 4) return generateKey(length, prefix, alphabet);
  }
  return prefix + out;
}
