import type { AccountBudget } from './account-budget.js';
import { BudgetDraw } from './budget-draw.js';
import { type Clock, systemClock } from './clock.js';
import {
  DEFAULT_BUCKET,
  DEFAULT_RATE_LIMIT,
  type RateLimit,
  ROUTE_RATE_LIMITS,
  type RouteRateLimit,
} from './rate-limits.js';
import { WAIT_NOTICE_MS, type WaitNotice } from './wait-notice.js';

export { WAIT_NOTICE_MS, type WaitNotice };

export interface RateLimiterOptions {
  /** The default bucket's limit; `false` turns client-side limiting of it off. */
  default?: RateLimit | false;
  /** Per-route limits; `false` turns them off. */
  routes?: readonly RouteRateLimit[] | false;
  /**
   * Added to every window so that requests whose network delay varies still land inside the
   * server's window count.
   */
  marginMs?: number;
  clock?: Clock;
  /** Told of every wait of at least `WAIT_NOTICE_MS`, before it starts: people should see why nothing happens. */
  onWait?: ((wait: WaitNotice) => void) | undefined;
  /**
   * The account's budget shared with other runs: the default bucket's requests take their tokens
   * from it, under its limit (which then replaces `default`). When it fails, the run warns
   * (`onWarning`) and counts its own requests under that limit, asking it again after a back-off.
   */
  budget?: AccountBudget | undefined;
  /** Told of what a run should know but that does not stop it: a shared budget that failed. */
  onWarning?: ((message: string) => void) | undefined;
}

interface Bucket {
  readonly limit: number;
  readonly windowMs: number;
  /** Grant times within the last window, oldest first. */
  readonly grants: number[];
  blockedUntil: number;
  /** Why it is blocked (the 429 that paused it), for the wait notice. */
  blockedBecause: string;
  /** Waiters are served in arrival order. */
  tail: Promise<void>;
  /** The account's shared budget, for the default bucket when there is one. */
  shared: BudgetDraw | undefined;
}

/**
 * A sliding-window limiter: in any window of `windowMs` (+ margin) at most `limit` requests of a
 * bucket start. Shared by all calls of one client. A 429 pauses the whole bucket.
 */
export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #clock: Clock;
  readonly #marginMs: number;
  readonly #onWait: RateLimiterOptions['onWait'];
  readonly routes: readonly RouteRateLimit[];

  constructor(options: RateLimiterOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#marginMs = options.marginMs ?? 250;
    this.#onWait = options.onWait;
    const budget = options.budget;
    const def = budget?.limit ?? (options.default === undefined ? DEFAULT_RATE_LIMIT : options.default);
    if (def !== false) this.#addBucket(DEFAULT_BUCKET, def);
    const bucket = this.#buckets.get(DEFAULT_BUCKET);
    if (budget !== undefined && bucket !== undefined) {
      const warn =
        options.onWarning ?? ((message) => process.emitWarning(message, { code: 'MONITOR_BUDGET' }));
      bucket.shared = new BudgetDraw(budget, this.#clock, this.#onWait, warn);
    }
    this.routes = options.routes === false ? [] : (options.routes ?? ROUTE_RATE_LIMITS);
    for (const route of this.routes) this.#addBucket(route.bucket, route);
  }

  #addBucket(name: string, limit: RateLimit): void {
    if (!Number.isInteger(limit.limit) || limit.limit < 1) {
      throw new RangeError(`rate limit of bucket "${name}" must be a whole number of at least 1`);
    }
    if (!(limit.windowMs > 0)) throw new RangeError(`rate-limit window of bucket "${name}" must be positive`);
    this.#buckets.set(name, {
      limit: limit.limit,
      windowMs: limit.windowMs,
      grants: [],
      blockedUntil: 0,
      blockedBecause: '',
      tail: Promise.resolve(),
      shared: undefined,
    });
  }

  /** Resolves when a request of `bucket` may start. */
  acquire(bucket: string): Promise<void> {
    const b = this.#buckets.get(bucket);
    if (b === undefined) return Promise.resolve();
    if (b.shared !== undefined) b.shared.waiting++;
    const turn = b.tail.then(() => this.#waitForSlot(b));
    b.tail = turn.catch(() => undefined);
    return turn;
  }

  /** After a 429: no request of `bucket` starts before `untilMs`; `because` says why, for the wait notice. */
  pause(bucket: string, untilMs: number, because = 'the service answered 429 Too Many Requests'): void {
    const b = this.#buckets.get(bucket);
    if (b === undefined || untilMs <= b.blockedUntil) return;
    b.blockedUntil = untilMs;
    b.blockedBecause = because;
  }

  async #sleep(ms: number, reason: string): Promise<void> {
    if (ms >= WAIT_NOTICE_MS) this.#onWait?.({ ms, reason });
    await this.#clock.sleep(ms);
  }

  async #waitForSlot(b: Bucket): Promise<void> {
    for (;;) {
      const now = this.#clock.now();
      if (b.blockedUntil > now) {
        await this.#sleep(b.blockedUntil - now, b.blockedBecause);
        continue;
      }
      const span = b.windowMs + this.#marginMs;
      while (b.grants.length > 0 && (b.grants[0] as number) <= now - span) b.grants.shift();
      if (b.shared?.working === true) {
        const draw = await this.#drawShared(b, b.shared);
        if (draw) return;
        continue;
      }
      if (b.grants.length < b.limit) {
        b.grants.push(now);
        // Counted alone while the budget fails: not a caller to ask it for once it works again.
        if (b.shared !== undefined) b.shared.waiting--;
        return;
      }
      await this.#sleep(
        (b.grants[0] as number) + span - now,
        `the client rate limit of ${b.limit} requests per ${b.windowMs / 1000} s (--rate-limit)`,
      );
    }
  }

  /**
   * A token of the shared budget: true when taken (the grant is also kept in the bucket's own
   * window, for when the budget fails), false after the wait before asking again, or at once when
   * the budget failed (the caller then counts locally).
   */
  async #drawShared(b: Bucket, shared: BudgetDraw): Promise<boolean> {
    const draw = await shared.take();
    if ('failed' in draw) return false;
    if (draw.taken) {
      shared.waiting--;
      b.grants.push(this.#clock.now());
      return true;
    }
    await this.#clock.sleep(draw.waitMs);
    return false;
  }
}
