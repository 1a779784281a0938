import { defineConfig } from '@monitor/constructs';

/**
 * One codebase, two accounts. `monitor diff --env staging`, `monitor deploy --env production`
 * (or MONITOR_ENV): each environment has its own account, and its own state file (state is kept
 * per account). CI sets MONITOR_API_KEY per environment; MONITOR_ACCOUNT_ID, when set, must match.
 */
export default defineConfig({
  projectName: 'acme-multi-env',
  include: ['monitors/**/*.monitor.ts'],
  environments: {
    staging: { accountId: '5e7a9c1b-3d2f-4e6a-8b0c-1d2e3f4a5b6c' },
    production: { accountId: '9f8e7d6c-5b4a-4392-8a1b-0c9d8e7f6a5b' },
  },
});
