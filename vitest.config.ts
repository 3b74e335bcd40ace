import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    globalSetup: ['./test/buildOnce.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 240_000,
    // One test file per core: the files are CPU-bound searches and the main process mostly
    // waits (vitest's default leaves one core of two idle).
    maxWorkers: availableParallelism(),
    hookTimeout: 60_000,
  },
});
