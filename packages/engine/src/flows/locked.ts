import type { StateBackend } from '../state/backend.js';
import { withStateLock } from '../state/lock.js';
import type { LockHolder } from '../state/lock-holder.js';

/** What a flow tells while it takes the state lock. */
export type LockEvent =
  | { type: 'lock-wait'; holder: LockHolder | undefined; timeoutMs: number }
  /** A lock left by a run that is gone was removed: `removed` says what and why. */
  | { type: 'lock-stale'; removed: string };

export interface LockedFlowOptions {
  /** What holds the lock, shown to whoever finds it held, e.g. `monitor deploy`. */
  command: string;
  /** How long to wait for a held lock. @default 0 */
  lockTimeoutMs?: number;
  onEvent?: (event: LockEvent) => void;
}

/** Run a flow's `body` holding the state lock, telling `onEvent` of a wait or a stale lock removed. */
export function lockedFlow<T>(
  backend: Pick<StateBackend, 'lock'>,
  options: LockedFlowOptions,
  body: () => Promise<T>,
): Promise<T> {
  const timeoutMs = options.lockTimeoutMs ?? 0;
  return withStateLock(
    backend,
    {
      command: options.command,
      timeoutMs,
      onWait: (holder) => options.onEvent?.({ type: 'lock-wait', holder, timeoutMs }),
      onStale: (removed) => options.onEvent?.({ type: 'lock-stale', removed }),
    },
    body,
  );
}
