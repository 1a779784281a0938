import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Real servers and processes: a loaded CI machine (every package's tests at once) is slow, not
    // wrong, so the timeout is there to catch a hang only.
    testTimeout: 120_000,
    // The same for hooks (they start servers, emulators and processes) and onTestFinished: vitest's
    // 10 s default is tighter than the tests' own.
    hookTimeout: 120_000,
    // When a file ends, no process it started may still run (test/support/no-stray-children.ts).
    setupFiles: ['../../test/support/no-stray-children.ts'],
  },
});
