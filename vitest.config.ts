import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const contractSource = fileURLToPath(new URL('./packages/contract/src/index.ts', import.meta.url));
const alias = { '@youju/contract': contractSource };

/**
 * One runner for every suite. `scripts/test.mjs` picks projects and passes the database to run
 * against; `npx vitest run --project contract` works for a quick look.
 */
export default defineConfig({
  test: {
    projects: [
      { resolve: { alias }, test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'] } },
      // The checks and the web unit suite run beside a server or browser suite (scripts/test.mjs):
      // on a busy machine a test that spawns a checker or loads a screen's modules can take seconds.
      { test: { name: 'tooling', include: ['scripts/**/*.test.mjs'], testTimeout: 60_000 } },
      {
        resolve: { alias },
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          globalSetup: ['apps/server/test/support/compile-server.ts'],
          // The files of a run share one module graph: the server's source is loaded once per worker
          // instead of once per file (most of the suite's import time). Every test builds its own
          // servers and databases, and no source module keeps state across servers.
          isolate: false,
          // Test servers hash passwords at a low scrypt cost (src/lib/passwords.ts; only with
          // NODE_ENV=test, which the runner sets); server processes the tests spawn inherit it.
          env: { YOUJU_TEST_FAST_PASSWORDS: '1' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'browser',
          include: ['apps/web/e2e/**/*.test.ts'],
          // Passed on to the built server (e2e/support/server.ts): a low scrypt cost, as above.
          env: { YOUJU_TEST_FAST_PASSWORDS: '1' },
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // A browser test that fails is run once more; its first failure still prints the page log
          // (support/browser.ts), so a flake is seen and can be chased rather than hidden.
          retry: 1,
        },
      },
    ],
  },
});
