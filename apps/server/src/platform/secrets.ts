import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Encrypts integration secrets at rest with AES-256-GCM under the server's APP_KEY. */
export interface SecretBox {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
  /** Whether APP_KEY itself opens it (false: only a previous key does, or none). */
  openedByCurrentKey(sealed: string): boolean;
}

export function parseAppKey(value: string): Buffer {
  const key = Buffer.from(value.replace(/^base64:/, ''), 'base64');
  if (key.length !== 32) throw new Error('APP_KEY must decode to 32 bytes');
  return key;
}

/** APP_KEY from the environment, or one generated once and kept in DATA_DIR/app.key (mode 0600). */
export function loadOrCreateAppKey(dataDir: string, fromEnv?: string): Buffer {
  if (fromEnv) return parseAppKey(fromEnv);
  const file = path.join(dataDir, 'app.key');
  if (fs.existsSync(file)) return parseAppKey(fs.readFileSync(file, 'utf8').trim());
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  fs.writeFileSync(file, `base64:${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}

/** How many opened secrets a box remembers (a few per company: its tokens and app secret). */
const OPENED_CACHE_SIZE = 1024;

/**
 * A box remembers the secrets it opened, by their sealed text: the webhook checks a company's app
 * secret on every delivery, and AES-GCM plus base64 for each one was a measurable share of the work.
 * A sealed text opens to one clear value under one key, so a remembered value is never stale; when a
 * secret changes it is sealed anew (a fresh IV), which is a different entry.
 */
export function createSecretBox(key: Buffer, previousKeys: Buffer[] = []): SecretBox {
  const opened = new Map<string, string>();
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `v1:${iv.toString('base64')}:${cipher.getAuthTag().toString('base64')}:${data.toString('base64')}`;
    },
    openedByCurrentKey(sealed) {
      try {
        open(sealed, key);
        return true;
      } catch {
        return false;
      }
    },
    decrypt(sealed) {
      const known = opened.get(sealed);
      if (known !== undefined) return known;
      const clear = openWithAny(sealed);
      if (opened.size >= OPENED_CACHE_SIZE) opened.delete(opened.keys().next().value as string);
      opened.set(sealed, clear);
      return clear;
    },
  };

  /**
   * APP_KEY first, then each of APP_KEY_PREVIOUS: after a key change the secrets sealed before it
   * still open, until the start-up reseals them under the new key (settings/reseal-secrets.ts).
   */
  function openWithAny(sealed: string): string {
    try {
      return open(sealed, key);
    } catch (error) {
      for (const previous of previousKeys) {
        try {
          return open(sealed, previous);
        } catch {}
      }
      throw error;
    }
  }

  function open(sealed: string, key: Buffer): string {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  }
}
