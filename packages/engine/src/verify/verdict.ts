/**
 * The verdict on one check's run after a deploy: how it ended (the session's final status) against
 * how the check stood before. Pure: `verdict.test.ts` holds every combination.
 */

/** How a check ran after the deploy, against how it stood before. */
export type Verdict = 'passed' | 'fixed' | 'degraded' | 'broke' | 'still-failing';

/** What a verdict is made of. */
export interface RunFacts {
  /** The session's final status: `PASSED`, `DEGRADED`, or a failure (`FAILED`, `TIMED_OUT`, `CANCELLED`). */
  status: string;
  /** The check was failing before. */
  failingBefore: boolean;
}

export function verdictOf({ status, failingBefore }: RunFacts): Verdict {
  if (status === 'PASSED') return failingBefore ? 'fixed' : 'passed';
  if (status === 'DEGRADED') return 'degraded';
  return failingBefore ? 'still-failing' : 'broke';
}

/** Whether a verdict fails the verification: what broke with the deploy, or with `strict` any failure or degradation. */
export function failsVerification(verdict: Verdict, strict: boolean): boolean {
  return strict
    ? verdict === 'broke' || verdict === 'still-failing' || verdict === 'degraded'
    : verdict === 'broke';
}

/** The runs that fail verification (`failsVerification`). */
export function failedRuns<R extends { verdict: Verdict }>(runs: readonly R[], strict: boolean): R[] {
  return runs.filter((r) => failsVerification(r.verdict, strict));
}
