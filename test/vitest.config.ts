import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', 'fixtures/**'],
    // A test here is a run of CLI processes (the longest, ~30 s on a slow spell of a 2-core machine):
    // a slow machine is slow, not wrong, so the timeout is there to catch a hang only.
    testTimeout: 180_000,
    // The same for hooks (a beforeAll that deploys a project, starts PostgreSQL or bundles packages)
    // and onTestFinished: vitest's 10 s default is tighter than the tests' own.
    hookTimeout: 180_000,
    // When a file ends, no process it started may still run (support/no-stray-children.ts).
    setupFiles: ['./support/no-stray-children.ts'],
    // These files mostly wait: on CLI subprocesses, emulators and PostgreSQL. More of them at once
    // than the machine has cores halves the suite's time on 2 cores (measured: 244 s → 134 s).
    maxWorkers: 4,
    server: {
      deps: {
        // Load the built packages natively, as users run them: inlining them through vitest's module
        // runner would also route the loader's import of the project bundle through it.
        external: [/\/packages\/[^/]+\/dist\//],
      },
    },
  },
});
