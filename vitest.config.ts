import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/bundle runs with vitest.bundles.config.ts (npm run test:bundles), against the Lambda bundles.
    exclude: [...configDefaults.exclude, 'test/bundle/**'],
    // One DynamoDB Local (in memory, free port) and one local API server for the whole run.
    globalSetup: ['test/support/global-setup.ts', 'test/support/chromium.ts'],
    setupFiles: ['test/support/worker-env.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
