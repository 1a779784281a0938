import * as nodeFs from 'node:fs';
import { join } from 'node:path';
import { type AtomicWriteFs, writeFileAtomic } from '@monitor/api';
import { z } from '@monitor/api/zod';
import { InvalidStateError, stateStorageError } from '../errors.js';
import {
  applyChanges,
  copyState,
  type LockRequest,
  type PendingChanges,
  type ReadOptions,
  type StateBackend,
  type StateChanges,
} from './backend.js';
import { LockHeldError } from './errors.js';
import { acquireLock, isAliveHere, readLockHolder } from './lock.js';
import type { ClearedLock } from './lock-holder.js';
import {
  checkIntegrity,
  emptyState,
  parseStateText,
  type State,
  stateEntrySchema,
  stateTextPieces,
} from './state.js';

/** Run a file-system step on state; its errno failures become coded errors with a way out. */
function storage<T>(action: string, path: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    throw e instanceof InvalidStateError ? e : stateStorageError(action, path, e);
  }
}

/** How much of a state file or journal is read at a time. */
const READ_RUN_BYTES = 64 * 1024;

/**
 * A file's text, read a run at a time. Not `readFileSync(path, 'utf8')`, which reads the whole file
 * into one block outside the JS heap: once glibc's malloc frees a block that large, it raises its
 * threshold for handing freed memory back to the system to match, and the rest of the run keeps
 * tens of MB it no longer uses (a no-change diff of 30,000 resources, whose state file is 18 MB,
 * peaked 20 to 50 MB higher). Invalid UTF-8 reads as U+FFFD and a BOM is kept, as there.
 */
function readTextInRuns(fs: StateFs, path: string): string {
  const fd = fs.openSync(path, 'r');
  try {
    const run = Buffer.allocUnsafe(READ_RUN_BYTES);
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    let text = '';
    for (let length = fs.readSync(fd, run); length > 0; length = fs.readSync(fd, run)) {
      text += decoder.decode(run.subarray(0, length), { stream: true });
    }
    return text + decoder.decode();
  } finally {
    fs.closeSync(fd);
  }
}

const journalLineSchema = z.strictObject({
  serial: z.number().int().min(1),
  changes: z.record(z.string(), stateEntrySchema.nullable()),
  pending: z.record(z.string(), z.boolean()).optional(),
});

/**
 * One JSON file per account, `<dir>/<accountId>.json`, written atomically (temp file, fsync,
 * rename), plus an append-only journal `<accountId>.journal` of the entries recorded since.
 * Rewriting a 5,000-resource file after every write of a deploy would cost more than the API
 * calls; appending one line does not. Reading replays the journal; `commit` folds it in.
 */
/** The file-system calls the file backend makes; tests pass one that fails (a full disk). */
export type StateFs = AtomicWriteFs &
  Pick<
    typeof nodeFs,
    | 'existsSync'
    | 'readSync'
    | 'fdatasync'
    | 'mkdirSync'
    | 'openSync'
    | 'rmSync'
    | 'writeSync'
    | 'closeSync'
    | 'fstatSync'
    | 'ftruncateSync'
    | 'readFileSync'
    | 'statSync'
    | 'linkSync'
  >;

/** A record whose line is written, waiting for the sync that makes it durable. */
interface UnsyncedRecord {
  state: State;
  changes: StateChanges;
  pending: PendingChanges;
  done: () => void;
  failed: (error: unknown) => void;
}

export class FileStateBackend implements StateBackend {
  readonly location: string;
  readonly journalLocation: string;
  readonly lockLocation: string;
  readonly #dir: string;
  readonly #accountId: string;
  readonly #fs: StateFs;
  #journalFd: number | undefined;
  /** Bytes of whole lines written to the journal: a failed write is cut back to this. */
  #writtenSize = 0;
  /** Bytes of lines known to be on disk: a failed sync is cut back to this. */
  #durableSize = 0;
  /** Why the journal can take no more lines in this run (a write failed and could not be undone). */
  #journalBroken: Error | undefined;
  /** Records whose lines are written and wait for the next sync: one sync makes them all durable. */
  #unsynced: UnsyncedRecord[] = [];
  /** Records whose lines the sync under way covers; undefined when none is under way. */
  #syncing: { records: UnsyncedRecord[]; ended: Promise<void> } | undefined;
  #syncScheduled = false;

