import { EngineError } from '../errors.js';

/** A group named to `monitor routes` that the project does not have. */
export class UnknownGroupError extends EngineError {
  static override readonly code = 'unknown_group';
  override readonly name = 'UnknownGroupError';
}
