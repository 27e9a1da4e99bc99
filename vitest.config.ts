import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One DynamoDB Local (in memory, free port) and one local API server for the whole run.
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/worker-env.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
