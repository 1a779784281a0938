import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { EngineError } from '../errors.js';
import type { LockRequest, StateBackend } from './backend.js';

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

/** What a backend's lock request says (the command defaults to `monitor`), and how often to look again. */
export interface LockOptions extends Partial<LockRequest> {
  /** @default 200 */
  pollMs?: number;
}

/** The holder a lock file names, if it can be read. */
export function readLockHolder(path: string): LockHolder | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
  } catch {
    return undefined;
  }
}

/** Whether the holder is a process running on this host now. */
export function isAliveHere(holder: LockHolder | undefined): boolean {
  if (holder === undefined || holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock on this host whose process is gone is stale. Locks of other hosts are never guessed stale. */
function isStale(holder: LockHolder | undefined): boolean {
  return holder !== undefined && holder.host === hostname() && !isAliveHere(holder);
}

/**
 * Take the lock file (created exclusively, holding pid, host and start time). Resolves to the
 * release function; a held lock is a LockHeldError after `timeoutMs`.
 */
export async function acquireLock(path: string, options: LockOptions = {}): Promise<() => void> {
  let deadline: number | undefined;
  const me: LockHolder = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    command: options.command ?? 'monitor',
  };
  mkdirSync(dirname(path), { recursive: true });
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      try {
        writeSync(fd, `${JSON.stringify(me)}\n`);
      } finally {
        closeSync(fd);
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (readLockHolder(path)?.pid === me.pid) rmSync(path, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = readLockHolder(path);
    if (isStale(holder)) {
      rmSync(path, { force: true });
      continue;
    }
    if (deadline === undefined) {
      deadline = Date.now() + (options.timeoutMs ?? 0);
      if (options.timeoutMs) options.onWait?.(holder);
    }
    if (Date.now() >= deadline)
      throw new LockHeldError(holder, `wait for it to finish, or remove ${path} if that process is gone`);
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 200));
  }
}

/** Run `body` holding the backend's deploy lock, and release it however `body` ends. */
export async function withStateLock<T>(
  backend: Pick<StateBackend, 'lock'>,
  request: LockRequest,
  body: () => Promise<T>,
): Promise<T> {
  const release = await backend.lock(request);
  try {
    return await body();
  } finally {
    await release();
  }
}
