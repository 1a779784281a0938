import {
  type AccountBudget,
  BUDGET_BATCH,
  BUDGET_TOKEN_TTL_MS,
  type BudgetGrant,
  otherRunsPhrase,
} from './account-budget.js';
import type { Clock } from './clock.js';
import { WAIT_NOTICE_MS, type WaitNotice } from './wait-notice.js';

/** The shortest wait between two takes: a budget that says "now" again and again is not asked in a loop. */
const MIN_RETRY_MS = 5;

/**
 * After a failed take, how long the run counts alone before it asks the budget again: a lock held
 * a while or one slow query should not leave the run alone at the full limit for hours, beside
 * runs that share it. Doubled after each failure in a row, up to one window of the limit.
 */
const FIRST_BACKOFF_MS = 5_000;

/** What `BudgetDraw.take` came to: a token, a wait before asking again, or a budget that failed. */
export type Draw = { taken: true } | { taken: false; waitMs: number } | { failed: true };

/**
 * One run's draw on an account's shared budget: tokens taken in small batches (as many as callers
 * wait, at most `BUDGET_BATCH`), used within their time to live, the waits between them announced.
 * A wait for others' requests is told once per stretch of waiting (a stretch ends after a window
 * without a wait), not once per batch; a wait for this run's own share as the limiter tells its own.
 * A take that fails leaves the run counting alone until the back-off ends; the failure is told
 * once, and so is the budget working again.
 */
export class BudgetDraw {
  readonly #budget: AccountBudget;
  readonly #clock: Clock;
  readonly #onWait: ((wait: WaitNotice) => void) | undefined;
  readonly #onWarning: (message: string) => void;
  /** Tokens taken and not used yet; they lapse at `#lapsesAt`. */
  #tokens = 0;
  #lapsesAt = 0;
  /** Callers waiting for a token: how many to ask for. */
  waiting = 0;
  /** While the budget is failing: when to ask it again, and the back-off that led there. */
  #outage: { retryAt: number; backoffMs: number } | undefined;
  /** The stretch of waiting under way: when its last wait ends, and whether it was told. */
  #stretch: { endsAt: number; told: boolean } | undefined;

  constructor(
    budget: AccountBudget,
    clock: Clock,
    onWait: ((wait: WaitNotice) => void) | undefined,
    onWarning: (message: string) => void,
  ) {
    this.#budget = budget;
    this.#clock = clock;
    this.#onWait = onWait;
    this.#onWarning = onWarning;
  }

  /** False for a while after the budget failed: the limiter then counts this run's requests alone. */
  get working(): boolean {
    return this.#outage === undefined || this.#clock.now() >= this.#outage.retryAt;
  }

  /** One token, or how long to wait before asking again (announced as it should be), or a failure. */
  async take(): Promise<Draw> {
    const asked = this.#clock.now();
    if (this.#tokens > 0 && asked < this.#lapsesAt) {
      this.#tokens--;
      return { taken: true };
    }
    let grant: BudgetGrant;
    try {
      grant = await this.#budget.take(Math.min(BUDGET_BATCH, Math.max(1, this.waiting)));
    } catch (error) {
      this.#failedTake(error as Error);
      return { failed: true };
    }
    if (this.#outage !== undefined) {
      this.#outage = undefined;
      this.#onWarning(
        `the account's shared rate budget (${this.#budget.location}) works again: this run draws on it again`,
      );
    }
    if (grant.granted > 0) {
      this.#tokens = grant.granted - 1;
      // Counted from before the take: a token is used within its time to live of the store's lease.
      this.#lapsesAt = asked + BUDGET_TOKEN_TTL_MS;
      return { taken: true };
    }
    const waitMs = Math.max(MIN_RETRY_MS, grant.retryInMs);
    this.#tellWait(grant, waitMs);
    return { taken: false, waitMs };
  }

  /** Count alone for a back-off, doubled after each failure in a row; told at the first. */
  #failedTake(error: Error): void {
    const longest = Math.max(FIRST_BACKOFF_MS, this.#budget.limit.windowMs);
    const backoffMs =
      this.#outage === undefined ? FIRST_BACKOFF_MS : Math.min(longest, 2 * this.#outage.backoffMs);
    if (this.#outage === undefined) {
      this.#onWarning(
        `the account's shared rate budget (${this.#budget.location}) failed: ${error.message}; this run counts its own requests until it works again (asked again in ${FIRST_BACKOFF_MS / 1000} s, then less often, at least once every ${longest / 1000} s), so runs deploying into the account at the same time may draw 429s (which are waited out)`,
      );
    }
    this.#outage = { retryAt: this.#clock.now() + backoffMs, backoffMs };
  }

  #tellWait(grant: BudgetGrant, waitMs: number): void {
    const now = this.#clock.now();
    const { limit } = this.#budget;
    if (this.#stretch === undefined || now - this.#stretch.endsAt > limit.windowMs) {
      this.#stretch = { endsAt: now, told: false };
    }
    this.#stretch.endsAt = now + waitMs;
    if (grant.otherRuns > 0) {
      if (this.#stretch.told) return;
      this.#stretch.told = true;
      this.#onWait?.({
        ms: waitMs,
        reason: `the account's budget: ${otherRunsPhrase(grant.otherRuns)}`,
        otherRuns: grant.otherRuns,
      });
    } else if (waitMs >= WAIT_NOTICE_MS) {
      this.#onWait?.({
        ms: waitMs,
        reason: `the account's rate limit of ${limit.limit} requests per ${limit.windowMs / 1000} s (rateLimit in the config, --rate-limit)`,
      });
    }
  }
}
