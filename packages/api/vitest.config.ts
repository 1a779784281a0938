import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Real servers on loopback: a loaded CI machine (every package's tests at once) is slow, not wrong.
    testTimeout: 30_000,
  },
});
