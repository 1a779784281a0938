import { dirname } from 'node:path';
import { locateConfig } from '@monitor/engine/config-location';
import type { LoadOptions, ValidationReport } from '@monitor/engine/validate';
import { rememberConstructs } from './completion-memory.js';

/**
 * Loading a project runs its code in the process's one construct session, so loads in one process
 * go one at a time: a workspace run (`--all`) plans and deploys its projects side by side, and only
 * their loads wait for each other.
 */
let queue: Promise<unknown> = Promise.resolve();

/** Loads made before their command ran (a workspace run loads every project to order them), by config and environment. */
const made = new Map<string, Promise<ValidationReport>>();

const keyOf = (configPath: string, environment: string | undefined) => `${configPath}\0${environment ?? ''}`;

/** Load and validate a project, one load at a time; a load made beforehand for it is taken, once. */
export function validateOnce(options: LoadOptions & { cwd: string }): Promise<ValidationReport> {
  const configPath = locateConfig({ cwd: options.cwd, config: options.config });
  const key = configPath === undefined ? undefined : keyOf(configPath, options.environment);
  const early = key === undefined ? undefined : made.get(key);
  if (key !== undefined && early !== undefined) {
    made.delete(key);
    return early.then((report) => {
      if (report.project !== undefined) options.onConfig?.(report.project);
      return report;
    });
  }
  return oneAtATime(async () => {
    const { validateProject } = await import('@monitor/engine/validate');
    return remembered(await validateProject(options));
  });
}

/** A load's constructs are what shell completion offers next (`completion-memory.ts`). */
function remembered(report: ValidationReport): ValidationReport {
  if (report.project !== undefined) rememberConstructs(report.project.projectDir, report.project.resources);
  return report;
}

/** Load a project now, for the command that runs on it later to take (`validateOnce`). */
export function loadAhead(configPath: string, environment: string | undefined): Promise<ValidationReport> {
  const load = oneAtATime(async () => {
    const { validateProject } = await import('@monitor/engine/validate');
    return remembered(await validateProject({ cwd: dirname(configPath), config: configPath, environment }));
  });
  made.set(keyOf(configPath, environment), load);
  // Awaited by the command that takes it; a failure before then is its to report.
  load.catch(() => undefined);
  return load;
}

/** Drop the loads made only to order projects: those of every config but `configPaths`. */
export function forgetLoadsAheadExcept(configPaths: readonly string[]): void {
  const kept = new Set(configPaths);
  for (const key of [...made.keys()]) if (!kept.has(key.slice(0, key.indexOf('\0')))) made.delete(key);
}

/** Drop the loads nobody took (a run that stopped early), so that none holds a project in memory. */
export function forgetLoadsAhead(): void {
  made.clear();
}

/**
 * Run `work` between the loads of projects, never beside one: it loads code too (a workspace's
 * configs, to find where the other projects keep their state).
 */
export function betweenLoads<T>(work: () => Promise<T>): Promise<T> {
  return oneAtATime(work);
}

function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}
