import { defineConfig } from '@monitor/constructs';

/** The platform team owns the channels that page people; team projects reference them. */
export default defineConfig({ projectName: 'platform' });
