import { createHash } from 'node:crypto';
import * as nodeFs from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import {
  type AccountBudget,
  type BudgetGrant,
  type BudgetLedger,
  budgetRunId,
  emptyLedger,
  leaveLedger,
  type RateLimit,
  takeFromLedger,
} from '@monitor/api';
import { acquireLock } from '../state/lock.js';

export interface FileBudgetOptions {
  /** The directory of budget files: `budgetCacheDir()`. */
  dir: string;
  /** The service (`serviceIdentity` of the base URL) and the account: what the budget is of. */
  service: string;
  accountId: string;
  limit: RateLimit;
  /** @default Date.now */
  now?: () => number;
}

/**
 * How long a take waits for the budget file's lock before it gives up (the client then counts its
 * own requests). The lock is held for a read and a write of a small file; a lock left by a process
 * that died on this host is taken over at once (`acquireLock`).
 */
const LOCK_TIMEOUT_MS = 10_000;
/** How often a take looks at a held lock again: it is held for about a millisecond. */
const LOCK_POLL_MS = 2;
/**
 * Budget files untouched for this long are removed when a run first takes from the directory: a
 * service at an address of its own each time (the emulator on a new port) leaves one per address,
 * and none holds a lease that still counts (a window is minutes, an hour at most).
 */
export const FORGOTTEN_AFTER_MS = 7 * 24 * 3600 * 1000;

/**
 * An account's budget in a file on this machine, shared by every run on it: `<dir>/<account>-<hash
 * of service and account>.json`, the ledger as JSON, each take one read and one replace (a temp
 * file renamed over it) under a lock file created exclusively. A file that cannot be read as a
 * ledger is taken for an empty one: it only ever holds the last minute.
 */
export class FileAccountBudget implements AccountBudget {
  readonly location: string;
  readonly limit: RateLimit;
  readonly #lock: string;
  readonly #run = budgetRunId(hostname(), process.pid);
  readonly #now: () => number;
  readonly #dir: string;
  #pruned = false;

  constructor(options: FileBudgetOptions) {
    const key = createHash('sha256').update(`${options.service}\n${options.accountId}`).digest('hex');
    this.location = join(options.dir, `${options.accountId}-${key.slice(0, 16)}.json`);
    this.#lock = `${this.location}.lock`;
    this.#dir = options.dir;
    this.limit = options.limit;
    this.#now = options.now ?? Date.now;
  }

  async take(count: number): Promise<BudgetGrant> {
    if (!this.#pruned) {
      this.#pruned = true;
      removeForgotten(this.#dir, this.#now());
    }
    return this.#update((ledger) => {
      const next = takeFromLedger(ledger, { now: this.#now(), count, limit: this.limit, run: this.#run });
      return { ledger: next.ledger, result: next.grant };
    });
  }

  async close(): Promise<void> {
    try {
      await this.#update((ledger) => ({ ledger: leaveLedger(ledger, this.#run), result: undefined }));
    } catch {
      // A run that cannot leave is counted until its last take ages out: one window.
    }
  }

  /** Read, change and replace the ledger, holding the lock. */
  async #update<T>(change: (ledger: BudgetLedger) => { ledger: BudgetLedger; result: T }): Promise<T> {
    const release = await acquireLock(this.#lock, {
      command: 'monitor (rate budget)',
      timeoutMs: LOCK_TIMEOUT_MS,
      pollMs: LOCK_POLL_MS,
    });
    try {
      const { ledger, result } = change(readLedger(this.location));
      const tmp = `${this.location}.${process.pid}.tmp`;
      nodeFs.writeFileSync(tmp, `${JSON.stringify(ledger)}\n`, { mode: 0o600 });
      nodeFs.renameSync(tmp, this.location);
      return result;
    } finally {
      release();
    }
  }
}

/** Remove the budget files of `dir` untouched for `FORGOTTEN_AFTER_MS`, as far as it can. */
export function removeForgotten(dir: string, now: number): void {
  let names: string[];
  try {
    names = nodeFs.readdirSync(dir);
  } catch {
    return; // none yet: the take makes it
  }
  for (const name of names) {
    if (!name.endsWith('.json') && !name.endsWith('.tmp')) continue;
    const path = join(dir, name);
    try {
      if (now - nodeFs.statSync(path).mtimeMs > FORGOTTEN_AFTER_MS) nodeFs.rmSync(path, { force: true });
    } catch {
      // Removed by another run meanwhile, or not ours to remove: it stays.
    }
  }
}

/** The ledger in `path`; an empty one when there is none, or what is there is not one. */
export function readLedger(path: string): BudgetLedger {
  let text: string;
  try {
    text = nodeFs.readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return emptyLedger();
    throw e;
  }
  try {
    const parsed = JSON.parse(text) as Partial<BudgetLedger> | null;
    const leases = Array.isArray(parsed?.leases)
      ? parsed.leases.filter(
          (l): l is BudgetLedger['leases'][number] =>
            Array.isArray(l) &&
            typeof l[0] === 'number' &&
            typeof l[1] === 'number' &&
            typeof l[2] === 'string',
        )
      : [];
    const runs =
      parsed?.runs !== null && typeof parsed?.runs === 'object' && !Array.isArray(parsed.runs)
        ? Object.fromEntries(Object.entries(parsed.runs).filter(([, seen]) => typeof seen === 'number'))
        : {};
    return { leases, runs };
  } catch {
    return emptyLedger();
  }
}
