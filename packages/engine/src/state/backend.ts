import type { ByPhysicalId } from '../identity.js';
import type { ClearedLock, LockHolder } from './lock-holder.js';
import type { OtherProjects } from './other-projects.js';
import type { State, StateEntry } from './state.js';

/** Entries by `Kind:logicalId`; `null` removes one. */
export type StateChanges = Record<string, StateEntry | null>;
/** Pending creates by `Kind:logicalId`: `true` when the request is about to be sent, `false` once settled. */
export type PendingChanges = Record<string, boolean>;

export interface LockRequest {
  /** How long to wait for a held lock, counted from when it is first found held. @default 0 */
  timeoutMs?: number;
  /** What holds the lock, shown to whoever finds it held, e.g. `monitor deploy`. */
  command: string;
  /** Called once, when the lock is found held and there is time to wait for it. */
  onWait?: (holder: LockHolder | undefined) => void;
  /** Called when a lock left by a run that is gone was removed, with what was removed and why. */
  onStale?: (removed: string) => void;
}

export interface ReadOptions {
  /** Return a state with integrity problems instead of refusing it. @default false */
  allowDamaged?: boolean;
}

/**
 * Where a project's state lives for one account, and the lock that keeps two deploys apart. The
 * file backend is the default; the engine sees only this interface.
 */
export interface StateBackend {
  /** Where the state is, for messages: a path, or a URL without its password. */
  readonly location: string;
  /**
   * The stored state, or an empty one when there is none yet. A state with integrity problems
   * (`integrityProblems`) is an `InvalidStateError`, unless `allowDamaged`: what the commands that
   * show and repair it read.
   */
  read(options?: ReadOptions): Promise<State>;
  /** Take the deploy lock; resolves to its release. A held lock is a `LockHeldError` after `timeoutMs`. */
  lock(request: LockRequest): Promise<() => Promise<void>>;
  /**
   * Durably record entries and pending creates (`true`: about to be sent, `false`: settled), all
   * or none, then apply them to `state` in place (`applyChanges`). Called around every write of a
   * deploy, so it must be cheap: a journal line or a row, not a copy of the state.
   */
  record(state: State, changes: StateChanges, pending?: PendingChanges): Promise<void>;
  /** Save `state` whole with its serial incremented (compacting what `record` wrote); returns what was saved. */
  commit(state: State): Promise<State>;
  /**
   * Resources of this account that other projects own (→ the project), for
   * backends that hold many projects (a shared database). A plan never takes, changes or deletes
   * them. Absent: the backend sees only this project.
   */
  owners?(): Promise<ByPhysicalId<string>>;
  /**
   * The other projects' states in this account, for backends that hold many projects (a shared
   * database): what references to their constructs resolve against. Absent: see `OtherProjects`.
   */
  otherProjects?(): OtherProjects;
  /**
   * Clear the lock's record of a run that is gone (`monitor state unlock --force`). Resolves to
   * what it cleared; a `LockHeldError` when a live run holds the lock and it cannot be cleared.
   */
  forceUnlock(): Promise<ClearedLock>;
  /** Release what the backend holds open. */
  close(): Promise<void>;
}

/** Put the changes on top of `state`, in place, and increment its serial. */
export function applyChanges(state: State, changes: StateChanges, pending: PendingChanges = {}): void {
  for (const [key, entry] of Object.entries(changes)) {
    if (entry === null) delete state.resources[key];
    else state.resources[key] = entry;
  }
  if (Object.keys(pending).length > 0) {
    const keys = new Set(state.pendingCreates);
    for (const [key, sent] of Object.entries(pending)) {
      if (sent) keys.add(key);
      else keys.delete(key);
    }
    state.pendingCreates = [...keys];
  }
  state.serial++;
}

/** A copy that `applyChanges` can work on without touching `state`. */
export function copyState(state: State): State {
  return { ...state, resources: { ...state.resources }, pendingCreates: [...state.pendingCreates] };
}
