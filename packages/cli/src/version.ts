import { createRequire } from 'node:module';

// By package name (a self-reference), so it does not depend on where the compiled file sits.
const { version } = createRequire(import.meta.url)('@monitor/cli/package.json') as { version: string };

/** The version of `@monitor/cli`. */
export const CLI_VERSION = version;
