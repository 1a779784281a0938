import type { CheckSession, Client } from '@monitor/api';

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

/** Wait `ms`, or less when `signal` aborts first. */
export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted === true || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Wait until every session is final, by long polls of the completion endpoint: a few in flight at
 * once, each asking the service to hold it up to 20 s (or what is left), and after a 408 waiting
 * what its `Retry-After` asks before polling that session again.
 */
export async function waitForSessions(
  client: Client,
  ids: string[],
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
      await sleep(Math.min(poll.retryAfterMs, Math.max(0, options.deadline - Date.now())), options.signal);
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
