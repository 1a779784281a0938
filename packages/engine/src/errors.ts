import { dirname } from 'node:path';
import { CodedError } from '@monitor/api/definitions';
import type { Diagnostic } from '@monitor/constructs';

export type EngineErrorCode =
  | 'config_not_found'
  | 'invalid_project'
  | 'invalid_state'
  | 'invalid_plan'
  | 'state_storage'
  | 'state_url'
  | 'file_system'
  | 'environment_required'
  | 'locked'
  | 'wrong_service'
  | 'owned_elsewhere'
  | 'state_edit'
  | 'stale_state'
  | 'no_checks'
  | 'bad_target'
  | 'unknown_group'
  | 'bad_filter'
  | 'import_failed'
  | 'nothing_to_verify'
  | 'syntax_error'
  | 'pull_failed'
  | 'workspace_not_found'
  | 'invalid_workspace'
  | 'project_cycle'
  | 'changed_files'
  | 'unknown_project'
  | 'interrupted';

/**
 * An engine failure with a stable code (fixed by its class), a message naming what failed, and a
 * hint at the fix that names no CLI flag. `instanceof` works across package copies (`CodedError`).
 */
export abstract class EngineError extends CodedError {
  static override readonly code: EngineErrorCode;
  override readonly name: string = 'EngineError';
  declare readonly code: EngineErrorCode;
  constructor(message: string, hint?: string) {
    super(message, { hint });
  }
}

/** The config defines environments and none was chosen, where an account is needed. */
export class EnvironmentRequiredError extends EngineError {
  static override readonly code = 'environment_required';
  override readonly name = 'EnvironmentRequiredError';
}

/** No config file where one was looked for. */
export class ConfigNotFoundError extends EngineError {
  static override readonly code = 'config_not_found';
  override readonly name = 'ConfigNotFoundError';
}

/** The state file or journal cannot be read as monitor state. */
export class InvalidStateError extends EngineError {
  static override readonly code = 'invalid_state';
  override readonly name = 'InvalidStateError';
}

/**
 * The state could not be read or written where it lives (a file where a directory should be, a
 * full disk, no permission). What was recorded before stays recorded.
 */
export class StateStorageError extends EngineError {
  static override readonly code = 'state_storage';
  override readonly name = 'StateStorageError';
}

/** A state URL with a scheme monitor cannot keep state at (only PostgreSQL, or a directory). */
export class StateUrlError extends EngineError {
  static override readonly code = 'state_url';
  override readonly name = 'StateUrlError';
}

/** Why a file-system call on state failed, said for people, with the way out. */
export function stateStorageError(action: string, path: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const reason: Record<string, [string, string]> = {
    ENOTDIR: [
      'a part of the path is a file, not a directory',
      'point state.path in monitor.config.ts at a directory (or remove the file that is in the way)',
    ],
    EEXIST: [
      'a part of the path is a file, not a directory',
      'point state.path in monitor.config.ts at a directory (or remove the file that is in the way)',
    ],
    ENOSPC: [
      'the disk is full',
      'free some space and run the same command again: everything done before this is recorded',
    ],
    EDQUOT: ['the disk quota is used up', 'free some space and run the same command again'],
    EACCES: [
      'permission denied',
      'make the state directory writable for this user, or set state.path elsewhere',
    ],
    EPERM: [
      'permission denied',
      'make the state directory writable for this user, or set state.path elsewhere',
    ],
    EROFS: ['the file system is read-only', 'set state.path in monitor.config.ts to a writable directory'],
    EISDIR: ['a directory is where the state file should be', 'remove or rename that directory'],
  };
  const known = code === undefined ? undefined : reason[code];
  if (known === undefined) return error instanceof Error ? error : new Error(String(error));
  return new StateStorageError(`cannot ${action} ${path}: ${known[0]} (${code})`, known[1]);
}

/** A file monitor keeps beside the project (its build, a plan) could not be written. */
export class FileSystemError extends EngineError {
  static override readonly code = 'file_system';
  override readonly name = 'FileSystemError';
}

/** What a file-system error code means, and what to do about it, where `dir` is named. */
const FILE_SYSTEM_REASONS: Record<string, [string, (dir: string) => string]> = {
  ENOSPC: [
    'the disk is full',
    (dir) => `free some space on the disk that holds ${dir}, then run the command again`,
  ],
  EDQUOT: ['the disk quota is used up', (dir) => `free some space in ${dir}, then run the command again`],
  EACCES: ['permission denied', (dir) => `make ${dir} writable for this user`],
  EPERM: ['permission denied', (dir) => `make ${dir} writable for this user`],
  EROFS: [
    'the file system is read-only',
    (dir) => `${dir} is on a read-only file system: run where it is writable`,
  ],
};

/**
 * A file-system failure said for people, naming the file (when known) and the way out: `cannot
 * write /p/.monitor/cache/x.mjs: the disk is full (ENOSPC)`. An error of another kind is returned
 * as it is.
 */
export function fileSystemError(action: string, path: string | undefined, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const known = code === undefined ? undefined : FILE_SYSTEM_REASONS[code];
  if (known === undefined) return error instanceof Error ? error : new Error(String(error));
  return new FileSystemError(
    `cannot ${action}${path === undefined ? '' : ` ${path}`}: ${known[0]} (${code})`,
    known[1](path === undefined ? 'the project' : dirname(path)),
  );
}

/** A saved plan cannot be read or written. */
export class InvalidPlanError extends EngineError {
  static override readonly code = 'invalid_plan';
  override readonly name = 'InvalidPlanError';
}

/**
 * The project could not be loaded (syntax error, missing package, a file that throws, a bad
 * config). Carries the problems as diagnostics, like validation does.
 */
export class ProjectLoadError extends EngineError {
  static override readonly code = 'invalid_project';
  override readonly name = 'ProjectLoadError';
  readonly diagnostics: Diagnostic[];
  /** The config file of the project, when it was found. */
  configPath: string | undefined;
  constructor(message: string, diagnostics: Diagnostic[], hint?: string) {
    super(message, hint);
    this.diagnostics = diagnostics;
  }
}
