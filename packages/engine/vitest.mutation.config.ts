import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutation` runs against each mutant of `plan/` and `apply/`: every engine test
 * that runs in Stryker's sandbox. The flows that load a project from disk (import, verify against
 * the emulator) resolve `@monitor/constructs` from the workspace, which the sandbox does not hold.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    exclude: ['src/flows/import.test.ts', 'src/flows/verify.test.ts', 'src/flows/trigger.test.ts'],
    testTimeout: 30_000,
  },
});
