import { describe, expect, it } from 'vitest';
import { createChunkedWrites } from './chunked-writes';

describe('chunked writes', () => {
  it('writes the items in their order, a chunk per transaction, the chunk growing while it stays under the target', async () => {
    let clock = 0;
    const writes = createChunkedWrites({ targetMs: 10, firstChunk: 2, maxChunk: 16, now: () => clock });
    const chunks: number[][] = [];
    const items = Array.from({ length: 60 }, (_, i) => i);
    const results = await writes.write(
      items,
      async (part) => {
        chunks.push(part);
        clock += part.length * 0.5; // 0.5 ms an item: 20 fit in the target, the maximum is 16
        return part.map((n) => n * 10);
      },
      async () => {
        throw new Error('never alone');
      },
    );
    expect(results).toEqual(items.map((n) => ({ ok: true, value: n * 10 })));
    expect(chunks.map((c) => c.length)).toEqual([2, 4, 8, 16, 16, 14]);
    expect(chunks.flat()).toEqual(items);
  });

  it('shrinks the chunk when one took longer than the target', async () => {
    let clock = 0;
    const writes = createChunkedWrites({ targetMs: 10, firstChunk: 8, now: () => clock });
    const sizes: number[] = [];
    await writes.write(
      Array.from({ length: 12 }, (_, i) => i),
      async (part) => {
        sizes.push(part.length);
        clock += part.length * 5; // 5 ms an item: 2 fit
        return part;
      },
      async (n) => n,
    );
    expect(sizes).toEqual([8, 2, 2]);
    expect(writes.chunkSize).toBe(2);
  });

  it('writes each item of a failed chunk alone, so one bad item fails alone', async () => {
    const writes = createChunkedWrites({ targetMs: 1000, firstChunk: 4 });
    const alone: number[] = [];
    const results = await writes.write(
      [1, 2, 3, 4, 5, 6, 7, 8],
      async (part) => {
        if (part.includes(3)) throw new Error('chunk failed');
        return part;
      },
      async (n) => {
        alone.push(n);
        if (n === 3) throw new Error('bad 3');
        return n;
      },
    );
    expect(alone).toEqual([1, 2, 3, 4]);
    expect(results.map((r) => (r.ok ? r.value : (r.error as Error).message))).toEqual([
      1,
      2,
      'bad 3',
      4,
      5,
      6,
      7,
      8,
    ]);
  });

  it('lets the event loop turn between chunks', async () => {
    const writes = createChunkedWrites({ targetMs: 1000, firstChunk: 2, maxChunk: 2 });
    let turns = 0;
    let running = true;
    const count = () => {
      if (!running) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    const seen: number[] = [];
    await writes.write(
      [1, 2, 3, 4, 5, 6],
      async (part) => {
        seen.push(turns);
        return part;
      },
      async (n) => n,
    );
    running = false;
    // Three chunks, each after at least one more turn than the one before.
    expect(seen[1]! > seen[0]! && seen[2]! > seen[1]!).toBe(true);
  });
});
