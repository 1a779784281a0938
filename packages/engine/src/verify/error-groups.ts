import { type Client, collect, pause } from '@monitor/api';
import type { Baseline } from './baseline.js';
import type { FailureRead } from './failures.js';
import type { CheckRun, RootCause } from './report.js';

/** What waiting for analyses needs. */
export interface AnalysisOptions {
  /** When to stop waiting for analyses (epoch ms). */
  deadline: number;
  signal?: AbortSignal | undefined;
}

/**
 * The error group of each failure, marked new when the baseline did not have it and the check ran
 * before (a check's first run has nothing before it: its error groups are no news of the deploy).
 */
export async function attachErrorGroups(client: Client, runs: CheckRun[], baseline: Baseline): Promise<void> {
  const wanted = new Set(
    runs.flatMap((r) => r.failures.flatMap((f) => (f as FailureRead).errorGroupIds ?? [])),
  );
  if (wanted.size === 0) return;
  const groups = new Map((await collect(client.errorGroups.all())).map((g) => [g.id, g]));
  for (const run of runs) {
    const ranBefore = baseline.checks.has(run.checkId);
    for (const failure of run.failures as FailureRead[]) {
      const id = failure.errorGroupIds?.[0];
      delete failure.errorGroupIds;
      const group = id === undefined ? undefined : groups.get(id);
      if (group === undefined) continue;
      const isNew =
        ranBefore &&
        (baseline.newSince === undefined
          ? !baseline.errorGroups.has(group.id)
          : firstSeenSince(group.firstSeen, baseline.newSince));
      failure.errorGroup = { id: group.id, message: group.cleanedErrorMessage, new: isNew };
    }
  }
}

/** A root cause analysis of each new error group of `runs`, waited for until the deadline. */
export async function analyseNewErrorGroups(
  client: Client,
  runs: readonly CheckRun[],
  options: AnalysisOptions,
): Promise<void> {
  const analyses = new Map<string, Promise<RootCause>>();
  for (const failure of runs.flatMap((r) => r.failures)) {
    const group = failure.errorGroup;
    if (group?.new === true && !analyses.has(group.id))
      analyses.set(group.id, analyse(client, group.id, options));
  }
  for (const failure of runs.flatMap((r) => r.failures)) {
    const analysis = failure.errorGroup === undefined ? undefined : analyses.get(failure.errorGroup.id);
    if (analysis !== undefined && failure.errorGroup !== undefined)
      failure.errorGroup.rootCause = await analysis;
  }
}

/**
 * An error group first seen at or after `since`. The service may send `firstSeen` as a date
 * (api-addendum: dates or date-times, compared as instants); a date alone is compared by day, so a
 * group first seen on the day of `since` counts as new.
 */
export function firstSeenSince(firstSeen: string, since: string): boolean {
  if (/^\d{4}-\d{2}-\d{2}$/.test(firstSeen)) return firstSeen >= new Date(since).toISOString().slice(0, 10);
  return Date.parse(firstSeen) >= Date.parse(since);
}

/** Ask for a root cause analysis of an error group and wait for it until the deadline. */
async function analyse(client: Client, errorGroupId: string, options: AnalysisOptions): Promise<RootCause> {
  let id: string;
  try {
    ({ id } = await client.rootCauseAnalyses.generate({ errorGroupId }));
  } catch (error) {
    return { id: '', status: 'failed', note: (error as Error).message };
  }
  for (;;) {
    const result = await client.rootCauseAnalyses.get(id).catch(() => undefined);
    if (result !== undefined && result.status === 'COMPLETED') {
      const analysis = (
        result as { analysis?: { classification?: string; rootCause?: string; userImpact?: string } }
      ).analysis;
      return {
        id,
        status: 'completed',
        ...(analysis?.classification === undefined ? {} : { classification: analysis.classification }),
        ...(analysis?.rootCause === undefined ? {} : { rootCause: analysis.rootCause }),
        ...(analysis?.userImpact === undefined ? {} : { userImpact: analysis.userImpact }),
      };
    }
    const left = options.deadline - Date.now();
    if (left <= 0 || options.signal?.aborted === true)
      return { id, status: 'pending', note: 'still being generated at the verification deadline' };
    await pause(Math.min(2_000, left), options.signal);
  }
}
