import { existsSync, readFileSync } from 'node:fs';
import { type AtomicWriteFs, writeFileAtomic } from '@monitor/api';
import { EmulatorDataError } from './errors.js';
import type { Outcome, OutcomeRule } from './outcomes.js';

/** A stored record: JSON only, so the whole store persists as one file. */
export type Row = Record<string, unknown>;
/** Records of one kind, by id, in creation order. */
export type Table = Record<string, Row>;

export const TABLES = [
  'checkGroups',
  'dashboards',
  'statusPages',
  'services',
  'statusPageIncidents',
  'statusPageSubscriptions',
  'maintenanceWindows',
  'incidents',
  'alertChannels',
  'checks',
  'errorGroups',
  'testSessionErrorGroups',
  'privateLocations',
  'rootCauseAnalyses',
  'checkSessions',
  'testSessions',
  'checkResults',
] as const;
export type TableName = (typeof TABLES)[number];

export interface AccountData {
  tables: Record<TableName, Table>;
  /** Next integer id per kind. */
  counters: Record<string, number>;
  /** Check outcomes of triggered sessions, by check id (PASSED when absent). */
  outcomes: Record<string, Outcome>;
  /** Outcomes by check, group and location; they win over `outcomes`. */
  outcomeRules: OutcomeRule[];
  /** Check sessions with failed results not yet counted in their error groups. */
  uncountedErrors: string[];
}

export interface StoreData {
  version: 1;
  accounts: Record<string, AccountData>;
}

export function emptyAccount(): AccountData {
  return {
    tables: Object.fromEntries(TABLES.map((t) => [t, {}])) as Record<TableName, Table>,
    counters: {},
    outcomes: {},
    outcomeRules: [],
    uncountedErrors: [],
  };
}

export function nextId(account: AccountData, kind: string): number {
  const id = (account.counters[kind] ?? 0) + 1;
  account.counters[kind] = id;
  return id;
}

/**
 * The emulator's data. In memory; with a file, every write is saved atomically (temp file,
 * fsync, rename), so a kill at any moment leaves either the old or the new file, never half of one.
 */
export class Store {
  data: StoreData;
  readonly #file: string | undefined;
  readonly #fs: AtomicWriteFs | undefined;

  /** `fs` stands in for the file system in tests that make writes fail. */
  constructor(file?: string, fs?: AtomicWriteFs) {
    this.#file = file;
    this.#fs = fs;
    this.data = { version: 1, accounts: {} };
    if (file !== undefined && existsSync(file)) this.data = Store.load(file);
  }

  static load(file: string): StoreData {
    const text = readFileSync(file, 'utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new EmulatorDataError(`emulator data file ${file} is not valid JSON (${(e as Error).message})`, {
        hint: 'move it away to start with a fresh emulator; it was left as it is',
      });
    }
    const data = parsed as Partial<StoreData>;
    if (data.version !== 1 || data.accounts === undefined || typeof data.accounts !== 'object') {
      throw new EmulatorDataError(`emulator data file ${file} is not an emulator store (version 1)`, {
        hint: 'move it away to start with a fresh emulator; it was left as it is',
      });
    }
    for (const account of Object.values(data.accounts)) {
      for (const table of TABLES) account.tables[table] ??= {};
      account.counters ??= {};
      account.outcomes ??= {};
      account.outcomeRules ??= [];
      account.uncountedErrors ??= [];
    }
    return data as StoreData;
  }

  get persistent(): boolean {
    return this.#file !== undefined;
  }

  account(id: string): AccountData {
    let account = this.data.accounts[id];
    if (account === undefined) {
      account = emptyAccount();
      this.data.accounts[id] = account;
    }
    return account;
  }

  /** Save after a write. A no-op in memory. */
  save(): void {
    if (this.#file === undefined) return;
    writeFileAtomic(this.#file, JSON.stringify(this.data), this.#fs);
  }
}
