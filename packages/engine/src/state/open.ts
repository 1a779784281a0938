import { join } from 'node:path';
import type { LoadedProject } from '../load.js';
import type { StateBackend } from './backend.js';
import { FileStateBackend } from './file-store.js';

/**
 * The state backend of a project for an account: the config's state directory, or with `local`
 * one under `.monitor/local/`, beside the local emulator's data, so that state of the embedded
 * emulator never mixes with the committed state of real accounts.
 */
export function openStateBackend(
  project: LoadedProject,
  accountId: string,
  options: { local?: boolean } = {},
): StateBackend {
  const dir =
    options.local === true ? join(project.projectDir, '.monitor', 'local', 'state') : project.config.stateDir;
  return new FileStateBackend(dir, accountId);
}
