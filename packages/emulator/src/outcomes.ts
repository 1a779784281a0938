import { z } from '@monitor/api/zod';
import type { AccountData, Row } from './store.js';

export const OUTCOMES = ['PASSED', 'FAILED', 'DEGRADED'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/**
 * "Runs that match end so": every field given must match (a check, a group, a location), and
 * the last matching rule of the list wins, so a later rule can make an exception to an earlier one.
 */
export const outcomeRuleSchema = z
  .strictObject({
    /** Runs of this check. */
    checkId: z.uuid().optional(),
    /** Runs of the checks in this check group. */
    groupId: z.number().int().positive().optional(),
    /** Runs in this location (e.g. `eu-west-1`). */
    location: z.string().min(1).optional(),
    outcome: z.enum(OUTCOMES),
    /** The error a failed run reports, and its error group's message. @default by check type */
    error: z.string().min(1).max(2000).optional(),
  })
  .refine((rule) => rule.error === undefined || rule.outcome === 'FAILED', {
    message: 'is only for rules whose outcome is FAILED',
    path: ['error'],
  });
export type OutcomeRule = z.infer<typeof outcomeRuleSchema>;
export const outcomeRulesSchema = z.array(outcomeRuleSchema).max(1000);

/** What one run of a check in one location ends with. */
export interface RunOutcome {
  outcome: Outcome;
  /** Set for FAILED runs whose rule names the error. */
  error?: string;
}

const DEFAULT_ERRORS: Record<string, string> = {
  API: 'Assertion failed: status code 200 expected, got 500',
  BROWSER: 'Timeout 30000ms exceeded waiting for selector "main"',
  MULTI_STEP: 'Step 2 failed: expected status 200, got 500',
  PLAYWRIGHT: 'expect(page).toHaveTitle() failed: received "Error"',
};

/** The error a failed run of this type reports when no rule names one. */
export function defaultError(checkType: string): string {
  return DEFAULT_ERRORS[checkType] ?? `${checkType} check failed: no response within the timeout`;
}

function matches(rule: OutcomeRule, check: Row, location: string): boolean {
  return (
    (rule.checkId === undefined || rule.checkId === check.id) &&
    (rule.groupId === undefined || rule.groupId === check.groupId) &&
    (rule.location === undefined || rule.location === location)
  );
}

/** How a run of `check` in `location` ends: the last matching rule, else the check's outcome, else PASSED. */
export function runOutcome(account: AccountData, check: Row, location: string): RunOutcome {
  let found: OutcomeRule | undefined;
  for (const rule of account.outcomeRules) if (matches(rule, check, location)) found = rule;
  if (found === undefined) return { outcome: account.outcomes[check.id as string] ?? 'PASSED' };
  return found.error === undefined
    ? { outcome: found.outcome }
    : { outcome: found.outcome, error: found.error };
}

/** The worst of several outcomes: a failure anywhere fails, else a degradation degrades. */
export function worst(outcomes: readonly Outcome[]): Outcome {
  if (outcomes.includes('FAILED')) return 'FAILED';
  if (outcomes.includes('DEGRADED')) return 'DEGRADED';
  return 'PASSED';
}

/** Where a check runs: its group's locations when the group has some, else its own, else eu-west-1. */
export function runLocations(account: AccountData, check: Row): string[] {
  const group = check.groupId === null ? undefined : account.tables.checkGroups[String(check.groupId)];
  const groupLocations = (group?.locations as string[] | undefined) ?? [];
  if (groupLocations.length > 0) return groupLocations;
  const own = (check.locations as string[] | undefined) ?? [];
  return own.length > 0 ? own : ['eu-west-1'];
}

/** The outcome a check's next run would have over all its locations (its status in `/v1/checks`). */
export function checkOutcome(account: AccountData, check: Row): Outcome {
  return worst(runLocations(account, check).map((location) => runOutcome(account, check, location).outcome));
}
