import type { Diagnostic } from '@monitor/constructs';

export type EngineErrorCode =
  | 'config_not_found'
  | 'invalid_project'
  | 'invalid_state'
  | 'invalid_plan'
  | 'locked';

const brandOf = (name: string) => Symbol.for(`@monitor/engine.${name}`);

/**
 * An engine failure with a stable code (fixed by its class), a message naming what failed, and a
 * hint at the fix that names no CLI flag. Recognised by `instanceof` across two copies of this
 * package: instances carry a `Symbol.for` brand per class of their chain.
 */
export abstract class EngineError extends Error {
  static readonly code: EngineErrorCode;
  override readonly name: string = 'EngineError';
  readonly code: EngineErrorCode;
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.code = (new.target as unknown as { code: EngineErrorCode }).code;
    this.hint = hint;
    for (let c: unknown = new.target; typeof c === 'function' && c !== Error; c = Object.getPrototypeOf(c)) {
      Object.defineProperty(this, brandOf((c as { name: string }).name), { value: true });
    }
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // `this` is the class `instanceof` asks about: a subclass checks its own brand.
    // biome-ignore lint/complexity/noThisInStatic: see above
    const brand = brandOf(this.name);
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
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
