import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', 'fixtures/**'],
    // A test here is a run of CLI processes (the longest, ~30 s on a slow spell of a 2-core machine):
    // a slow machine is slow, not wrong, so the timeout is there to catch a hang only.
    testTimeout: 180_000,
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
