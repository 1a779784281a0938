import { EngineError } from '../errors.js';

/** The policies of a stage ran past their time, or were interrupted (Ctrl-C), while one was checking. */
export class PolicyStoppedError extends EngineError {
  static override readonly code = 'interrupted';
  override readonly name = 'PolicyStoppedError';
}
