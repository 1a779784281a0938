import { EngineError } from '../errors.js';

/** `--all`, `--project` or `--changed-since` outside a workspace. */
export class WorkspaceNotFoundError extends EngineError {
  static override readonly code = 'workspace_not_found';
  override readonly name = 'WorkspaceNotFoundError';
}

/** The workspace file, or what it names, is wrong: a glob that matches no project, two projects of one name. */
export class InvalidWorkspaceError extends EngineError {
  static override readonly code = 'invalid_workspace';
  override readonly name = 'InvalidWorkspaceError';
}

/** Projects that reference each other round a loop: none of them can be deployed first. */
export class ProjectCycleError extends EngineError {
  static override readonly code = 'project_cycle';
  override readonly name = 'ProjectCycleError';
}

/** git could not say what changed: not a repository, or a ref it does not know. */
export class ChangedFilesError extends EngineError {
  static override readonly code = 'changed_files';
  override readonly name = 'ChangedFilesError';
}

/** `--project NAME` names no project of the workspace. */
export class UnknownProjectError extends EngineError {
  static override readonly code = 'unknown_project';
  override readonly name = 'UnknownProjectError';
}
