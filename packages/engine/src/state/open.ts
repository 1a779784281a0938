import { join } from 'node:path';
import { localAccountDir } from '../load/config-location.js';
import type { ProjectConfig } from '../load/load.js';
import type { StateBackend } from './backend.js';
import { FileStateBackend } from './file-store.js';
import { PostgresStateBackend } from './postgres-store.js';

export interface OpenStateOptions {
  /** The embedded emulator's account: its state stays beside its data, never in a shared store. */
  local?: boolean;
  /** `MONITOR_STATE_URL` (wins over the config's `state.url`). */
  stateUrl?: string | undefined;
}

/**
 * The state backend of a project for an account: PostgreSQL when a state URL is given (the
 * environment's, else the config's), else the config's state directory. With `local`, always a
 * directory beside the local emulator's data (`localAccountDir`), so that state of the embedded
 * emulator never mixes with the state of real accounts, nor one environment's with another's.
 */
export function openStateBackend(
  project: Pick<ProjectConfig, 'projectDir' | 'config'>,
  accountId: string,
  options: OpenStateOptions = {},
): StateBackend {
  if (options.local === true) {
    return new FileStateBackend(
      join(localAccountDir(project.projectDir, project.config.environment), 'state'),
      accountId,
    );
  }
  const url = nonEmpty(options.stateUrl) ?? project.config.stateUrl;
  if (url !== undefined) {
    return new PostgresStateBackend({ url, project: project.config.projectName, accountId });
  }
  return new FileStateBackend(project.config.stateDir, accountId);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
