import type { Clock } from '@monitor/api';

/** A clock whose sleeps return at once and move its time on: tests see every wait, and wait for none. */
export function virtualClock(start = Date.now()): { clock: Clock; sleeps: number[] } {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    clock: {
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    },
  };
}
