import { describe, expect, it } from 'vitest';
import {
  BUDGET_MARGIN_MS,
  BUDGET_TOKEN_TTL_MS,
  type BudgetLedger,
  budgetRunId,
  budgetSpanMs,
  emptyLedger,
  leaveLedger,
  otherRunsPhrase,
  takeFromLedger,
} from './account-budget.js';

const limit = { limit: 20, windowMs: 10_000 };
const span = budgetSpanMs(limit);

describe('takeFromLedger', () => {
  it('grants what is asked while the limit allows, then what is left, then nothing until the oldest lease ages out', () => {
    let ledger: BudgetLedger = emptyLedger();
    const take = (now: number, count: number, run = 'a') => {
      const next = takeFromLedger(ledger, { now, count, limit, run });
      ledger = next.ledger;
      return next.grant;
    };
    expect(take(1_000, 10)).toEqual({ granted: 10, retryInMs: 0, otherRuns: 0 });
    expect(take(2_000, 8)).toEqual({ granted: 8, retryInMs: 0, otherRuns: 0 });
    expect(take(3_000, 10)).toEqual({ granted: 2, retryInMs: 0, otherRuns: 0 });
    // All 20 are out: the first lease (t = 1,000) comes back one span after it was taken.
    expect(take(4_000, 10)).toEqual({ granted: 0, retryInMs: 1_000 + span - 4_000, otherRuns: 0 });
    expect(ledger.leases.map(([at, n]) => [at, n])).toEqual([
      [1_000, 10],
      [2_000, 8],
      [3_000, 2],
    ]);
    // Just before the span has passed the lease still counts; at it, its 10 tokens are back.
    expect(take(1_000 + span - 1, 1).granted).toBe(0);
    expect(take(1_000 + span, 10).granted).toBe(10);
    expect(ledger.leases.map(([at]) => at)).toEqual([2_000, 3_000, 1_000 + span]);
  });

  it('counts a lease for the window, the margin and the time its tokens may wait to be used', () => {
    expect(span).toBe(10_000 + BUDGET_MARGIN_MS + BUDGET_TOKEN_TTL_MS);
  });

  it('counts the other runs seen within the span (taking or waiting), not the one asking, nor one that left', () => {
    let ledger: BudgetLedger = emptyLedger();
    const take = (now: number, run: string, count = 1) => {
      const next = takeFromLedger(ledger, { now, count, limit, run });
      ledger = next.ledger;
      return next.grant;
    };
    expect(take(0, 'a').otherRuns).toBe(0);
    expect(take(10, 'b').otherRuns).toBe(1);
    expect(take(20, 'c', 100).otherRuns).toBe(2); // granted the 18 left
    expect(take(30, 'd').granted).toBe(0); // d waits: still seen
    expect(take(40, 'a').otherRuns).toBe(3);
    ledger = leaveLedger(ledger, 'b');
    expect(take(50, 'a').otherRuns).toBe(2);
    // A run not seen for a span no longer counts (a run that died without leaving).
    expect(take(40 + span, 'a').otherRuns).toBe(0);
  });

  it('names the other runs in a phrase', () => {
    expect(otherRunsPhrase(1)).toBe('1 other run is deploying into it');
    expect(otherRunsPhrase(3)).toBe('3 other runs are deploying into it');
  });

  it('gives each run a name of its own: host, process, and a random part', () => {
    const id = budgetRunId('ci-7', 4242, () => 0.5);
    expect(id).toMatch(/^ci-7:4242:[0-9a-z]+$/);
    expect(budgetRunId('ci-7', 4242, () => 0.25)).not.toBe(id);
  });
});
