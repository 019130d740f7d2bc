import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** A stored file, opened: its size and date, and its bytes as a stream (all of them or a range). */
export interface StoredFile {
  size: number;
  modified: Date;
  /** The bytes, or those from `start` to `end` (both included). Takes over the file: no close needed after. */
  stream(range?: { start: number; end: number }): Readable;
  /** Lets the file go when no stream was taken (a HEAD, a 304, a 416). */
  close(): Promise<void>;
}

/**
 * Where media files live. The local folder is the one implementation today; an object store can be added
 * behind the same five members without touching the routes or the service.
 */
export interface FileStorage {
  /** A folder for uploads in progress, on the same disk as the files so `put` is a rename, not a copy. */
  readonly stagingDir: string;
  /** Moves a finished local file into storage under `key`. Never overwrites: a taken key is an error. */
  put(key: string, localFile: string): Promise<void>;
  /** The file under `key`, or undefined when there is none (or the key is not one storage hands out). */
  get(key: string): Promise<StoredFile | undefined>;
  /** Removes the file; a file already gone is not an error. */
  delete(key: string): Promise<void>;
  /** Where the file is served: a path on the product's host ('/storage/media/…') or an absolute URL. */
  publicUrl(key: string): string;
}

/**
 * The only keys storage hands out and accepts: a two-character shard folder and 32 random hex characters
 * with a short lower-case extension ('a3/a3f0…9c.png'). Anything else — '..', '%2e', '/', '\', NUL,
 * absolute paths, upper case — never reaches the file system.
 */
export const STORAGE_KEY = /^([0-9a-f]{2})\/\1[0-9a-f]{30}\.[a-z0-9]{2,4}$/;

/** A new random key (128 bits) for a file with that extension. */
export function newStorageKey(extension: string): string {
  const name = randomBytes(16).toString('hex');
  return `${name.slice(0, 2)}/${name}.${extension}`;
}

/** Where local files are served from: `/storage/media/<key>`. */
export const LOCAL_PUBLIC_PREFIX = '/storage/media/';

const STAGING = '.staging';
/** Staged uploads older than this are leftovers of a crash and are removed at start. */
const STAGING_MAX_AGE_MS = 60 * 60 * 1000;

/**
 * Files in a local folder (`<DATA_DIR>/media`). Reads open the file without following a symbolic link and
 * check that its folder is really inside the root, so nothing outside the media folder can be read even if
 * a link were planted in it.
 */
export function createLocalStorage(root: string): FileStorage {
  fs.mkdirSync(path.join(root, STAGING), { recursive: true, mode: 0o700 });
  const realRoot = fs.realpathSync(root);
  const stagingDir = path.join(realRoot, STAGING);
  void sweepStaging(stagingDir);

  const fileOf = (key: string) => path.join(realRoot, key);

  return {
    stagingDir,

    async put(key, localFile) {
      if (!STORAGE_KEY.test(key)) throw new Error(`not a storage key: ${key}`);
      const target = fileOf(key);
      await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      try {
        // A hard link fails when the name is taken (a rename would replace the other file silently).
        await fs.promises.link(localFile, target);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw err;
        await fs.promises.copyFile(localFile, target, fs.constants.COPYFILE_EXCL);
      }
      await fs.promises.rm(localFile, { force: true });
    },

    async get(key) {
      if (!STORAGE_KEY.test(key)) return undefined;
      const file = fileOf(key);
      let handle: fs.promises.FileHandle;
      try {
        // The shard folder must be the real one under the root, not a link to elsewhere.
        if ((await fs.promises.realpath(path.dirname(file))) !== path.dirname(file)) return undefined;
        handle = await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
      } catch {
        return undefined;
      }
      const stat = await handle.stat().catch(() => undefined);
      if (!stat?.isFile()) {
        await handle.close();
        return undefined;
      }
      let taken = false;
      return {
        size: stat.size,
        modified: stat.mtime,
        stream(range) {
          taken = true;
          return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
        },
        async close() {
          if (!taken) await handle.close();
        },
      };
    },

    async delete(key) {
      if (!STORAGE_KEY.test(key)) return;
      await fs.promises.rm(fileOf(key), { force: true });
    },

    publicUrl: (key) => `${LOCAL_PUBLIC_PREFIX}${key}`,
  };
}

/** Removes staged uploads a crash left behind (a running upload's file is younger than the limit). */
async function sweepStaging(dir: string): Promise<void> {
  try {
    const cutoff = Date.now() - STAGING_MAX_AGE_MS;
    for (const name of await fs.promises.readdir(dir)) {
      const file = path.join(dir, name);
      const stat = await fs.promises.lstat(file).catch(() => undefined);
      if (stat && stat.mtimeMs < cutoff) await fs.promises.rm(file, { force: true });
    }
  } catch {
    // Best effort: a leftover costs disk space, nothing else.
  }
}