  constructor(dir: string, accountId: string, fs: StateFs = nodeFs) {
    this.#fs = fs;
    this.#dir = dir;
    this.#accountId = accountId;
    this.location = join(dir, `${accountId}.json`);
    this.journalLocation = join(dir, `${accountId}.journal`);
    this.lockLocation = join(dir, `${accountId}.lock`);
  }

  async read(options: ReadOptions = {}): Promise<State> {
    // What this backend wrote and is still syncing is read as it will be: on disk, or cut back.
    await this.#flush();
    const state = storage('read the state file', this.location, () => this.#replay(this.#readBase()));
    return options.allowDamaged === true ? state : checkIntegrity(state, this.location);
  }

  async lock(request: LockRequest): Promise<() => Promise<void>> {
    try {
      const release = await acquireLock(this.lockLocation, request, this.#fs);
      return async () => release();
    } catch (e) {
      throw stateStorageError('take the state lock', this.lockLocation, e);
    }
  }

  #readBase(): State {
    let text: string;
    try {
      text = readTextInRuns(this.#fs, this.location);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return emptyState(this.#accountId);
      throw e;
    }
    const state = parseStateText(text, this.location);
    if (state.accountId !== this.#accountId) {
      throw new InvalidStateError(
        `state file ${this.location} belongs to account ${state.accountId}, not ${this.#accountId}`,
        'check MONITOR_ACCOUNT_ID',
      );
    }
    return state;
  }

  #replay(base: State): State {
    let text: string;
    try {
      text = readTextInRuns(this.#fs, this.journalLocation);
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
        throw new InvalidStateError(
          `state journal ${this.journalLocation} line ${i + 1} is damaged: ${(e as Error).message}`,
          'restore the state file from git and run monitor diff: resources it no longer lists show as conflicts, which adopt: true on their constructs resolves',
        );
      }
      // Lines already folded into the base (a crash between compaction and removing the journal).
      if (parsed.serial <= state.serial) continue;
      applyChanges(state, parsed.changes as StateChanges, parsed.pending);
      state.serial = parsed.serial;
    }
    return state;
  }

  /**
   * Write the line now, and resolve once it is on disk, with the changes applied to `state` (from
   * `changes` and `pending` as they are then: not to be changed meanwhile). The journal is synced
   * off the main thread, one sync at a time, each for every line written before it started: the
   * lines of parallel writes share a sync, and the deploy goes on while the disk works (a deploy of
   * 30,000 creates records 60,000 lines; a blocking sync each was most of it).
   */
  async record(state: State, changes: StateChanges, pending: PendingChanges = {}): Promise<void> {
    // Lines not yet applied are counted into the serial: they must all be lines of this state.
    for (
      let waiting = this.#unsynced[0] ?? this.#syncing?.records[0];
      waiting !== undefined && waiting.state !== state;
      waiting = this.#unsynced[0] ?? this.#syncing?.records[0]
    ) {
      await this.#flush();
    }
    const serial = state.serial + 1 + (this.#syncing?.records.length ?? 0) + this.#unsynced.length;
    storage('record to the state journal', this.journalLocation, () =>
      this.#append(state, serial, changes, pending),
    );
    await new Promise<void>((done, failed) => {
      this.#unsynced.push({ state, changes, pending, done, failed });
      // At the end of this turn of the event loop, so that the answers it handles share the sync.
      if (this.#syncing === undefined && !this.#syncScheduled) {
        this.#syncScheduled = true;
        setImmediate(() => this.#startSync());
      }
    });
  }

  /**
   * Append one line, or leave the journal as it was: a write that fails part way (a full disk
   * writes what fits) is cut back to the last whole line, so a torn line never sits under the next
   * one. When even that fails, the journal takes no more lines in this run.
   */
  #append(state: State, serial: number, changes: StateChanges, pending: PendingChanges): void {
    if (this.#journalBroken !== undefined) throw this.#journalBroken;
    if (this.#journalFd === undefined) {
      this.#fs.mkdirSync(this.#dir, { recursive: true });
      // The journal builds on a base file: the salt of its secret hashes must be on disk first.
      if (!this.#fs.existsSync(this.location)) this.#writeFile(state);
      this.#journalFd = this.#fs.openSync(this.journalLocation, 'a');
      this.#writtenSize = this.#fs.fstatSync(this.#journalFd).size;
      this.#durableSize = this.#writtenSize;
    }
    const fd = this.#journalFd;
    const line = Object.keys(pending).length === 0 ? { serial, changes } : { serial, changes, pending };
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`, 'utf8');
    try {
      for (let written = 0; written < bytes.length; ) {
        written += this.#fs.writeSync(fd, bytes, written, bytes.length - written);
      }
    } catch (error) {
      this.#cutBack(fd, this.#writtenSize, error);
      throw error;
    }
    this.#writtenSize += bytes.length;
  }

  /**
   * Sync every line written so far, unless a sync is under way (the next starts when it ends); then
   * apply their records in order. A failed sync fails every record not yet durable and applies
   * none: their lines are cut back, so that what follows never builds on them.
   */
  #startSync(): void {
    this.#syncScheduled = false;
    const fd = this.#journalFd;
    if (this.#syncing !== undefined || this.#unsynced.length === 0) return;
    if (fd === undefined) {
      const closed = new Error(
        `the state journal ${this.journalLocation} was closed before its lines were synced`,
      );
      for (const record of this.#unsynced.splice(0)) record.failed(closed);
      return;
    }
    const records = this.#unsynced.splice(0);
    const size = this.#writtenSize;
    const ended = new Promise<void>((end) => {
      const synced = (error: NodeJS.ErrnoException | null | undefined) => {
        this.#syncing = undefined;
        if (error === null || error === undefined) {
          this.#durableSize = size;
          for (const record of records) {
            applyChanges(record.state, record.changes, record.pending);
            record.done();
          }
        } else {
          this.#cutBack(fd, this.#durableSize, error);
          this.#writtenSize = this.#durableSize;
          const failure = stateStorageError('record to the state journal', this.journalLocation, error);
          for (const record of [...records, ...this.#unsynced.splice(0)]) record.failed(failure);
        }
        end();
        this.#startSync();
      };
      try {
        this.#fs.fdatasync(fd, synced);
      } catch (error) {
        queueMicrotask(() => synced(error as NodeJS.ErrnoException));
      }
    });
    this.#syncing = { records, ended };
  }

  /** Whether a line is written and not yet on disk (or failed). */
  #linesWaiting(): boolean {
    return this.#syncing !== undefined || this.#unsynced.length > 0;
  }

  /** Wait until every line written so far is on disk (or its record failed). */
  async #flush(): Promise<void> {
    while (this.#linesWaiting()) {
      this.#startSync();
      const syncing = this.#syncing;
      if (syncing === undefined) break;
      await syncing.ended;
    }
  }

  /** Cut the journal back to `size`; when that fails too, it takes no more lines in this run. */
  #cutBack(fd: number, size: number, error: unknown): void {
    try {
      this.#fs.ftruncateSync(fd, size);
    } catch {
      this.#journalBroken = stateStorageError('record to the state journal', this.journalLocation, error);
    }
  }

  async commit(state: State): Promise<State> {
    // Checked here, with nothing awaited after it: no line can be written between the check and
    // the journal's removal.
    while (this.#linesWaiting()) await this.#flush();
    const next: State = { ...state, serial: state.serial + 1 };
    storage('write the state file', this.location, () => this.#writeFile(next));
    if (this.#journalFd !== undefined) {
      this.#fs.closeSync(this.#journalFd);
      this.#journalFd = undefined;
    }
    this.#fs.rmSync(this.journalLocation, { force: true });
    return next;
  }

  /**
   * Remove the lock file of a run that is gone, including one of another host, which this host
   * cannot check, and one that names no run. A run alive on this host keeps it: a `LockHeldError`.
   */
  async forceUnlock(): Promise<ClearedLock> {
    if (!this.#fs.existsSync(this.lockLocation)) return { holder: undefined, removed: undefined };
    const holder = readLockHolder(this.lockLocation, this.#fs);
    if (isAliveHere(holder)) throw new LockHeldError(holder, 'wait for it to finish, or stop it first');
    storage('remove the state lock', this.lockLocation, () =>
      this.#fs.rmSync(this.lockLocation, { force: true }),
    );
    return {
      holder,
      removed:
        holder === undefined
          ? `the lock file ${this.lockLocation}, which named no run (empty or unreadable)`
          : `the lock file ${this.lockLocation}`,
    };
  }

  /** Stop appending to the journal (it stays on disk until the next `commit`). */
  async close(): Promise<void> {
    while (this.#linesWaiting()) await this.#flush();
    if (this.#journalFd !== undefined) this.#fs.closeSync(this.#journalFd);
    this.#journalFd = undefined;
  }

  #writeFile(next: State): void {
    writeFileAtomic(this.location, stateTextPieces(next), this.#fs);
  }
}
