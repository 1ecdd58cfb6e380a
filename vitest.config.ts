import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: more workers only queue on DynamoDB Local's Java process.
    maxWorkers: 2,
    env: { LOG_LEVEL: 'silent', POWERTOOLS_METRICS_DISABLED: 'true' },
  },
});
