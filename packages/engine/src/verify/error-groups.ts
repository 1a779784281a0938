import { type Client, collect, pause } from '@monitor/api';
import type { Baseline } from './baseline.js';
import type { FailureRead } from './failures.js';
import type { CheckRun, RootCause } from './report.js';

/** What telling error groups apart and waiting for analyses needs. */
export interface ErrorGroupOptions {
  baseline: Baseline;
  /** Ask for a root cause analysis of each new error group, and wait for it. */
  rca?: boolean;
  /** When to stop waiting for analyses (epoch ms). */
  deadline: number;
  signal?: AbortSignal | undefined;
}

/**
 * The error group of each failure, marked new when the baseline did not have it; with `rca`, an
 * analysis of each new group, waited for until the deadline.
 */
export async function attachErrorGroups(
  client: Client,
  runs: CheckRun[],
  options: ErrorGroupOptions,
): Promise<void> {
  const wanted = new Set(
    runs.flatMap((r) => r.failures.flatMap((f) => (f as FailureRead).errorGroupIds ?? [])),
  );
  if (wanted.size === 0) return;
  const groups = new Map((await collect(client.errorGroups.all())).map((g) => [g.id, g]));
  const analyses = new Map<string, Promise<RootCause>>();
  for (const run of runs) {
    for (const failure of run.failures as FailureRead[]) {
      const id = failure.errorGroupIds?.[0];
      delete failure.errorGroupIds;
      const group = id === undefined ? undefined : groups.get(id);
      if (group === undefined) continue;
      const { newSince } = options.baseline;
      const isNew =
        newSince === undefined
          ? !options.baseline.errorGroups.has(group.id)
          : firstSeenSince(group.firstSeen, newSince);
      if (isNew && options.rca === true && !analyses.has(group.id))
        analyses.set(group.id, analyse(client, group.id, options));
      failure.errorGroup = { id: group.id, message: group.cleanedErrorMessage, new: isNew };
    }
  }
  for (const run of runs) {
    for (const failure of run.failures) {
      const analysis = failure.errorGroup === undefined ? undefined : analyses.get(failure.errorGroup.id);
      if (analysis !== undefined && failure.errorGroup !== undefined)
        failure.errorGroup.rootCause = await analysis;
    }
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
async function analyse(client: Client, errorGroupId: string, options: ErrorGroupOptions): Promise<RootCause> {
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
