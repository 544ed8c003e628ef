import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'apps/web/test/**/*.test.tsx'],
    // apps/web component tests (*.test.tsx) pick happy-dom with a `@vitest-environment` docblock.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Model inference tests are CPU-heavy on a 2-core machine: files run one at a time.
    fileParallelism: false,
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
