import { describe, expect, it } from 'vitest';
import { createGroupCommit } from './group-commit';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('group commit', () => {
  it('writes what arrives together in one batch and answers each caller with its own result', async () => {
    const batches: number[][] = [];
    const writer = createGroupCommit<number, string>({
      writeBatch: async (items) => {
        batches.push(items);
        return items.map((n) => `done ${n}`);
      },
      writeOne: async (n) => {
        batches.push([n]);
        return `alone ${n}`;
      },
    });
    const answers = await Promise.all([1, 2, 3, 4].map((n) => writer.write(n)));
    expect(answers).toEqual(['done 1', 'done 2', 'done 3', 'done 4']);
    expect(batches).toEqual([[1, 2, 3, 4]]);
  });

  it('gathers the writes asked for while a batch is being written into the next one', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const firstHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    const writer = createGroupCommit<number, number>({
      writeBatch: async (items) => {
        batches.push(items);
        return items;
      },
      writeOne: async (n) => {
        batches.push([n]);
        if (n === 0) await firstHeld;
        return n;
      },
    });
    const first = writer.write(0);
    await tick();
    const later = [1, 2, 3].map((n) => writer.write(n));
    await tick();
    expect(batches).toEqual([[0]]);
    release();
    expect(await Promise.all([first, ...later])).toEqual([0, 1, 2, 3]);
    expect(batches).toEqual([[0], [1, 2, 3]]);
  });

  it('writes each item alone when its batch fails, so one bad item fails only its own caller', async () => {
    const alone: number[] = [];
    const writer = createGroupCommit<number, number>({
      writeBatch: async (items) => {
        if (items.includes(13)) throw new Error('constraint');
        return items;
      },
      writeOne: async (n) => {
        alone.push(n);
        if (n === 13) throw new Error(`item ${n} refused`);
        return n * 10;
      },
    });
    const results = await Promise.allSettled([11, 12, 13, 14].map((n) => writer.write(n)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      110,
      120,
      'item 13 refused',
      140,
    ]);
    expect(alone).toEqual([11, 12, 13, 14]);
  });

  it('keeps batches within the size bound', async () => {
    const sizes: number[] = [];
    const writer = createGroupCommit<number, number>({
      writeBatch: async (items) => {
        sizes.push(items.length);
        return items;
      },
      writeOne: async (n) => {
        sizes.push(1);
        return n;
      },
      maxBatch: 4,
    });
    await Promise.all(Array.from({ length: 10 }, (_, n) => writer.write(n)));
    await writer.drain();
    expect(sizes).toEqual([4, 4, 2]);
  });
});
