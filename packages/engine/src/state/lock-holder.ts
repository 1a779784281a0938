/** Who holds a state lock: what the lock file or the holder row records. */
export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
}

/** `monitor deploy (pid 123 on host, since …)`, for messages. */
export function describeHolder(holder: LockHolder | undefined): string {
  return holder === undefined
    ? 'an unknown process'
    : `${holder.command} (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt})`;
}

/** What `monitor state unlock --force` cleared. */
export interface ClearedLock {
  /** The run the lock named, when it named one that could be read. */
  holder: LockHolder | undefined;
  /** What was removed (`the lock file …, which named no run`), or undefined when nothing was locked. */
  removed: string | undefined;
}
