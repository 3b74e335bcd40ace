import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    globalSetup: ['./test/buildOnce.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    // Tests assert outcomes, not speed: a search that takes 40 s on an idle machine takes minutes
    // on a loaded 2-core one. The bound only ends a test that hangs; speed lives in the benchmarks.
    testTimeout: 600_000,
    // One test file per core: the files are CPU-bound searches and the main process mostly
    // waits (vitest's default leaves one core of two idle).
    maxWorkers: availableParallelism(),
    hookTimeout: 300_000,
  },
});
