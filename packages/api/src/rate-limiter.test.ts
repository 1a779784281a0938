import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RateLimiter } from './rate-limiter.js';
import { DEFAULT_BUCKET, rateLimitBucketFor } from './rate-limits.js';

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
