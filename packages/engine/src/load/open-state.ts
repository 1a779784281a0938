import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StateUrlError } from '../errors.js';
import type { StateBackend } from '../state/backend.js';
import { FileStateBackend } from '../state/file-store.js';
import { PostgresStateBackend } from '../state/postgres-store.js';
import { localAccountDir, localRoot } from './config-location.js';
import type { ProjectConfig } from './load.js';

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
  if (options.local === true) return new FileStateBackend(localStateDir(project), accountId);
  const url = nonEmpty(options.stateUrl) ?? project.config.stateUrl;
  if (url !== undefined) {
    return stateBackendAt(url, {
      baseDir: project.projectDir,
      project: project.config.projectName,
      accountId,
    });
  }
  return new FileStateBackend(project.config.stateDir, accountId);
}

/**
 * The state of a project's `--local` account: beside the emulator's data, and in a workspace (whose
 * projects share one local account) a directory per project.
 */
export function localStateDir({ projectDir, config }: Pick<ProjectConfig, 'projectDir' | 'config'>): string {
  const account = localAccountDir(projectDir, config.environment);
  return localRoot(projectDir) === projectDir
    ? join(account, 'state')
    : join(account, 'state', 'projects', config.projectName);
}

/**
 * The backend at a state URL: `postgres://` or `postgresql://` is a database, `file://` or a path
 * (relative to `baseDir`) a directory of state files. Any other scheme is refused, not tried as
 * one of these: `mysql://…` read as PostgreSQL fails far from the cause, and as a path it would
 * make a directory named `mysql:`.
 */
export function stateBackendAt(
  where: string,
  options: { baseDir: string; project: string; accountId: string },
): StateBackend {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(where)?.[1]?.toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') {
    return new PostgresStateBackend({ url: where, project: options.project, accountId: options.accountId });
  }
  if (scheme === 'file') {
    let dir: string;
    try {
      dir = fileURLToPath(where);
    } catch (e) {
      throw new StateUrlError(
        `the state URL ${redactedUrl(where)} is not a file URL of this machine: ${(e as Error).message}`,
        'use file:///absolute/path, or the path itself',
      );
    }
    return new FileStateBackend(dir, options.accountId);
  }
  // One letter before a colon is a Windows drive (C:\state), and an absolute path has no scheme.
  if (scheme !== undefined && scheme.length > 1 && !isAbsolute(where)) {
    throw new StateUrlError(
      `the state URL ${redactedUrl(where)} has the scheme ${scheme}:, where monitor cannot keep state`,
      'use postgres://user@host:5432/db (PostgreSQL) or a directory path (state files), in MONITOR_STATE_URL or state.url',
    );
  }
  return new FileStateBackend(resolve(options.baseDir, where), options.accountId);
}

/** A URL as it may be shown: its scheme and host, never a password (in the user part or the query). */
function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.username === '' ? '' : `${parsed.username}:***@`}${parsed.host}${parsed.pathname}${parsed.search === '' ? '' : '?…'}`;
  } catch {
    return `${url.slice(0, url.indexOf(':') + 1)}//…`;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
