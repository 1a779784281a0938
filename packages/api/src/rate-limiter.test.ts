import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AccountBudget, budgetSpanMs } from './account-budget.js';
import { RateLimiter, type WaitNotice } from './rate-limiter.js';
import { DEFAULT_BUCKET, rateLimitBucketFor } from './rate-limits.js';
import { MemoryBudget, type SharedLedger, sharedLedger } from './test-support/memory-budget.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Most grants that fall in any window of `windowMs`. */
function maxInAnyWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[i] as number) - (sorted[j] as number) >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe('RateLimiter', () => {
  it('never lets more than the limit through in a window under 50 concurrent callers', async () => {
    const limiter = new RateLimiter({ default: { limit: 10, windowMs: 1000 }, routes: false, marginMs: 0 });
    const granted: number[] = [];
    const callers = Array.from({ length: 50 }, () =>
      limiter.acquire(DEFAULT_BUCKET).then(() => granted.push(Date.now())),
    );
    await vi.advanceTimersByTimeAsync(10_000);
    await Promise.all(callers);
    expect(granted).toHaveLength(50);
    expect(maxInAnyWindow(granted, 1000)).toBe(10);
    // 50 requests at 10 per second: the last starts in the fifth window, not before.
    expect(Math.max(...granted)).toBe(4000);
  });

  it('keeps per-route buckets apart from the default bucket', async () => {
    const limiter = new RateLimiter({ default: { limit: 2, windowMs: 1000 }, marginMs: 0 });
    const bucket = rateLimitBucketFor('GET', '/v1/analytics/api-checks/x');
    expect(bucket).toBe('analytics');
    const granted: string[] = [];
    const calls = [
      ...Array.from({ length: 3 }, () => limiter.acquire(DEFAULT_BUCKET).then(() => granted.push('default'))),
      ...Array.from({ length: 3 }, () => limiter.acquire(bucket).then(() => granted.push('analytics'))),
    ];
    await vi.advanceTimersByTimeAsync(0);
    expect(granted.filter((g) => g === 'default')).toHaveLength(2);
    expect(granted.filter((g) => g === 'analytics')).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1000);
    await Promise.all(calls);
    expect(granted).toHaveLength(6);
  });

  it('pauses a bucket after a 429 until the given time', async () => {
    const limiter = new RateLimiter({ default: { limit: 100, windowMs: 1000 } });
    limiter.pause(DEFAULT_BUCKET, 2500);
    let at = -1;
    const call = limiter.acquire(DEFAULT_BUCKET).then(() => {
      at = Date.now();
    });
    await vi.advanceTimersByTimeAsync(2499);
    expect(at).toBe(-1);
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(at).toBe(2500);
  });

  it('lets everything through at once when limits are off', async () => {
    const limiter = new RateLimiter({ default: false, routes: false });
    const granted: number[] = [];
    await Promise.all(
      Array.from({ length: 1000 }, () =>
        limiter.acquire(DEFAULT_BUCKET).then(() => granted.push(Date.now())),
      ),
    );
    // No timer was advanced: every call was granted at time 0.
    expect(granted).toHaveLength(1000);
    expect(new Set(granted)).toEqual(new Set([0]));
  });

  it('rejects a limit that is not a whole number of at least 1', () => {
    expect(() => new RateLimiter({ default: { limit: 0, windowMs: 1000 } })).toThrow(/at least 1/);
  });
});

