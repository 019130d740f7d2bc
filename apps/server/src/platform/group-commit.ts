/**
 * Group commit: writes asked for while another batch is being written wait and go together in the
 * next transaction, instead of one transaction each. Under load (the WhatsApp webhook at hundreds of
 * deliveries a second) this pays a transaction's fixed cost — BEGIN, COMMIT, the write-ahead log append —
 * once per batch; when the server is quiet a write goes alone at once, so nobody waits for a timer.
 *
 * Each caller still gets its own result or error. When a batch fails as a whole (a deadlock on
 * PostgreSQL, a constraint one item broke), nothing of it was kept, and every item is written again
 * alone, so one bad item never fails the others.
 */
export interface GroupCommitOptions<TItem, TResult> {
  /** Writes a batch in one transaction; one result per item, in order. */
  writeBatch(items: TItem[]): Promise<TResult[]>;
  /** Writes one item alone (its own transaction), after its batch failed. */
  writeOne(item: TItem): Promise<TResult>;
  /** The most items in one transaction (default 200): a bound on how long one commit holds the writer. */
  maxBatch?: number;
}

export interface GroupCommit<TItem, TResult> {
  write(item: TItem): Promise<TResult>;
  /** Resolves once every write asked for so far has been answered. */
  drain(): Promise<void>;
}

interface Waiting<TItem, TResult> {
  item: TItem;
  resolve(result: TResult): void;
  reject(error: unknown): void;
}

export function createGroupCommit<TItem, TResult>(
  options: GroupCommitOptions<TItem, TResult>,
): GroupCommit<TItem, TResult> {
  const maxBatch = options.maxBatch ?? 200;
  let waiting: Waiting<TItem, TResult>[] = [];
  let running: Promise<void> | null = null;

  async function writeAlone(w: Waiting<TItem, TResult>) {
    try {
      w.resolve(await options.writeOne(w.item));
    } catch (error) {
      w.reject(error);
    }
  }

  async function runBatch(batch: Waiting<TItem, TResult>[]) {
    if (batch.length === 1) return writeAlone(batch[0]!);
    let results: TResult[];
    try {
      results = await options.writeBatch(batch.map((w) => w.item));
    } catch {
      for (const w of batch) await writeAlone(w);
      return;
    }
    for (const [i, w] of batch.entries()) w.resolve(results[i] as TResult);
  }

  /** One writer at a time: it takes everything that waits, writes it, and looks again. */
  async function run() {
    while (waiting.length) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(batch.length);
      await runBatch(batch);
    }
    running = null;
  }

  return {
    write(item) {
      return new Promise<TResult>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        // Started on the next turn of the event loop, so the requests whose bodies arrived together
        // share the first batch as well.
        running ??= new Promise<void>((done) => setImmediate(done)).then(run);
      });
    },
    async drain() {
      while (running) await running;
    },
  };
}
