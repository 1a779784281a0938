import { randomUUID } from 'node:crypto';
import { type RunOutcome, worst } from './outcomes.js';
import type { Row } from './store.js';

/** A run attempt takes this long in emulator time; locations start this far apart. */
export const ATTEMPT_MS = 1000;
export const LOCATION_STAGGER_MS = 500;
/** Failed runs are retried this many times before the FINAL result. */
const FAILED_ATTEMPTS = 3;

export interface PlannedResult {
  checkResultId: string;
  runLocation: string;
  resultType: 'FINAL' | 'ATTEMPT';
  endsAfterMs: number;
  failed: boolean;
  degraded: boolean;
  /** The error of a failed run, when its rule names one. */
  error?: string;
}

export interface LocationRun extends RunOutcome {
  location: string;
}

/** A session's whole timeline, fixed when it is triggered; what is visible depends on the clock. */
export function planResults(runs: readonly LocationRun[]): PlannedResult[] {
  const out: PlannedResult[] = [];
  runs.forEach(({ location, outcome, error }, i) => {
    const attempts = outcome === 'FAILED' ? FAILED_ATTEMPTS : 1;
    for (let k = 0; k < attempts; k++) {
      const final = k === attempts - 1;
      out.push({
        checkResultId: randomUUID(),
        runLocation: location,
        resultType: final ? 'FINAL' : 'ATTEMPT',
        endsAfterMs: ATTEMPT_MS * (k + 1) + LOCATION_STAGGER_MS * i,
        failed: outcome === 'FAILED',
        degraded: final && outcome === 'DEGRADED',
        ...(error === undefined ? {} : { error }),
      });
    }
  });
  return out;
}

/** The status a session ends with when it is not cancelled: the worst of its locations. */
export function finalStatus(runs: readonly LocationRun[]): string {
  return worst(runs.map((r) => r.outcome));
}

export interface VisibleResult extends PlannedResult {
  cancelled: boolean;
  stoppedAtMs: number;
}

export interface SessionView {
  status: string;
  final: boolean;
  stoppedAt: number | null;
  results: VisibleResult[];
}

/** What a session looks like at `now`. */
export function viewSession(session: Row, now: number): SessionView {
  const started = session.startedAtMs as number;
  const planned = session.planned as PlannedResult[];
  const cancelledAt = session.cancelledAtMs as number | null;
  const elapsed = now - started;
  const cancelCut = cancelledAt === null ? Number.POSITIVE_INFINITY : cancelledAt - started;
  const visible = planned
    .filter((r) => r.endsAfterMs <= Math.min(elapsed, cancelCut))
    .map((r) => ({ ...r, cancelled: false, stoppedAtMs: started + r.endsAfterMs }));
  if (cancelledAt !== null && now >= cancelledAt) {
    const finishedLocations = new Set(
      visible.filter((r) => r.resultType === 'FINAL').map((r) => r.runLocation),
    );
    for (const location of session.runLocations as string[]) {
      if (finishedLocations.has(location)) continue;
      const final = planned.find((r) => r.runLocation === location && r.resultType === 'FINAL');
      if (final !== undefined)
        visible.push({ ...final, failed: false, degraded: false, cancelled: true, stoppedAtMs: cancelledAt });
    }
    return { status: 'CANCELLED', final: true, stoppedAt: cancelledAt, results: visible };
  }
  const finals = visible.filter((r) => r.resultType === 'FINAL');
  const allDone = finals.length === (session.runLocations as string[]).length;
  if (allDone) {
    const stoppedAt = Math.max(...visible.map((r) => r.stoppedAtMs));
    return { status: session.outcome as string, final: true, stoppedAt, results: visible };
  }
  let status = elapsed < LOCATION_STAGGER_MS ? 'STARTED' : 'PROGRESS';
  if (visible.some((r) => r.failed)) status = 'PROGRESS_FAILED';
  else if (visible.some((r) => r.degraded)) status = 'PROGRESS_DEGRADED';
  return { status, final: false, stoppedAt: null, results: visible };
}
