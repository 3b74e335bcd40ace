import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    globalSetup: ['./test/buildOnce.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
});
