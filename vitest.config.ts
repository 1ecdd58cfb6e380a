import { defineConfig } from 'vitest/config';

/**
 * Two tiers, every test file in exactly one. `*.unit.test.ts` needs neither DynamoDB Local (Java), the other
 * emulators, Chromium, a CDK synth nor an esbuild bundle, so `npm run test:unit` runs it alone in well under a
 * minute; everything else runs against the emulators that global-setup starts. `npm test` runs both.
 */
const UNIT_TESTS = 'test/**/*.unit.test.ts';
const shared = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: 'forks',
  // Two cores: more workers only queue on DynamoDB Local's Java process.
  maxWorkers: 2,
  env: { LOG_LEVEL: 'silent', POWERTOOLS_METRICS_DISABLED: 'true' },
} as const;

export default defineConfig({
  test: {
    ...shared,
    projects: [
      { test: { ...shared, name: 'unit', include: [UNIT_TESTS] } },
      { test: { ...shared, name: 'integration', include: ['test/**/*.test.ts'], exclude: [UNIT_TESTS], globalSetup: ['test/support/global-setup.ts'] } },
    ],
  },
});
