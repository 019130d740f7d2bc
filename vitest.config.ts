import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: one worker on a 2-core machine, which leaves a
    // core idle while a test file waits on its database, its fakes or a socket. Two at least.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      'packages/contract/vitest.config.ts',
      'apps/server/vitest.config.ts',
      'apps/web/vitest.config.ts',
    ],
  },
});
