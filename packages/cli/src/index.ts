export { type CiFile, type CiHost, type CiOptions, ciFiles } from './ci-workflows.js';
export { workspaceCiFiles } from './ci-workspace-workflows.js';
export { constructReference } from './construct-reference.js';
export { EXIT, type ExitCode } from './exit-codes.js';
export { type Io, processIo } from './io.js';
export { CLI_VERSION, main } from './main.js';
export { MONITOR_PACKAGES, packCheckout, type Tarballs } from './pack.js';
export { cliReference } from './reference.js';
