import type { Change } from '../plan/diff.js';
import type { Verdict } from './verdict.js';

/**
 * What a verification reports: the groups it ran, each check's run with its verdict and failures,
 * and the runs still going. Plain data: `render/` turns it into text and markdown.
 */

/** A check group to verify, and why. */
export interface GroupToVerify {
  key: string;
  logicalId: string;
  id: number;
  name?: string;
  reason: 'created' | 'changed' | 'replaced' | 'selected';
  /** For `changed`: what the deploy changed in the group that affects runs, as the plan shows it. */
  changes?: Change[];
}

export interface RootCause {
  id: string;
  status: 'completed' | 'pending' | 'failed';
  classification?: string;
  rootCause?: string;
  userImpact?: string;
  /** Why it is not there: still pending at the deadline, or the request failed. */
  note?: string;
}

export interface Failure {
  location: string;
  resultId: string;
  link?: string;
  /** The assertion or error the run reported. */
  error: string;
  /** The check did not run in this location before (a location the deploy added). */
  newLocation?: boolean;
  /**
   * `new`: the baseline did not have it (for `verify --since-deploy` without a baseline kept with
   * the deploy: first seen since it); never for a check's first run, which has nothing before it.
   */
  errorGroup?: { id: string; message: string; new: boolean; rootCause?: RootCause };
}

export interface CheckRun {
  checkId: string;
  name: string;
  groupKey: string;
  sessionId: string;
  sessionLink: string;
  checkType: string;
  locations: string[];
  /** How long the session took (ms). */
  elapsedMs: number;
  status: string;
  verdict: Verdict;
  failures: Failure[];
}

export interface VerificationReport {
  groups: (GroupToVerify & { checks: number })[];
  runs: CheckRun[];
  /** Sessions still running at the deadline, or when interrupted. */
  running: { sessionId: string; name: string; groupKey: string }[];
  outcome: 'passed' | 'failed' | 'timeout' | 'interrupted' | 'nothing';
  strict: boolean;
  /** After a deploy (`deploy --verify`), or on its own (`monitor verify`): what a verdict is measured against. */
  context: 'deploy' | 'verify';
  summary: Record<Verdict, number> & { running: number };
  /**
   * When the baseline was read (ISO 8601): before the apply for `deploy --verify`, and for
   * `verify --since-deploy` after a verified deploy (its record keeps it); else when verify started.
   */
  baselineAt: string;
  elapsedMs: number;
}
