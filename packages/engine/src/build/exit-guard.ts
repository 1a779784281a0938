import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SourceLocation } from '@monitor/constructs';
import { ProjectLoadError } from '../errors.js';
import { mapStack } from '../positions/stack.js';
import { type Bundle, LOADING_FILE } from './bundle.js';

/**
 * Where a `process.exit` that project code called after it loaded (from a timer or a callback) is
 * left for the CLI, which reports it when the command ends or the process exits. A global, like
 * `LOADING_FILE`: the CLI reads it without loading the engine.
 */
export const REFUSED_EXIT = Symbol.for('monitor.refusedExit');

/** What the CLI finds at `REFUSED_EXIT`. */
export interface RefusedExit {
  message: string;
  hint: string;
  location: SourceLocation | undefined;
}

const HINT =
  'construct files are loaded by monitor and must not end the process: throw an error instead, and clear timers you start';

/** A bundle of project code that ran in this process. */
interface Watched {
  bundle: Bundle;
  projectDir: string;
  /** While it loads, an exit from its code fails the load; afterwards it is left for the CLI. */
  loading: boolean;
  fail?: ((error: ProjectLoadError) => void) | undefined;
  error?: ProjectLoadError | undefined;
}

/** The bundles loaded last, newest last: a timer of an older one is still recognised. */
const watched: Watched[] = [];
const WATCHED_MAX = 16;
let realExit: typeof process.exit | undefined;

/**
 * Load a bundle (`load` imports it and synthesizes its constructs) with `process.exit` refused to
 * its code, from then on: monitor never ends half-way because a construct file said so. An exit
 * during the load, at the top level or from a timer that fires meanwhile, fails it with the
 * file and line (`exited` rejects at once, for a load that waits on it); one after the load is
 * refused and left for the CLI at `REFUSED_EXIT`. Calls from anything else exit as usual.
 */
export async function loadGuarded<T>(
  bundle: Bundle,
  projectDir: string,
  load: (exited: Promise<never>) => Promise<T>,
): Promise<T> {
  installGuard();
  const w: Watched = { bundle, projectDir, loading: true };
  watched.push(w);
  if (watched.length > WATCHED_MAX) watched.shift();
  const exited = new Promise<never>((_, reject) => {
    w.fail = reject;
  });
  // Awaited by a load that races it; otherwise only `w.error` is read.
  exited.catch(() => {});
  try {
    const result = await load(exited);
    if (w.error !== undefined) throw w.error;
    return result;
  } catch (e) {
    // What failed after the exit failed because of it.
    throw w.error ?? e;
  } finally {
    w.loading = false;
    w.fail = undefined;
  }
}

function installGuard(): void {
  if (realExit !== undefined) return;
  const exit = process.exit;
  realExit = exit;
  process.exit = function guardedExit(code?: unknown) {
    const stack = fullStack();
    const w = watched.findLast((candidate) => mentions(stack, candidate.bundle));
    if (w === undefined) return exit.call(process, code as number | undefined);
    refuse(w, stack, code);
    return undefined as never;
  } as typeof process.exit;
}

function refuse(w: Watched, stack: string, code: unknown): void {
  const { first } = mapStack(stack, w.bundle, w.projectDir);
  const loadingFile = (globalThis as Record<symbol, unknown>)[LOADING_FILE];
  const fallback = typeof loadingFile === 'string' ? loadingFile : undefined;
  const file = relative(w.projectDir, first?.file ?? fallback ?? w.projectDir) || 'a project file';
  const call = `process.exit(${code === undefined ? '' : String(code)})`;
  if (w.loading) {
    const message = `${file} called ${call} while loading: nothing was done`;
    const location = first ?? { file: resolve(w.projectDir, file), line: 1, column: 1 };
    w.error ??= new ProjectLoadError(message, [{ severity: 'error', path: '', message, location }], HINT);
    w.fail?.(w.error);
    return;
  }
  const at = first === undefined ? file : `${file}:${first.line}:${first.column}`;
  const holder = globalThis as Record<symbol, unknown>;
  holder[REFUSED_EXIT] ??= {
    message: `${at} called ${call} after it had loaded (from a timer or a callback); monitor did not exit, and reports it instead`,
    hint: HINT,
    location: first,
  } satisfies RefusedExit;
}

/** The stack of the caller, deep enough to reach project code under a library or two. */
function fullStack(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;
  try {
    return new Error().stack ?? '';
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function mentions(stack: string, bundle: Bundle): boolean {
  return bundle.files.some((f) => stack.includes(pathToFileURL(f).href) || stack.includes(f));
}
