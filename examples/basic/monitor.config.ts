import { defineConfig } from '@monitor/constructs';

export default defineConfig({
  projectName: 'acme-basic',
  include: ['monitors/**/*.monitor.ts', 'status/**/*.monitor.ts'],
  defaults: {
    CheckGroup: { runtimeId: '2026.04', locations: ['eu-west-1'] },
  },
});
