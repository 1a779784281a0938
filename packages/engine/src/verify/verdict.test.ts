import { describe, expect, it } from 'vitest';
import { failsVerification, type Verdict, verdictOf } from './verdict.js';

/**
 * Every combination of how a run ended (its session's final status), how the check stood before,
 * and `strict`: the verdict, and whether it fails the verification.
 */
describe('verdictOf and failsVerification', () => {
  const STATUSES = ['PASSED', 'DEGRADED', 'FAILED', 'TIMED_OUT', 'CANCELLED'] as const;
  // [status, failing before] → verdict, fails without strict, fails with strict
  const TABLE: [string, boolean, Verdict, boolean, boolean][] = [
    ['PASSED', false, 'passed', false, false],
    ['PASSED', true, 'fixed', false, false],
    ['DEGRADED', false, 'degraded', false, true],
    ['DEGRADED', true, 'degraded', false, true],
    ['FAILED', false, 'broke', true, true],
    ['FAILED', true, 'still-failing', false, true],
    ['TIMED_OUT', false, 'broke', true, true],
    ['TIMED_OUT', true, 'still-failing', false, true],
    ['CANCELLED', false, 'broke', true, true],
    ['CANCELLED', true, 'still-failing', false, true],
  ];

  it('the table covers every status, each with the check failing before and not', () => {
    expect(TABLE.map(([status, before]) => `${status}:${before}`).sort()).toEqual(
      STATUSES.flatMap((s) => [`${s}:false`, `${s}:true`]).sort(),
    );
  });

  it.each(TABLE)(
    '%s, failing before: %s → %s (fails: %s, with strict: %s)',
    (status, failingBefore, verdict, fails, strictFails) => {
      expect(verdictOf({ status, failingBefore })).toBe(verdict);
      expect(failsVerification(verdict, false)).toBe(fails);
      expect(failsVerification(verdict, true)).toBe(strictFails);
    },
  );
});
