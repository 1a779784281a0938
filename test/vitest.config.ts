import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', 'fixtures/**'],
    testTimeout: 60_000,
    server: {
      deps: {
        // Load the built packages natively, as users run them: inlining them through vitest's module
        // runner would also route the loader's import of the project bundle through it.
        external: [/\/packages\/[^/]+\/dist\//],
      },
    },
  },
});
