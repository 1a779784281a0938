import { defineConfig } from '@monitor/constructs';

export default defineConfig({
  projectName: 'team-search',
  defaults: { CheckGroup: { runtimeId: '2026.04', locations: ['eu-west-1'] } },
});
