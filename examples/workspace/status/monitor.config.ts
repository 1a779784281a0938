import { defineConfig } from '@monitor/constructs';

/** The public status page of every team's services. */
export default defineConfig({ projectName: 'status' });
