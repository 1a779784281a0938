import * as nodeFs from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { EngineError } from '../errors.js';
import type { LockRequest, StateBackend } from './backend.js';
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

/** What a backend's lock request says (the command defaults to `monitor`), and how often to look again. */
export interface LockOptions extends Partial<LockRequest> {
  /** @default 200 */
  pollMs?: number;
}

/** The file system calls the lock makes: the real one, or a test's full disk. */
export type LockFs = Pick<
  typeof nodeFs,
  'openSync' | 'writeSync' | 'closeSync' | 'rmSync' | 'readFileSync' | 'statSync' | 'mkdirSync'
>;

/**
 * How long a lock file may stay empty or unreadable before it counts as left behind. A run writes
 * its holder right after creating the file, so only a run that died in between (or a disk that
 * filled) leaves it so for more than an instant; a few seconds spare a slow disk.
 */
export const UNREADABLE_LOCK_STALE_MS = 5_000;

/** The holder a lock file names, if it can be read. */
export function readLockHolder(
  path: string,
  fs: Pick<LockFs, 'readFileSync'> = nodeFs,
): LockHolder | undefined {
  try {
    const holder = JSON.parse(fs.readFileSync(path, 'utf8')) as Partial<LockHolder> | null;
    return typeof holder?.pid === 'number' && typeof holder.host === 'string'
      ? (holder as LockHolder)
      : undefined;
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

/**
 * Why the lock file is one a run left behind, or undefined while it may be held: a holder on this
 * host whose process is gone, or a file that names no holder and has stayed so for a few seconds.
 * Locks of other hosts are never guessed stale.
 */
export function staleLockReason(
  path: string,
  holder: LockHolder | undefined,
  fs: Pick<LockFs, 'statSync'> = nodeFs,
  now = Date.now(),
): string | undefined {
  if (holder !== undefined) {
    return holder.host === hostname() && !isAliveHere(holder)
      ? `the lock of ${describeHolder(holder)}, which is no longer running`
      : undefined;
  }
  let age: number;
  try {
    age = now - fs.statSync(path).mtimeMs;
  } catch {
    return undefined; // gone already: the next attempt takes it
  }
  return age >= UNREADABLE_LOCK_STALE_MS
    ? `the lock file ${path}, which has named no run for ${Math.round(age / 1000)} s (a run that died while taking it, or a full disk)`
    : undefined;
}

/** Create the lock file and write its holder; a file whose holder could not be written is removed. */
function tryCreateLock(path: string, me: LockHolder, fs: LockFs): boolean {
  let fd: number;
  try {
    fd = fs.openSync(path, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    try {
      fs.writeSync(fd, `${JSON.stringify(me)}\n`);
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    // Left empty, the file would lock out every later run (a full disk, say).
    fs.rmSync(path, { force: true });
    throw e;
  }
  return true;
}

/**
 * Take the lock file (created exclusively, holding pid, host and start time). Resolves to the
 * release function; a held lock is a LockHeldError after `timeoutMs`. A lock left behind by a run
 * that is gone is removed (`onStale` says so).
 */
export async function acquireLock(
  path: string,
  options: LockOptions = {},
  fs: LockFs = nodeFs,
): Promise<() => void> {
  let deadline: number | undefined;
  const me: LockHolder = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    command: options.command ?? 'monitor',
  };
  fs.mkdirSync(dirname(path), { recursive: true });
  for (;;) {
    if (tryCreateLock(path, me, fs)) {
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (readLockHolder(path, fs)?.pid === me.pid) fs.rmSync(path, { force: true });
      };
    }
    const holder = readLockHolder(path, fs);
    const stale = staleLockReason(path, holder, fs);
    if (stale !== undefined) {
      fs.rmSync(path, { force: true });
      options.onStale?.(stale);
      continue;
    }
    if (deadline === undefined) {
      deadline = Date.now() + (options.timeoutMs ?? 0);
      if (options.timeoutMs) options.onWait?.(holder);
    }
    if (Date.now() >= deadline)
      throw new LockHeldError(holder, `wait for it to finish, or remove ${path} if that process is gone`);
    await wait(options.pollMs ?? 200);
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
