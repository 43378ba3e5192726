import { defineConfig } from 'vitest/config';

/**
 * Resolve workspace packages to their TypeScript sources (the `source` export condition). No `import`
 * here: vitest hands these to its workers as `--conditions`, and a forced `import` makes `require()`
 * of dual CJS/ESM packages pick their ESM build (pg's `require('pg-pool')` then breaks).
 */
const resolve = { conditions: ['source', 'node', 'default'] };

export default defineConfig({
  resolve,
  ssr: { resolve: { conditions: resolve.conditions, externalConditions: ['source'] } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'examples/*/src/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'int',
          include: [
            'packages/*/src/**/*.int.test.ts',
            'examples/*/src/**/*.int.test.ts',
            'test/**/*.int.test.ts',
          ],
          globalSetup: ['./test/globalSetup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The container image, built and run with podman (`npm run test:image`, last in `npm test`:
        // the build takes both cores for minutes, so it runs alone). One file at a time: the first
        // builds the image, the next finds it in podman's store, and their containers never meet.
        extends: true,
        test: {
          name: 'image',
          include: ['test/**/*.image.test.ts'],
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 40 * 60_000,
        },
      },
    ],
  },
});
