import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { EngineError } from '../errors.js';
import {
  emptyState,
  type State,
  type StateEntry,
  serializeState,
  stateEntrySchema,
  stateSchema,
} from './state.js';

/** Where state lives. The file backend is the default; others (e.g. a bucket) can implement this. */
export interface StateStore {
  /** The stored state, or an empty one when there is none yet. */
  read(): State;
  /** Save `state` with its serial incremented; returns what was saved. */
  write(state: State): State;
  /**
   * Durably record entries (`null`: a removal) and pending creates (`true`: about to be sent,
   * `false`: settled), all or none, then apply them to `state` in place (`applyChanges`), so a
   * deploy of N writes costs N small appends, not N copies of the state. Cheap enough to call
   * around every write of a deploy; `write` compacts.
   */
  record(state: State, changes: StateChanges, pending?: PendingChanges): void;
  readonly location: string;
}

/** Entries by `Kind:logicalId`; `null` removes one. */
export type StateChanges = Record<string, StateEntry | null>;
/** Pending creates by `Kind:logicalId`: `true` when the request is about to be sent, `false` once settled. */
export type PendingChanges = Record<string, boolean>;

const journalLineSchema = z.strictObject({
  serial: z.number().int().min(1),
  changes: z.record(z.string(), stateEntrySchema.nullable()),
  pending: z.record(z.string(), z.boolean()).optional(),
});

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

/**
 * One JSON file per account, `<dir>/<accountId>.json`, written atomically (temp file, fsync,
 * rename), plus an append-only journal `<accountId>.journal` of the entries recorded since.
 * Rewriting a 5,000-resource file after every write of a deploy would cost more than the API
 * calls; appending one line does not. Reading replays the journal; `write` folds it in.
 */
export class FileStateStore implements StateStore {
  readonly location: string;
  readonly journalLocation: string;
  readonly #dir: string;
  readonly #accountId: string;
  #journalFd: number | undefined;

  constructor(dir: string, accountId: string) {
    this.#dir = dir;
    this.#accountId = accountId;
    this.location = join(dir, `${accountId}.json`);
    this.journalLocation = join(dir, `${accountId}.journal`);
  }

  read(): State {
    return this.#replay(this.#readBase());
  }

  #readBase(): State {
    let text: string;
    try {
      text = readFileSync(this.location, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return emptyState(this.#accountId);
      throw e;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new EngineError(
        'invalid_state',
        `state file ${this.location} is not valid JSON: ${(e as Error).message}`,
        'restore it from git; monitor never writes a partial file',
      );
    }
    const parsed = stateSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new EngineError(
        'invalid_state',
        `state file ${this.location} is not a monitor state (format ${String((raw as { formatVersion?: unknown }).formatVersion)}): ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
        'restore it from git, or upgrade monitor if it was written by a newer version',
      );
    }
    if (parsed.data.accountId !== this.#accountId) {
      throw new EngineError(
        'invalid_state',
        `state file ${this.location} belongs to account ${parsed.data.accountId}, not ${this.#accountId}`,
        'check MONITOR_ACCOUNT_ID',
      );
    }
    return parsed.data as State;
  }

  #replay(base: State): State {
    let text: string;
    try {
      text = readFileSync(this.journalLocation, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return base;
      throw e;
    }
    const state = copyState(base);
    const lines = text.split('\n');
    for (const [i, line] of lines.entries()) {
      if (line.trim() === '') continue;
      let parsed: z.infer<typeof journalLineSchema>;
      try {
        parsed = journalLineSchema.parse(JSON.parse(line));
      } catch (e) {
        // Only the last line can be torn (a crash while appending); what it described is lost.
        if (i === lines.length - 1 || lines.slice(i + 1).every((l) => l.trim() === '')) break;
        throw new EngineError(
          'invalid_state',
          `state journal ${this.journalLocation} line ${i + 1} is damaged: ${(e as Error).message}`,
          'restore the state file from git and run monitor diff: resources not in state are adopted by name',
        );
      }
      // Lines already folded into the base (a crash between compaction and removing the journal).
      if (parsed.serial <= state.serial) continue;
      applyChanges(state, parsed.changes as StateChanges, parsed.pending);
      state.serial = parsed.serial;
    }
    return state;
  }

  record(state: State, changes: StateChanges, pending: PendingChanges = {}): void {
    const serial = state.serial + 1;
    if (this.#journalFd === undefined) {
      mkdirSync(this.#dir, { recursive: true });
      // The journal builds on a base file: the salt of its secret hashes must be on disk first.
      if (!existsSync(this.location)) this.#writeFile(state);
      this.#journalFd = openSync(this.journalLocation, 'a');
    }
    const line = Object.keys(pending).length === 0 ? { serial, changes } : { serial, changes, pending };
    writeSync(this.#journalFd, `${JSON.stringify(line)}\n`);
    fdatasyncSync(this.#journalFd);
    applyChanges(state, changes, pending);
  }

  write(state: State): State {
    const next: State = { ...state, serial: state.serial + 1 };
    this.#writeFile(next);
    if (this.#journalFd !== undefined) {
      closeSync(this.#journalFd);
      this.#journalFd = undefined;
    }
    rmSync(this.journalLocation, { force: true });
    return next;
  }

  /** Stop appending to the journal (it stays on disk until the next `write`). */
  close(): void {
    if (this.#journalFd !== undefined) closeSync(this.#journalFd);
    this.#journalFd = undefined;
  }

  #writeFile(next: State): void {
    mkdirSync(this.#dir, { recursive: true });
    const tmp = join(this.#dir, `.${this.#accountId}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, serializeState(next));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      renameSync(tmp, this.location);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
  }
}
