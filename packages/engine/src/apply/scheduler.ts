/**
 * Runs tasks that depend on each other: each starts once the tasks it depends on are done, at most
 * `parallelism` at a time. A task whose dependency failed is skipped, and so are its own
 * dependants. Knows nothing of what the tasks do.
 */

export interface Task {
  key: string;
  /** Keys of the tasks that must be done first; keys that are not among the tasks are ignored. */
  dependsOn: readonly string[];
}

export type TaskOutcome<R> =
  | { status: 'done'; value: R; durationMs: number }
  | { status: 'failed'; error: unknown; durationMs: number }
  /** A dependency failed (or was skipped): `because` is the key of the task that failed. */
  | { status: 'skipped'; because: string }
  /** Stopped before it could start: a failure with `stopOnFailure`, or the signal. */
  | { status: 'not-started' };

export interface ScheduleOptions<T extends Task, R> {
  /** Tasks running at once. @default 8 */
  parallelism?: number;
  /** After a failure, start nothing more (what runs finishes). Otherwise only its dependants stop. @default false */
  stopOnFailure?: boolean;
  /** Once aborted, nothing more starts; what runs finishes. */
  signal?: AbortSignal | undefined;
  onStart?: (task: T, running: number) => void;
  onFinish?: (task: T, outcome: TaskOutcome<R>) => void;
  /** @default Date.now */
  now?: () => number;
}

export interface Schedule<R> {
  outcomes: Map<string, TaskOutcome<R>>;
  /** Some task failed. */
  failed: boolean;
}

/** Run `tasks` by their dependencies; resolves once nothing runs and nothing more can start. */
export async function runScheduled<T extends Task, R>(
  tasks: readonly T[],
  run: (task: T) => Promise<R>,
  options: ScheduleOptions<T, R> = {},
): Promise<Schedule<R>> {
  const parallelism = Math.max(1, options.parallelism ?? 8);
  const now = options.now ?? Date.now;
  const byKey = new Map(tasks.map((t) => [t.key, t]));
  const waitingOn = new Map<string, number>();
  const dependants = new Map<string, string[]>();
  const ready: T[] = [];
  for (const task of tasks) {
    const deps = [...new Set(task.dependsOn)].filter((d) => byKey.has(d) && d !== task.key);
    waitingOn.set(task.key, deps.length);
    for (const d of deps) dependants.set(d, [...(dependants.get(d) ?? []), task.key]);
    if (deps.length === 0) ready.push(task);
  }
  const outcomes = new Map<string, TaskOutcome<R>>();
  let failed = false;

  const settle = (task: T, outcome: TaskOutcome<R>) => {
    outcomes.set(task.key, outcome);
    options.onFinish?.(task, outcome);
  };
  const skipDependants = (key: string, because: string) => {
    for (const k of dependants.get(key) ?? []) {
      if (outcomes.has(k)) continue;
      settle(byKey.get(k) as T, { status: 'skipped', because });
      skipDependants(k, because);
    }
  };
  const release = (key: string) => {
    for (const k of dependants.get(key) ?? []) {
      const left = (waitingOn.get(k) ?? 1) - 1;
      waitingOn.set(k, left);
      if (left === 0 && !outcomes.has(k)) ready.push(byKey.get(k) as T);
    }
  };

  const running = new Set<Promise<void>>();
  const start = (task: T) => {
    const started = now();
    options.onStart?.(task, running.size + 1);
    const settled = run(task).then(
      (value) => {
        settle(task, { status: 'done', value, durationMs: now() - started });
        release(task.key);
      },
      (error: unknown) => {
        failed = true;
        settle(task, { status: 'failed', error, durationMs: now() - started });
        skipDependants(task.key, task.key);
      },
    );
    const tracked = settled.finally(() => running.delete(tracked));
    running.add(tracked);
  };
  const mayStart = () =>
    !(failed && options.stopOnFailure === true) &&
    options.signal?.aborted !== true &&
    running.size < parallelism;

  for (;;) {
    while (mayStart() && ready.length > 0) start(ready.shift() as T);
    if (running.size === 0) break;
    await Promise.race(running);
  }
  for (const task of tasks) if (!outcomes.has(task.key)) outcomes.set(task.key, { status: 'not-started' });
  return { outcomes, failed };
}
