import { describe, expect, it } from 'vitest';
import {
  type FailureFacts,
  failsVerification,
  isNewLocation,
  type StandingBefore,
  VERDICTS,
  type Verdict,
  verdictOf,
} from './verdict.js';

/**
 * Every combination of how a run ended (its session's final status), how the check stood before
 * (never seen, passing, degraded, failing in eu-west-1), what failed (by location and error group)
 * and `strict`: the verdict, and whether it fails the verification.
 */

const STATUSES = ['PASSED', 'DEGRADED', 'FAILED', 'TIMED_OUT', 'CANCELLED'] as const;
const BEFORE: Record<string, StandingBefore | undefined> = {
  never: undefined,
  passing: { status: 'passing', locations: ['eu-west-1'] },
  degraded: { status: 'degraded', locations: ['eu-west-1'] },
  failing: { status: 'failing', locations: ['eu-west-1'] },
};
const FAILURES: Record<string, FailureFacts[]> = {
  'known location and group': [{ location: 'eu-west-1', errorGroup: { new: false } }],
  'a new location': [
    { location: 'eu-west-1', errorGroup: { new: false } },
    { location: 'ap-northeast-1', errorGroup: { new: false } },
  ],
  'a new error group': [{ location: 'eu-west-1', errorGroup: { new: true } }],
  'no error group read': [{ location: 'eu-west-1' }],
  'no failed result': [],
};
const CASES = Object.keys(FAILURES);

// status, before → the verdict for each of CASES, in their order.
const P = 'passed';
const X = 'fixed';
const D = 'degraded';
const B = 'broke';
const S = 'still-failing';
const F = 'first-run-failed';
const TABLE: [string, string, Verdict[]][] = [
  ['PASSED', 'never', [P, P, P, P, P]],
  ['PASSED', 'passing', [P, P, P, P, P]],
  ['PASSED', 'degraded', [P, P, P, P, P]],
  ['PASSED', 'failing', [X, X, X, X, X]],
  ['DEGRADED', 'never', [D, D, D, D, D]],
  ['DEGRADED', 'passing', [D, D, D, D, D]],
  ['DEGRADED', 'degraded', [D, D, D, D, D]],
  ['DEGRADED', 'failing', [D, D, D, D, D]],
  ...(['FAILED', 'TIMED_OUT', 'CANCELLED'] as const).flatMap((status): [string, string, Verdict[]][] => [
    [status, 'never', [F, F, F, F, F]],
    [status, 'passing', [B, B, B, B, B]],
    [status, 'degraded', [B, B, B, B, B]],
    // Failing before: only a location or an error group that fails after the deploy alone broke.
    [status, 'failing', [S, B, B, S, S]],
  ]),
];

// verdict → fails without strict, fails with strict
const FAILS: Record<Verdict, [boolean, boolean]> = {
  passed: [false, false],
  fixed: [false, false],
  degraded: [false, true],
  broke: [true, true],
  'still-failing': [false, true],
  'first-run-failed': [false, true],
};

describe('verdictOf and failsVerification', () => {
  it('the table holds every status with every standing before, and every verdict its exit', () => {
    expect(TABLE.map(([status, before]) => `${status}:${before}`).sort()).toEqual(
      STATUSES.flatMap((s) => Object.keys(BEFORE).map((b) => `${s}:${b}`)).sort(),
    );
    for (const [, , verdicts] of TABLE) expect(verdicts).toHaveLength(CASES.length);
    expect(Object.keys(FAILS).sort()).toEqual([...VERDICTS].sort());
  });

  const combinations = TABLE.flatMap(([status, before, verdicts]) =>
    CASES.flatMap((failed, i) =>
      [false, true].map((strict) => [status, before, failed, strict, verdicts[i] as Verdict] as const),
    ),
  );
  it.each(combinations)('%s, %s before, %s, strict %s → %s', (status, before, failed, strict, verdict) => {
    const got = verdictOf({ status, before: BEFORE[before], failures: FAILURES[failed] ?? [] });
    expect(got).toBe(verdict);
    expect(failsVerification(got, strict)).toBe(FAILS[verdict][strict ? 1 : 0]);
  });

  it('a location is new when the check, seen before, did not run there', () => {
    expect(isNewLocation('ap-northeast-1', BEFORE.failing)).toBe(true);
    expect(isNewLocation('eu-west-1', BEFORE.failing)).toBe(false);
    // A check never seen before has nothing to compare with.
    expect(isNewLocation('ap-northeast-1', undefined)).toBe(false);
  });
});
