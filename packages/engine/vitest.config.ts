import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Builds with esbuild, emulators, state on disk and child processes: a loaded CI machine (every
    // package's tests at once) is slow, not wrong, so the timeout is there to catch a hang only, as
    // in the other packages; the same for hooks and onTestFinished (vitest's default is 10 s).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // When a file ends, no process it started may still run (test/support/no-stray-children.ts).
    setupFiles: ['../../test/support/no-stray-children.ts'],
  },
});
