import { CodedError } from '@monitor/api';
import type { Diagnostic } from '@monitor/constructs';

export type EngineErrorCode =
  | 'config_not_found'
  | 'invalid_project'
  | 'invalid_state'
  | 'invalid_plan'
  | 'locked';

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
