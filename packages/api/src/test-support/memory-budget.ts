import {
  type AccountBudget,
  type BudgetGrant,
  type BudgetLedger,
  emptyLedger,
  leaveLedger,
  takeFromLedger,
} from '../account-budget.js';
import type { RateLimit } from '../rate-limits.js';

/** One ledger that several runs (`MemoryBudget`s) of one process share, as a file or a row would be. */
export interface SharedLedger {
  ledger: BudgetLedger;
  /** Every take: when, by whom, how many asked and granted. */
  takes: { at: number; run: string; asked: number; granted: number }[];
}

export const sharedLedger = (): SharedLedger => ({ ledger: emptyLedger(), takes: [] });

/** A budget kept in memory, on `Date.now()` (which fake timers drive): the ledger's rules without a store. */
export class MemoryBudget implements AccountBudget {
  readonly location = 'memory';
  readonly #shared: SharedLedger;
  readonly #run: string;
  readonly limit: RateLimit;

  constructor(shared: SharedLedger, limit: RateLimit, run: string) {
    this.#shared = shared;
    this.limit = limit;
    this.#run = run;
  }

  async take(count: number): Promise<BudgetGrant> {
    const now = Date.now();
    const { ledger, grant } = takeFromLedger(this.#shared.ledger, {
      now,
      count,
      limit: this.limit,
      run: this.#run,
    });
    this.#shared.ledger = ledger;
    this.#shared.takes.push({ at: now, run: this.#run, asked: count, granted: grant.granted });
    return grant;
  }

  async close(): Promise<void> {
    this.#shared.ledger = leaveLedger(this.#shared.ledger, this.#run);
  }
}