describe('RateLimiter with a budget shared by several runs', () => {
  const limit = { limit: 10, windowMs: 10_000 };

  /** `runs` limiters on one shared budget, `callers` acquires each; the grant times of all of them. */
  async function drawTogether(runs: number, callers: number) {
    const shared = sharedLedger();
    const waits: WaitNotice[][] = [];
    const granted: number[] = [];
    const calls = Array.from({ length: runs }, (_, run) => {
      const told: WaitNotice[] = [];
      waits.push(told);
      const limiter = new RateLimiter({
        budget: new MemoryBudget(shared, limit, `run-${run}`),
        routes: false,
        onWait: (w) => told.push(w),
      });
      return Array.from({ length: callers }, () =>
        limiter.acquire(DEFAULT_BUCKET).then(() => granted.push(Date.now())),
      );
    }).flat();
    await vi.advanceTimersByTimeAsync(120_000);
    await Promise.all(calls);
    return { shared, waits, granted };
  }

  it('lets no more than the limit start in any window across the runs, and every caller through', async () => {
    const { granted } = await drawTogether(3, 20);
    expect(granted).toHaveLength(60);
    expect(maxInAnyWindow(granted, budgetSpanMs(limit))).toBe(10);
    // 60 requests at 10 per span: the last starts in the sixth span, not later.
    expect(Math.max(...granted)).toBeLessThan(6 * budgetSpanMs(limit));
  });

  it('takes tokens in batches of the callers waiting, at most 10, from the shared ledger', async () => {
    const { shared } = await drawTogether(2, 15);
    const asked = shared.takes.map((t) => t.asked);
    expect(Math.max(...asked)).toBe(10);
    // Far fewer takes than requests: a store is asked once per batch, and when waiting.
    expect(shared.takes.filter((t) => t.granted > 0).length).toBeLessThan(30);
    expect(shared.takes.reduce((sum, t) => sum + t.granted, 0)).toBe(30);
  });

  it('says once per stretch of waiting that it waits for the account, and how many other runs draw on it', async () => {
    const { waits } = await drawTogether(3, 20);
    for (const told of waits) {
      const shared = told.filter((w) => w.otherRuns !== undefined);
      expect(shared.length).toBeLessThanOrEqual(1);
    }
    const all = waits.flat().filter((w) => w.otherRuns !== undefined);
    expect(all.length).toBeGreaterThan(0);
    expect(all[0]?.reason).toMatch(/^the account's budget: 2 other runs are deploying into it$/);
    expect(all[0]?.otherRuns).toBe(2);
  });

  it('tells a new stretch of waiting again once a window passed without one', async () => {
    const shared = sharedLedger();
    const told: WaitNotice[] = [];
    const mine = new RateLimiter({
      budget: new MemoryBudget(shared, limit, 'mine'),
      routes: false,
      onWait: (w) => told.push(w),
    });
    const other = new MemoryBudget(shared, limit, 'other');
    const burst = async () => {
      await other.take(10); // the other run takes all there is
      const calls = Array.from({ length: 3 }, () => mine.acquire(DEFAULT_BUCKET));
      await vi.advanceTimersByTimeAsync(budgetSpanMs(limit) + 100);
      await Promise.all(calls);
    };
    await burst();
    expect(told.filter((w) => w.otherRuns === 1)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2 * budgetSpanMs(limit));
    await burst();
    expect(told.filter((w) => w.otherRuns === 1)).toHaveLength(2);
  });

  it("a run alone on the budget tells a long wait as the account's rate limit", async () => {
    const told: WaitNotice[] = [];
    const limiter = new RateLimiter({
      budget: new MemoryBudget(sharedLedger(), limit, 'alone'),
      routes: false,
      onWait: (w) => told.push(w),
    });
    const calls = Array.from({ length: 11 }, () => limiter.acquire(DEFAULT_BUCKET));
    await vi.advanceTimersByTimeAsync(budgetSpanMs(limit) + 10);
    await Promise.all(calls);
    expect(told).toEqual([
      {
        ms: budgetSpanMs(limit),
        reason: "the account's rate limit of 10 requests per 10 s (rateLimit in the config, --rate-limit)",
      },
    ]);
  });

  it('warns once when the budget fails and then counts its own requests under the same limit', async () => {
    const warnings: string[] = [];
    const limiter = new RateLimiter({
      budget: {
        location: '/home/ci/.cache/monitor/budgets/x.json',
        limit,
        take: async () => {
          throw new Error('EACCES: permission denied');
        },
        close: async () => {},
      },
      routes: false,
      marginMs: 0,
      onWarning: (m) => warnings.push(m),
    });
    const granted: number[] = [];
    const calls = Array.from({ length: 25 }, () =>
      limiter.acquire(DEFAULT_BUCKET).then(() => granted.push(Date.now())),
    );
    await vi.advanceTimersByTimeAsync(30_000);
    await Promise.all(calls);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^the account's shared rate budget \(\/home\/ci\/\.cache\/monitor\/budgets\/x\.json\) failed: EACCES: permission denied; this run counts its own requests/,
    );
    expect(granted).toHaveLength(25);
    expect(maxInAnyWindow(granted, 10_000)).toBe(10);
  });

  /** A budget on `shared` whose takes fail while `failing()` says so, and the times it was asked. */
  function flakyBudget(shared: SharedLedger, failing: () => boolean) {
    const memory = new MemoryBudget(shared, limit, 'mine');
    const asked: number[] = [];
    const budget: AccountBudget = {
      location: '/home/ci/.cache/monitor/budgets/x.json',
      limit,
      take: async (count) => {
        asked.push(Date.now());
        if (failing()) throw new Error('timed out after 10 s waiting for the lock');
        return memory.take(count);
      },
      close: () => memory.close(),
    };
    return { budget, asked };
  }

  it('after a failed take counts alone, and draws on the budget again after a back-off, saying so once', async () => {
    const shared = sharedLedger();
    let failures = 1;
    const { budget, asked } = flakyBudget(shared, () => failures-- > 0);
    const warnings: string[] = [];
    const limiter = new RateLimiter({ budget, routes: false, onWarning: (m) => warnings.push(m) });
    await limiter.acquire(DEFAULT_BUCKET); // the take fails: counted alone
    expect(warnings).toHaveLength(1);
    // Another run takes all the account has.
    await new MemoryBudget(shared, limit, 'other').take(10);
    await vi.advanceTimersByTimeAsync(1_000);
    await limiter.acquire(DEFAULT_BUCKET); // within the back-off: alone, the budget not asked
    expect(asked).toEqual([0]);

    await vi.advanceTimersByTimeAsync(5_000);
    let grantedAt: number | undefined;
    const call = limiter.acquire(DEFAULT_BUCKET).then(() => {
      grantedAt = Date.now();
    });
    await vi.advanceTimersByTimeAsync(budgetSpanMs(limit) + 100);
    await call;
    // Shared again: it waits until the other run's tokens come back, not only for its own count.
    expect(asked[1]).toBe(6_000);
    expect(grantedAt).toBeGreaterThanOrEqual(budgetSpanMs(limit));
    expect(shared.takes.filter((t) => t.run === 'mine' && t.granted > 0)).toHaveLength(1);
    // For the one caller waiting: the requests counted alone are not asked for again.
    expect(new Set(shared.takes.filter((t) => t.run === 'mine').map((t) => t.asked))).toEqual(new Set([1]));
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toBe(
      "the account's shared rate budget (/home/ci/.cache/monitor/budgets/x.json) works again: this run draws on it again",
    );
  });

  it('asks a budget that keeps failing again less and less often, at most once a window, and warns once', async () => {
    const { budget, asked } = flakyBudget(sharedLedger(), () => true);
    const warnings: string[] = [];
    const limiter = new RateLimiter({ budget, routes: false, onWarning: (m) => warnings.push(m) });
    for (let i = 0; i < 30; i++) {
      await limiter.acquire(DEFAULT_BUCKET);
      await vi.advanceTimersByTimeAsync(2_000);
    }
    // Back-offs of 5 s, then 10 s (doubled, at most the window of 10 s): asked at the first request after each.
    expect(asked).toEqual([0, 6_000, 16_000, 26_000, 36_000, 46_000, 56_000]);
    expect(warnings).toHaveLength(1);
  });
});

describe('rateLimitBucketFor', () => {
  it.each([
    ['GET', '/v1/dashboards/abc', 'dashboards.get'],
    ['PUT', '/v1/dashboards/abc', DEFAULT_BUCKET],
    ['GET', '/v1/dashboards', DEFAULT_BUCKET],
    ['POST', '/v1/analytics/checks', 'analytics'],
    ['GET', '/v1/check-results/c1/r1', 'check-results.get'],
    ['GET', '/v2/check-results/c1', 'check-results.list'],
    ['GET', '/v1/private-locations/p/metrics?from=1&to=2', 'private-locations.metrics'],
    ['GET', '/v1/check-groups', DEFAULT_BUCKET],
  ])('%s %s counts in %s', (method, path, bucket) => {
    expect(rateLimitBucketFor(method, path)).toBe(bucket);
  });
});
