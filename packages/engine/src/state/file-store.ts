import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { EngineError } from '../errors.js';
import { emptyState, type State, serializeState, stateSchema } from './state.js';

/** Where state lives. The file backend is the default; others (e.g. a bucket) can implement this. */
export interface StateStore {
  /** The stored state, or an empty one when there is none yet. */
  read(): State;
  /** Save `state` with its serial incremented; returns what was saved. */
  write(state: State): State;
  readonly location: string;
}

/** One JSON file per account, `<dir>/<accountId>.json`, written atomically (temp file, fsync, rename). */
export class FileStateStore implements StateStore {
  readonly location: string;
  readonly #dir: string;
  readonly #accountId: string;

  constructor(dir: string, accountId: string) {
    this.#dir = dir;
    this.#accountId = accountId;
    this.location = join(dir, `${accountId}.json`);
  }

  read(): State {
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

  write(state: State): State {
    const next: State = { ...state, serial: state.serial + 1 };
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
    return next;
  }
}
