/**
 * How often and how patiently monitor tries again: one policy for the client's retries of a
 * request and the deployer's reconciling of a write whose outcome is unknown.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included. @default 4 */
  attempts: number;
  /** The ceiling of the first wait; it doubles with every failure. @default 250 */
  baseDelayMs: number;
  /** The largest ceiling of any wait. @default 8_000 */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  attempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
};

/**
 * The wait before trying again after `failures` failures (1 for the first): exponential backoff
 * with full jitter, so that many clients that failed together do not come back together.
 */
export function retryDelay(
  policy: RetryPolicy,
  failures: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failures - 1));
  return random() * ceiling;
}
