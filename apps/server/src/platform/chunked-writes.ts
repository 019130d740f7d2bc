import { nextTurn } from './turns';

/**
 * Writes a list of items in order, a chunk of them per transaction, so a transaction's fixed cost (BEGIN,
 * COMMIT, the write-ahead log append, the outbox insert) is paid once per chunk instead of once per item.
 *
 * The chunk's size follows how long the last one took: it aims at `targetMs` per transaction (on SQLite a
 * transaction is synchronous work that holds the event loop) and grows at most twice as large from one
 * chunk to the next. Other requests get a turn of the event loop before each chunk.
 *
 * Each item gets its own result or error. When a chunk's transaction fails, nothing of it was kept, and
 * each of its items is written again alone, so one bad item never fails the others.
 */
export interface ChunkedWritesOptions {
  /** How long one chunk's transaction should take. */
  targetMs: number;
  /** The most items in one transaction (default 200). */
  maxChunk?: number;
  /** The size of the first chunk (default 2). */
  firstChunk?: number;
  now?: () => number;
}

export type ItemResult<R> = { ok: true; value: R } | { ok: false; error: unknown };

export function createChunkedWrites(options: ChunkedWritesOptions) {
  const maxChunk = options.maxChunk ?? 200;
  const now = options.now ?? (() => performance.now());
  let size = Math.min(options.firstChunk ?? 2, maxChunk);

  function adapt(ms: number, items: number) {
    const perItem = Math.max(ms, 0.01) / items;
    const fits = Math.floor(options.targetMs / perItem);
    size = Math.max(1, Math.min(fits, size * 2, maxChunk));
  }

  return {
    /** The size the next chunk will have. */
    get chunkSize() {
      return size;
    },
    /**
     * Writes `items` in their order: `chunk(items)` writes several in one transaction (one result per
     * item, in order), `one(item)` writes one alone after its chunk failed.
     */
    async write<T, R>(
      items: T[],
      chunk: (items: T[]) => Promise<R[]>,
      one: (item: T) => Promise<R>,
    ): Promise<ItemResult<R>[]> {
      const results: ItemResult<R>[] = new Array(items.length);
      let start = 0;
      while (start < items.length) {
        await nextTurn();
        const part = items.slice(start, start + size);
        const began = now();
        try {
          const values = await chunk(part);
          for (const [i, value] of values.entries()) results[start + i] = { ok: true, value };
          adapt(now() - began, part.length);
        } catch {
          for (const [i, item] of part.entries()) {
            if (i > 0) await nextTurn();
            try {
              results[start + i] = { ok: true, value: await one(item) };
            } catch (error) {
              results[start + i] = { ok: false, error };
            }
          }
        }
        start += part.length;
      }
      return results;
    },
  };
}
