import * as nodeFs from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import type { LockRequest, StateBackend } from './backend.js';
import { LockHeldError } from './errors.js';
import { describeHolder, type LockHolder } from './lock-holder.js';

/** What a backend's lock request says (the command defaults to `monitor`), and how often to look again. */
export interface LockOptions extends Partial<LockRequest> {
  /** @default 200 */
  pollMs?: number;
}

/** The file system calls the lock makes: the real one, or a test's full disk. */
export type LockFs = Pick<
  typeof nodeFs,
  | 'openSync'
  | 'writeSync'
  | 'closeSync'
  | 'rmSync'
  | 'readFileSync'
  | 'statSync'
  | 'mkdirSync'
  | 'renameSync'
  | 'linkSync'
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
  fs: Pick<LockFs, 'statSync' | 'readFileSync'> = nodeFs,
  now = Date.now(),
): string | undefined {
  if (holder !== undefined) {
    return holder.host === hostname() && !isAliveHere(holder)
      ? `the lock of ${describeHolder(holder)}, which is no longer running`
      : undefined;
  }
  // A file this run may not read is some run's, alive or not (another user, a umask of 077).
  if (unreadable(path, fs)) return undefined;
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

function unreadable(path: string, fs: Pick<LockFs, 'readFileSync'>): boolean {
  try {
    fs.readFileSync(path, 'utf8');
    return false;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'EACCES' || code === 'EPERM';
  }
}

/**
 * Remove a lock judged stale, unless another run replaced it since: the file is moved aside
 * (atomic), and put back when it is not the one that was judged (another file). Two runs that
 * both judged one stale lock never both take it: the second moves the first one's new lock aside,
 * sees it is not the one it judged, and puts it back.
 */
export function takeOverStale(path: string, judged: nodeFs.Stats, fs: LockFs): boolean {
  const aside = `${path}.stale-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  try {
    fs.renameSync(path, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return true; // gone already: try to take it
    throw e;
  }
  const moved = fs.statSync(aside);
  // The inode alone is not enough: a file system reuses the number of one just removed.
  const same =
    moved.ino === judged.ino &&
    moved.dev === judged.dev &&
    moved.size === judged.size &&
    moved.mtimeMs === judged.mtimeMs;
  if (!same) {
    try {
      fs.linkSync(aside, path); // fails when a third run made one meanwhile: that one stands
    } catch {}
  }
  fs.rmSync(aside, { force: true });
  return same;
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
      const bytes = Buffer.from(`${JSON.stringify(me)}\n`);
      for (let written = 0; written < bytes.length; ) {
        written += fs.writeSync(fd, bytes, written, bytes.length - written);
      }
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
    let judged: nodeFs.Stats;
    try {
      judged = fs.statSync(path);
    } catch {
      continue; // released meanwhile: take it
    }
    const holder = readLockHolder(path, fs);
    const stale = staleLockReason(path, holder, fs);
    // A lock another run put there since it was judged stands: it is waited for like any other.
    if (stale !== undefined && takeOverStale(path, judged, fs)) {
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
