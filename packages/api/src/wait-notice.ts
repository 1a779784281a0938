/** A wait long enough to tell people about. */
export interface WaitNotice {
  ms: number;
  /** Why, as a phrase: `the client rate limit of 600 requests per 60 s`. */
  reason: string;
  /**
   * Set when the wait is for the account's shared budget, which other runs draw on: the wait lasts
   * while they do, so `ms` is only until the first tokens come back. Told once per stretch of waiting.
   */
  otherRuns?: number;
}

/** Waits at least this long are announced (`onWait`): a CI log that says nothing for longer looks hung. */
export const WAIT_NOTICE_MS = 2_000;
