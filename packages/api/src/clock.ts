import { setTimeout as delay } from 'node:timers/promises';

/** Time as the client sees it; injectable so tests can control it. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  // The global setTimeout, not node:timers/promises: tests' fake timers (vi.useFakeTimers) drive it.
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};

/** Wait `ms`, or less when `signal` aborts first (resolves either way: an interrupted wait is no error). */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted === true) return;
  try {
    await delay(ms, undefined, signal === undefined ? {} : { signal });
  } catch (error) {
    if ((error as { name?: string }).name !== 'AbortError') throw error;
  }
}
