import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Some tests run Node on a project file (location.test.ts: 12 s alone, past 30 s on a loaded
    // 2-core machine running every package's tests at once). A slow machine is slow, not wrong: the
    // timeout is there to catch a hang only, as in the other packages.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // When a file ends, no process it started may still run (test/support/no-stray-children.ts).
    setupFiles: ['../../test/support/no-stray-children.ts'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
