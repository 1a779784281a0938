import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Real servers and processes: a loaded CI machine (every package's tests at once) is slow, not
    // wrong, so the timeout is there to catch a hang only.
    testTimeout: 120_000,
  },
});
