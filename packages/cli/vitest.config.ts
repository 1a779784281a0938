import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The CLI in child processes: a loaded CI machine is slow, not wrong; the timeout catches a hang.
    testTimeout: 120_000,
  },
});
