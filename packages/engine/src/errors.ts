import type { Diagnostic } from '@monitor/constructs';

export type EngineErrorCode =
  | 'config_not_found'
  | 'invalid_project'
  | 'invalid_state'
  | 'invalid_plan'
  | 'locked';

/** An engine failure with a stable code, a message naming what failed, and a hint at the fix. */
export class EngineError extends Error {
  override readonly name = 'EngineError';
  readonly code: EngineErrorCode;
  readonly hint: string | undefined;
  constructor(code: EngineErrorCode, message: string, hint?: string) {
    super(message);
    this.code = code;
    this.hint = hint;
  }
}

/**
 * The project could not be loaded (syntax error, missing package, a file that throws, a bad
 * config). Carries the problems as diagnostics, like validation does.
 */
export class ProjectLoadError extends EngineError {
  readonly diagnostics: Diagnostic[];
  /** The config file of the project, when it was found. */
  configPath: string | undefined;
  constructor(message: string, diagnostics: Diagnostic[], hint?: string) {
    super('invalid_project', message, hint);
    this.diagnostics = diagnostics;
  }
}
