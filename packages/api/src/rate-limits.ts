import type { HttpMethod } from './endpoints.js';

export interface RateLimit {
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
}

export interface RouteRateLimit extends RateLimit {
  /** Name of the bucket the route's requests count in. */
  bucket: string;
  method: HttpMethod | '*';
  pattern: RegExp;
}

export const DEFAULT_BUCKET = 'default';
/** The account-wide limit of most routes: 600 requests per 60 s. */
export const DEFAULT_RATE_LIMIT: RateLimit = { limit: 600, windowMs: 60_000 };

/** Routes with their own limits (addendum §6). A request counts only in its route's bucket. */
export const ROUTE_RATE_LIMITS: readonly RouteRateLimit[] = [
  {
    bucket: 'dashboards.get',
    method: 'GET',
    pattern: /^\/v1\/dashboards\/[^/]+$/,
    limit: 20,
    windowMs: 20_000,
  },
  { bucket: 'analytics', method: '*', pattern: /^\/v1\/analytics\//, limit: 30, windowMs: 60_000 },
  {
    bucket: 'check-results.list',
    method: 'GET',
    pattern: /^\/v[12]\/check-results\/[^/]+$/,
    limit: 60,
    windowMs: 60_000,
  },
  {
    bucket: 'check-results.get',
    method: 'GET',
    pattern: /^\/v1\/check-results\/[^/]+\/[^/]+$/,
    limit: 60,
    windowMs: 60_000,
  },
  {
    bucket: 'private-locations.metrics',
    method: 'GET',
    pattern: /^\/v1\/private-locations\/[^/]+\/metrics$/,
    limit: 300,
    windowMs: 86_400_000,
  },
];

/** The bucket a request counts in: its route's own, else the default. */
export function rateLimitBucketFor(
  method: string,
  path: string,
  routes: readonly RouteRateLimit[] = ROUTE_RATE_LIMITS,
): string {
  const pathOnly = path.split('?')[0] ?? path;
  for (const route of routes) {
    if ((route.method === '*' || route.method === method) && route.pattern.test(pathOnly))
      return route.bucket;
  }
  return DEFAULT_BUCKET;
}
