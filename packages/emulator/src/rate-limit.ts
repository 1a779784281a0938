import {
  DEFAULT_BUCKET,
  DEFAULT_RATE_LIMIT,
  type RateLimit,
  ROUTE_RATE_LIMITS,
  type RouteRateLimit,
  rateLimitBucketFor,
} from '@monitor/api';

export interface RateLimitConfig {
  default: RateLimit;
  routes: readonly RouteRateLimit[];
}
export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  default: DEFAULT_RATE_LIMIT,
  routes: ROUTE_RATE_LIMITS,
};

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets. */
  resetSeconds: number;
}

/**
 * The service's counting: per account, each request in one bucket (its route's, else the
 * default), fixed windows that start at the bucket's first request.
 */
export class ServerRateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();
  readonly #config: RateLimitConfig;

  constructor(config: RateLimitConfig) {
    this.#config = config;
  }

  take(account: string, method: string, path: string, now: number): RateDecision {
    const bucket = rateLimitBucketFor(method, path, this.#config.routes);
    const limit =
      bucket === DEFAULT_BUCKET
        ? this.#config.default
        : (this.#config.routes.find((r) => r.bucket === bucket) as RateLimit);
    const key = `${account}\u0000${bucket}`;
    let window = this.#windows.get(key);
    if (window === undefined || now >= window.start + limit.windowMs) {
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    const resetSeconds = Math.max(1, Math.ceil((window.start + limit.windowMs - now) / 1000));
    if (window.count >= limit.limit)
      return { allowed: false, limit: limit.limit, remaining: 0, resetSeconds };
    window.count++;
    return { allowed: true, limit: limit.limit, remaining: limit.limit - window.count, resetSeconds };
  }

  reset(): void {
    this.#windows.clear();
  }
}
