import { type Clock, systemClock } from './clock.js';
import {
  DEFAULT_BUCKET,
  DEFAULT_RATE_LIMIT,
  type RateLimit,
  ROUTE_RATE_LIMITS,
  type RouteRateLimit,
} from './rate-limits.js';

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
}

/** A wait long enough to tell people about. */
export interface WaitNotice {
  ms: number;
  /** Why, as a phrase: `the client rate limit of 600 requests per 60 s`. */
  reason: string;
}

/** Waits at least this long are announced (`onWait`): a CI log that says nothing for longer looks hung. */
export const WAIT_NOTICE_MS = 2_000;

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
    const def = options.default === undefined ? DEFAULT_RATE_LIMIT : options.default;
    if (def !== false) this.#addBucket(DEFAULT_BUCKET, def);
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
    });
  }

  /** Resolves when a request of `bucket` may start. */
  acquire(bucket: string): Promise<void> {
    const b = this.#buckets.get(bucket);
    if (b === undefined) return Promise.resolve();
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
      if (b.grants.length < b.limit) {
        b.grants.push(now);
        return;
      }
      await this.#sleep(
        (b.grants[0] as number) + span - now,
        `the client rate limit of ${b.limit} requests per ${b.windowMs / 1000} s (--rate-limit)`,
      );
    }
  }
}
