import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_KEY, createLocalStorage, newStorageKey } from './storage';

let base: string;
let root: string;

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'hablabot-storage-'));
  root = path.join(base, 'media');
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

function stagedFile(storage: ReturnType<typeof createLocalStorage>, content: string): string {
  const file = path.join(storage.stagingDir, `${Math.random().toString(16).slice(2)}.part`);
  fs.writeFileSync(file, content);
  return file;
}

describe('local file storage', () => {
  it('puts, gets (whole or a range), serves under /storage/media and deletes', async () => {
    const storage = createLocalStorage(root);
    const key = newStorageKey('pdf');
    expect(key).toMatch(STORAGE_KEY);
    const staged = stagedFile(storage, 'hola mundo');
    await storage.put(key, staged);
    expect(fs.existsSync(staged)).toBe(false);
    expect(fs.readFileSync(path.join(root, key), 'utf8')).toBe('hola mundo');

    const file = await storage.get(key);
    expect(file?.size).toBe(10);
    expect(await text(file!.stream({ start: 5, end: 9 }))).toBe('mundo');
    const again = await storage.get(key);
    expect(await text(again!.stream())).toBe('hola mundo');
    const unused = await storage.get(key);
    await unused!.close();

    expect(storage.publicUrl(key)).toBe(`/storage/media/${key}`);
    await storage.delete(key);
    expect(await storage.get(key)).toBeUndefined();
    await storage.delete(key); // already gone: not an error
  });

  it('never overwrites a stored file', async () => {
    const storage = createLocalStorage(root);
    const key = newStorageKey('txt');
    await storage.put(key, stagedFile(storage, 'first'));
    await expect(storage.put(key, stagedFile(storage, 'second'))).rejects.toThrow();
    expect(fs.readFileSync(path.join(root, key), 'utf8')).toBe('first');
  });

  it('reads and writes nothing but the keys it hands out', async () => {
    const storage = createLocalStorage(root);
    fs.writeFileSync(path.join(base, 'secret.txt'), 'secret');
    fs.mkdirSync(path.join(root, 'ab'), { recursive: true });
    fs.writeFileSync(path.join(root, 'ab', 'plain.txt'), 'not a storage name');
    for (const key of [
      '../secret.txt',
      'ab/../../secret.txt',
      '/etc/passwd',
      `${base}/secret.txt`,
      'ab/plain.txt',
      'ab/ab000000000000000000000000000000.png\u0000.txt',
      'AB/AB000000000000000000000000000000.PNG',
      'cd/ab000000000000000000000000000000.png',
      '.staging/x.part',
      '',
    ]) {
      expect(STORAGE_KEY.test(key), key).toBe(false);
      expect(await storage.get(key), key).toBeUndefined();
      await expect(storage.put(key, stagedFile(storage, 'x')), key).rejects.toThrow(/not a storage key/);
      await storage.delete(key);
    }
    expect(fs.readFileSync(path.join(base, 'secret.txt'), 'utf8')).toBe('secret');
    expect(fs.existsSync(path.join(root, 'ab', 'plain.txt'))).toBe(true);
  });

  it('sweeps uploads a crash left in the staging folder, and only old ones', async () => {
    fs.mkdirSync(path.join(root, '.staging'), { recursive: true });
    const old = path.join(root, '.staging', 'old.part');
    const fresh = path.join(root, '.staging', 'fresh.part');
    fs.writeFileSync(old, 'x');
    fs.writeFileSync(fresh, 'y');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(old, twoHoursAgo, twoHoursAgo);
    createLocalStorage(root);
    await expect.poll(() => fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
  });
});
