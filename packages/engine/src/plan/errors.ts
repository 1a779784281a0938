import { EngineError } from '../errors.js';

/** A target or a replacement that names nothing the project has, or names it ambiguously. */
export class TargetError extends EngineError {
  static override readonly code = 'bad_target';
  override readonly name = 'TargetError';
}
