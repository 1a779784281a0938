import type { RateLimit } from './rate-limits.js';

/**
 * An account's rate budget, shared by every run that calls the account's API at once: processes
 * on one machine (a file), or on many (a row in PostgreSQL). The client's limiter takes tokens
 * from it for the default bucket, one per request; the stores that keep it are the engine's.
 */
export interface AccountBudget {
  /** Where the budget is kept, for messages: a file, or a database without its password. */
  readonly location: string;
  /** The account's limit, as this run knows it; runs into one account should agree on it. */
  readonly limit: RateLimit;
  /**
   * Take up to `count` tokens (`count` ≥ 1). Each lets one request start, within
   * `BUDGET_TOKEN_TTL_MS` of the call: a token not used by then is dropped, since it counts in the
   * budget from the moment it was taken.
   */
  take(count: number): Promise<BudgetGrant>;
  /** This run stops drawing on the budget (it no longer counts as a run); what it took ages out. */
  close(): Promise<void>;
}

/** What a budget answered to `take`. */
export interface BudgetGrant {
  /** Tokens taken, 0 to the count asked for. */
  granted: number;
  /** With none granted: how long until tokens come back (the oldest lease ages out). */
  retryInMs: number;
  /** Other runs that took from the budget, or waited for it, within its span. */
  otherRuns: number;
}

/** Most tokens one `take` asks for: a store is asked once per ten requests at most. */
export const BUDGET_BATCH = 10;
/** How long taken tokens stay usable (see `AccountBudget.take`). */
export const BUDGET_TOKEN_TTL_MS = 500;
/** Added to the window, as the limiter's own margin: requests whose network delay varies still land inside the server's window count. */
export const BUDGET_MARGIN_MS = 250;

/**
 * How long a lease counts against the budget. The service counts requests in fixed windows that
 * start at the first request, wherever that falls; at most `limit` requests in any stretch of a
 * window (plus the margin) keeps every one of its windows under the limit. A request starts up to
 * `BUDGET_TOKEN_TTL_MS` after its lease, so a lease counts that much longer.
 */
export function budgetSpanMs(limit: RateLimit): number {
  return limit.windowMs + BUDGET_MARGIN_MS + BUDGET_TOKEN_TTL_MS;
}

/**
 * What a budget keeps: the leases of the last span, oldest first (`[at, count, run]`, times in ms),
 * and when each run last took from it or waited for it. Tokens come back as their lease ages out of
 * the span, so a run that dies holding some gives them back within one span, with no one to tell.
 */
export interface BudgetLedger {
  leases: [at: number, count: number, run: string][];
  runs: Record<string, number>;
}

export const emptyLedger = (): BudgetLedger => ({ leases: [], runs: {} });

export interface TakeRequest {
  /** The store's clock, in ms: the same clock for every run of the budget. */
  now: number;
  count: number;
  limit: RateLimit;
  /** The run that takes (`runId`). */
  run: string;
}

/**
 * One take, as a pure function of the ledger: the leases older than the span dropped, up to
 * `count` of what the rest leaves of the limit granted as a new lease, the run marked as seen.
 * The PostgreSQL store does the same in one UPDATE (engine `state/budget-sql.ts`); keep them alike.
 */
export function takeFromLedger(
  ledger: BudgetLedger,
  { now, count, limit, run }: TakeRequest,
): { ledger: BudgetLedger; grant: BudgetGrant } {
  const since = now - budgetSpanMs(limit);
  const leases = ledger.leases.filter(([at]) => at > since);
  const used = leases.reduce((sum, [, n]) => sum + n, 0);
  const granted = Math.max(0, Math.min(count, limit.limit - used));
  if (granted > 0) leases.push([now, granted, run]);
  const runs: Record<string, number> = {};
  for (const [other, seen] of Object.entries(ledger.runs)) if (seen > since) runs[other] = seen;
  runs[run] = now;
  const oldest = leases[0]?.[0];
  return {
    ledger: { leases, runs },
    grant: {
      granted,
      retryInMs: granted > 0 || oldest === undefined ? 0 : oldest + budgetSpanMs(limit) - now,
      otherRuns: Object.keys(runs).length - 1,
    },
  };
}

/** The ledger without `run` among the runs (it closed); its leases stay until they age out. */
export function leaveLedger(ledger: BudgetLedger, run: string): BudgetLedger {
  const { [run]: _gone, ...runs } = ledger.runs;
  return { leases: ledger.leases, runs };
}

/** A name for this run in a shared budget: the host, the process and a random part (one process may hold several). */
export function budgetRunId(host: string, pid: number, random: () => number = Math.random): string {
  return `${host}:${pid}:${Math.floor(random() * 0xffffffff).toString(36)}`;
}

/** "3 other runs are deploying into it", "1 other run is …". */
export function otherRunsPhrase(otherRuns: number): string {
  return otherRuns === 1
    ? '1 other run is deploying into it'
    : `${otherRuns} other runs are deploying into it`;
}
