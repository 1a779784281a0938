import { hostname } from 'node:os';
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

/** The ledgers of this process, by service and account. */
const ledgers = new Map<string, BudgetLedger>();

/**
 * An account's budget kept in this process only: for the embedded emulator of `--local`, which is
 * the process's own (no other process can call it), while the projects of a workspace run in it
 * side by side and call it at once.
 */
export class MemoryAccountBudget implements AccountBudget {
  readonly location = 'this process';
  readonly limit: RateLimit;
  readonly #key: string;
  readonly #run = budgetRunId(hostname(), process.pid);

  constructor(options: { service: string; accountId: string; limit: RateLimit }) {
    this.#key = `${options.service}\n${options.accountId}`;
    this.limit = options.limit;
  }

  async take(count: number): Promise<BudgetGrant> {
    const { ledger, grant } = takeFromLedger(ledgers.get(this.#key) ?? emptyLedger(), {
      now: Date.now(),
      count,
      limit: this.limit,
      run: this.#run,
    });
    ledgers.set(this.#key, ledger);
    return grant;
  }

  async close(): Promise<void> {
    // Its leases stay until they age out: the next project of the process counts them, as the service does.
    ledgers.set(this.#key, leaveLedger(ledgers.get(this.#key) ?? emptyLedger(), this.#run));
  }
}
