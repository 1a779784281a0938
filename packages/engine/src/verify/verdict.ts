/**
 * The verdict on one check's run after a deploy: how it ended (the session's final status) against
 * how the check stood before, location by location and error group by error group. Pure:
 * `verdict.test.ts` holds every combination.
 */

/** How a check ran after the deploy, against how it stood before. */
export type Verdict = 'passed' | 'fixed' | 'degraded' | 'broke' | 'still-failing' | 'first-run-failed';

/** Every verdict, in the order a report counts them. */
export const VERDICTS: readonly Verdict[] = [
  'passed',
  'fixed',
  'degraded',
  'broke',
  'still-failing',
  'first-run-failed',
];

/** A count of each verdict, all 0. */
export function emptySummary(): Record<Verdict, number> {
  return Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
}

/** How the check stood before, as the baseline saw it. */
export interface StandingBefore {
  status: 'passing' | 'failing' | 'degraded';
  /** Where it ran. */
  locations: readonly string[];
}

/** A failed location of the run, with its error group when one was read. */
export interface FailureFacts {
  location: string;
  /** `new`: the baseline did not have it (or, after a deploy, it was first seen since). */
  errorGroup?: { new: boolean } | undefined;
}

/** What a verdict is made of. */
export interface RunFacts {
  /** The session's final status: `PASSED`, `DEGRADED`, or a failure (`FAILED`, `TIMED_OUT`, `CANCELLED`). */
  status: string;
  /** Undefined: the baseline never saw the check with a status (this is its first run, or it was made since). */
  before: StandingBefore | undefined;
  failures: readonly FailureFacts[];
}

/** A location the check did not run in before: whatever fails there fails only after the deploy. */
export function isNewLocation(location: string, before: StandingBefore | undefined): boolean {
  return before !== undefined && !before.locations.includes(location);
}

/**
 * - passed, or fixed when it was failing before; degraded whatever it was;
 * - a failure of a check the baseline never saw run: `first-run-failed` (nothing tells the deploy
 *   caused it);
 * - a failure of a check passing or degraded before: `broke`;
 * - a failure of a check failing before: `broke` when a location it did not run in, or an error
 *   group that is new, fails; else `still-failing`.
 */
export function verdictOf({ status, before, failures }: RunFacts): Verdict {
  if (status === 'PASSED') return before?.status === 'failing' ? 'fixed' : 'passed';
  if (status === 'DEGRADED') return 'degraded';
  if (before === undefined) return 'first-run-failed';
  if (before.status !== 'failing') return 'broke';
  const news = failures.some((f) => isNewLocation(f.location, before) || f.errorGroup?.new === true);
  return news ? 'broke' : 'still-failing';
}

/** Whether a verdict fails the verification: what broke with the deploy, or with `strict` any failure or degradation. */
export function failsVerification(verdict: Verdict, strict: boolean): boolean {
  if (verdict === 'passed' || verdict === 'fixed') return false;
  return strict || verdict === 'broke';
}

/** The runs that fail verification (`failsVerification`). */
export function failedRuns<R extends { verdict: Verdict }>(runs: readonly R[], strict: boolean): R[] {
  return runs.filter((r) => failsVerification(r.verdict, strict));
}
