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
   * Durably record entries (`null`: a removal) on top of `state`, all or none, serial
   * incremented. Cheap enough to call after every write of a deploy; `write` compacts.
   */
  record(state: State, changes: StateChanges): State;
  readonly location: string;
}

/** Entries by `Kind:logicalId`; `null` removes one. */
export type StateChanges = Record<string, StateEntry | null>;

const journalLineSchema = z.strictObject({
  serial: z.number().int().min(1),
  changes: z.record(z.string(), stateEntrySchema.nullable()),
});

function applyChanges(resources: Record<string, StateEntry>, changes: StateChanges): void {
  for (const [key, entry] of Object.entries(changes)) {
    if (entry === null) delete resources[key];
    else resources[key] = entry;
  }
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
    const state: State = { ...base, resources: { ...base.resources } };
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
      applyChanges(state.resources, parsed.changes as StateChanges);
      state.serial = parsed.serial;
    }
    return state;
  }

  record(state: State, changes: StateChanges): State {
    const next: State = { ...state, serial: state.serial + 1, resources: { ...state.resources } };
    applyChanges(next.resources, changes);
    if (this.#journalFd === undefined) {
      mkdirSync(this.#dir, { recursive: true });
      // The journal builds on a base file: the salt of its secret hashes must be on disk first.
      if (!existsSync(this.location)) this.#writeFile(state);
      this.#journalFd = openSync(this.journalLocation, 'a');
    }
    writeSync(this.#journalFd, `${JSON.stringify({ serial: next.serial, changes })}\n`);
    fdatasyncSync(this.#journalFd);
    return next;
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
