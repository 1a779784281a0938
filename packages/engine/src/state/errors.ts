import { EngineError } from '../errors.js';
import { describeHolder, type LockHolder } from './lock-holder.js';

/** Another deploy or destroy holds the lock (exit code 6). */
export class LockHeldError extends EngineError {
  static override readonly code = 'locked';
  override readonly name = 'LockHeldError';
  readonly holder: LockHolder | undefined;
  /** `hint`: how this backend's lock is freed when its holder is gone. */
  constructor(holder: LockHolder | undefined, hint: string) {
    super(`another run holds the state lock: ${describeHolder(holder)}`, hint);
    this.holder = holder;
  }
}
