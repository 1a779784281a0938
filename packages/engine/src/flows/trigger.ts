import { type CheckSession, type Client, collect, pause } from '@monitor/api';
import { NoChecksError } from './errors.js';

/**
 * Running checks now and waiting for their results: what `monitor trigger` and `sessions wait`
 * do, and what verification after a deploy will do. Over the check-sessions API.
 */

/** Which checks to run; nothing selected runs every activated check (heartbeats excepted). */
export interface CheckSelection {
  /** Checks with all tags of one of the sets. */
  matchTags?: string[][];
  checkIds?: string[];
  /** Every check of these check groups (numeric ids), found through the checks API. */
  groupIds?: number[];
  refreshCache?: boolean;
}

type ListedCheck = Awaited<ReturnType<Client['checks']['get']>>;

/** The checks of each group (those `include` keeps), by the checks API (one listing for all of them). */
export async function checksOfGroups(
  client: Pick<Client, 'checks'>,
  groupIds: readonly number[],
  include: (check: ListedCheck) => boolean = () => true,
): Promise<Map<number, string[]>> {
  const byGroup = new Map<number, string[]>(groupIds.map((g) => [g, []]));
  if (groupIds.length === 0) return byGroup;
  for (const check of await collect(client.checks.all())) {
    if (check.groupId !== null && check.groupId !== undefined && include(check))
      byGroup.get(check.groupId)?.push(check.id);
  }
  return byGroup;
}

/** Start a check session for each selected check; resolves to the sessions the service started. */
export async function triggerChecks(
  client: Pick<Client, 'checks' | 'checkSessions'>,
  selection: CheckSelection,
): Promise<Awaited<ReturnType<Client['checkSessions']['trigger']>>['sessions']> {
  const checkIds = [...(selection.checkIds ?? [])];
  const byGroup = await checksOfGroups(client, selection.groupIds ?? []);
  for (const [group, checks] of byGroup) {
    if (checks.length === 0) {
      throw new NoChecksError(
        `check group ${group} has no checks: there is nothing of it to run`,
        'add checks to the group, or leave it out of the selection',
      );
    }
    checkIds.push(...checks);
  }
  const matchTags = selection.matchTags?.filter((set) => set.length > 0) ?? [];
  const target = {
    ...(matchTags.length > 0 ? { matchTags } : {}),
    ...(checkIds.length > 0 ? { checkId: [...new Set(checkIds)] } : {}),
  };
  const { sessions } = await client.checkSessions.trigger({
    ...(Object.keys(target).length > 0 ? { target } : {}),
    ...(selection.refreshCache === true ? { refreshCache: true } : {}),
  });
  return sessions;
}

/** Final statuses that count as a pass; every other final status fails the run. */
const PASSING = new Set(['PASSED', 'DEGRADED']);

export const isPassing = (session: CheckSession) => PASSING.has(session.status);

export interface WaitOptions {
  /** When to stop waiting (epoch ms). */
  deadline: number;
  /** Ctrl-C: stop waiting, start no new request. */
  signal?: AbortSignal | undefined;
  /** Long polls in flight at once. @default 6 */
  concurrency?: number;
  /** Each session as it becomes final. */
  onFinal?: (session: CheckSession) => void;
}

export interface WaitOutcome {
  /** Final sessions, in the order of `ids`. */
  finished: CheckSession[];
  /** Ids still running when the deadline passed or the wait was interrupted. */
  running: string[];
  interrupted: boolean;
}

/**
 * Wait until every session is final, by long polls of the completion endpoint: a few in flight at
 * once, each asking the service to hold it up to 20 s (or what is left), and after a 408 waiting
 * what its `Retry-After` asks before polling that session again.
 */
export async function waitForSessions(
  client: Pick<Client, 'checkSessions'>,
  ids: readonly string[],
  options: WaitOptions,
): Promise<WaitOutcome> {
  const finished = new Map<string, CheckSession>();
  const queue = [...ids];
  const aborted = () => options.signal?.aborted === true;
  const worker = async () => {
    for (;;) {
      const id = queue.shift();
      if (id === undefined || aborted()) return;
      const left = options.deadline - Date.now();
      if (left <= 0) {
        queue.unshift(id);
        return;
      }
      const maxWaitSeconds = Math.max(1, Math.min(20, Math.floor(left / 1000)));
      const poll = await client.checkSessions.completion(id, { maxWaitSeconds });
      if (poll.session !== null) {
        finished.set(id, poll.session);
        options.onFinal?.(poll.session);
        continue;
      }
      await pause(Math.min(poll.retryAfterMs, Math.max(0, options.deadline - Date.now())), options.signal);
      queue.push(id);
    }
  };
  const workers = Promise.all(Array.from({ length: Math.min(options.concurrency ?? 6, ids.length) }, worker));
  // Ctrl-C does not wait for the long polls in flight: their answers no longer matter.
  const interrupted = new Promise<void>((resolve) => {
    if (options.signal === undefined) return;
    if (options.signal.aborted) resolve();
    options.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await Promise.race([workers, interrupted]);
  return {
    finished: ids.flatMap((id) => {
      const s = finished.get(id);
      return s === undefined ? [] : [s];
    }),
    running: ids.filter((id) => !finished.has(id)),
    interrupted: aborted(),
  };
}
