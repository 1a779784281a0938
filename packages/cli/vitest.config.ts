import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The CLI in child processes: a loaded CI machine is slow, not wrong; the timeout catches a hang.
    testTimeout: 120_000,
    // The same for hooks (they start servers, emulators and processes) and onTestFinished: vitest's
    // 10 s default is tighter than the tests' own.
    hookTimeout: 120_000,
    // When a file ends, no process it started may still run (test/support/no-stray-children.ts).
    setupFiles: ['../../test/support/no-stray-children.ts'],
  },
});
