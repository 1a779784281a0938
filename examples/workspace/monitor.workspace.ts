import { defineWorkspace } from '@monitor/constructs';

/**
 * The projects of this repository. `monitor deploy --all --yes` deploys them in dependency order
 * (platform first: the teams reference its channels); `monitor diff --changed-since origin/main`
 * plans only the projects a branch touched, and those that reference them.
 */
export default defineWorkspace({
  projects: ['platform', 'teams/*', 'status'],
});
