import { defineConfig } from '@monitor/constructs';

export default defineConfig({
  projectName: 'team-checkout',
  defaults: { CheckGroup: { runtimeId: '2026.04', locations: ['eu-west-1'] } },
});
