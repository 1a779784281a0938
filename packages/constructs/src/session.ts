import { fileURLToPath } from 'node:url';
import type { ResourceKind } from '@monitor/api';
import { lineAndColumn } from './script-lines.js';

export type { ResourceKind };

/** A position in a source file; 1-based line and column. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
  /** The calls that led here, nearest first: a helper's callers, the user's call into a library. */
  callers?: SourceLocation[];
}

/** What every construct and every `fromId` reference carries, whichever copy of this package made it. */
export interface ConstructLike {
  readonly kind: ResourceKind;
  readonly logicalId: string;
}

/** The brand of constructs: a registered symbol, so that `instanceof` is never needed across package copies. */
export const CONSTRUCT_BRAND: unique symbol = Symbol.for('@monitor/constructs.construct') as never;
/** The brand of references to existing remote resources (`fromId`). */
export const REMOTE_BRAND: unique symbol = Symbol.for('@monitor/constructs.remote') as never;
/** The brand of references to constructs another project owns (`fromProject`). */
export const PROJECT_BRAND: unique symbol = Symbol.for('@monitor/constructs.projectRef') as never;
/** The method a construct synthesizes itself with. */
export const SYNTHESIZE: unique symbol = Symbol.for('@monitor/constructs.synthesize') as never;
/** A construct's `CallerLocator` (a symbol, as SYNTHESIZE, so that two copies of the package agree). */
export const CALLER_LOCATOR: unique symbol = Symbol.for('@monitor/constructs.callerLocator') as never;
/** The method that maps a payload path back to the prop path users wrote. */
export const PROP_PATH: unique symbol = Symbol.for('@monitor/constructs.propPath') as never;
/** What is wrong with where a construct's options are written, found by `new` and reported by synthesis. */
export const OPTION_PROBLEMS: unique symbol = Symbol.for('@monitor/constructs.optionProblems') as never;

export interface Session {
  readonly constructs: ConstructLike[];
  /** The environment the project is loaded for (`--env`), if the config defines environments. */
  readonly environment?: string;
  /**
   * Whether constructs remember where they were made (for diagnostics). Off only for constructs
   * made in memory by monitor itself (`monitor import`), where there is no source to point at.
   * @default true
   */
  readonly captureLocations?: boolean;
}

interface Registry {
  current: Session | undefined;
}

const REGISTRY_KEY = Symbol.for('@monitor/constructs.registry');
const globalRecord = globalThis as unknown as Record<symbol, Registry | undefined>;
function registry(): Registry {
  let r = globalRecord[REGISTRY_KEY];
  if (r === undefined) {
    r = { current: undefined };
    globalRecord[REGISTRY_KEY] = r;
  }
  return r;
}

/** Open a new session: constructs made from now on register in it. Replaces any open session. */
export function createSession(
  options: { environment?: string | undefined; captureLocations?: boolean } = {},
): Session {
  const session: Session = {
    constructs: [],
    ...(options.environment === undefined ? {} : { environment: options.environment }),
    ...(options.captureLocations === false ? { captureLocations: false } : {}),
  };
  registry().current = session;
  return session;
}

/** The open session; one is opened on first use, so constructs work in a plain unit test. */
export function currentSession(): Session {
  const r = registry();
  r.current ??= createSession();
  return r.current;
}

/** Close the open session (the loader does this after collecting). */
export function closeSession(): void {
  registry().current = undefined;
}

export function isConstruct(value: unknown): value is ConstructLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[CONSTRUCT_BRAND] === true
  );
}

export function isRemote(value: unknown): value is ConstructLike & { physicalId: string | number } {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[REMOTE_BRAND] === true
  );
}

/** A reference to a construct of another project (`X.fromProject(project, logicalId)`). */
export function isProjectConstructRef(value: unknown): value is ConstructLike & { readonly project: string } {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PROJECT_BRAND] === true
  );
}

/** At most this many callers are kept behind a construct's own location. */
const MAX_CALLERS = 4;

/** The call stack of the code running now, captured but not resolved into call sites yet (`callSitesOf`). */
export interface CapturedStack {
  readonly stack?: unknown;
}

/**
 * Capture the stack of the code running now, without `skip` and what it called. Cheap: the
 * frames are turned into call sites only when `callSitesOf` reads them, and their positions only
 * when `callerLocation` does (a line number costs a scan of the whole script, so a bundle of
 * thousands of constructs pays it only for the ones a diagnostic names).
 */
// biome-ignore lint/complexity/noBannedTypes: what Error.captureStackTrace takes (a class too)
export function captureStack(skip: Function): CapturedStack {
  const originalLimit = Error.stackTraceLimit;
  // Enough for the base class, the construct class, a few user subclasses and the callers.
  Error.stackTraceLimit = 10;
  const holder: CapturedStack = {};
  Error.captureStackTrace(holder, skip);
  Error.stackTraceLimit = originalLimit;
  return holder;
}

/**
 * The call sites of a captured stack. V8 formats a captured stack on its first read, with the
 * `Error.prepareStackTrace` of that moment: read once, here, it gives the call sites themselves.
 */
export function callSitesOf(captured: CapturedStack): NodeJS.CallSite[] {
  const originalPrepare = Error.prepareStackTrace;
  try {
    Error.prepareStackTrace = (_error, callSites) => callSites;
    const sites = captured.stack;
    return Array.isArray(sites) ? (sites as NodeJS.CallSite[]) : [];
  } finally {
    Error.prepareStackTrace = originalPrepare;
  }
}

/** The call sites of the code running now, without `skip` and what it called. */
// biome-ignore lint/complexity/noBannedTypes: what Error.captureStackTrace takes (a class too)
export function captureCallSites(skip: Function): NodeJS.CallSite[] {
  return callSitesOf(captureStack(skip));
}

/**
 * Where a construct was made: its captured stack, resolved on the first read and kept. Synthesis
 * keeps this for a resource's location, not the construct, so that constructs and their props are
 * freed (thousands of them in a large project). The stack's frames still hold what they ran on
 * until it is resolved: a construct made in a method or a base-class constructor stays alive
 * as long as the object that method ran on (the frames of the construct's own constructors hold nothing).
 */
export class CallerLocator {
  #stack: CapturedStack | undefined;
  #location: (SourceLocation & { callers: SourceLocation[] }) | undefined | null = null;

  constructor(stack: CapturedStack | undefined) {
    this.#stack = stack;
  }

  get location(): (SourceLocation & { callers: SourceLocation[] }) | undefined {
    if (this.#location === null) {
      this.#location = this.#stack === undefined ? undefined : callerLocation(callSitesOf(this.#stack));
      this.#stack = undefined;
    }
    return this.#location;
  }
}

/**
 * Where the construct being made was created, from its call sites: the first frame that is not a
 * constructor (the base class, the construct class, and any user subclasses all are), so a factory
 * in a construct library reports its own `new` call. `callers` are the frames that led there (a
 * helper's callers, the user's call into a library), nearest first.
 */
export function callerLocation(
  sites: readonly NodeJS.CallSite[],
): (SourceLocation & { callers: SourceLocation[] }) | undefined {
  const start = sites.findIndex((site) => !site.isConstructor());
  const own = start === -1 ? undefined : locationOf(sites[start] as NodeJS.CallSite);
  if (own === undefined) return undefined;
  const callers: SourceLocation[] = [];
  for (const site of sites.slice(start + 1)) {
    const at = locationOf(site);
    // Node's own frames (the module loader) end what the user's code called.
    if (at === undefined || callers.length === MAX_CALLERS) break;
    callers.push(at);
  }
  return withCallers(own, callers);
}

/**
 * `location` with `callers`, as a new literal: `{ ...location, callers }` would give each
 * location a hidden class of its own in Node 20's V8 (thousands of them in a large project).
 */
export function withCallers<C extends SourceLocation[]>(
  location: SourceLocation,
  callers: C,
): SourceLocation & { callers: C } {
  return { file: location.file, line: location.line, column: location.column, callers };
}

function locationOf(site: NodeJS.CallSite): SourceLocation | undefined {
  const name = site.getFileName() ?? undefined;
  if (name === undefined || name.startsWith('node:')) return undefined;
  const file = pathOf(name);
  // A module's position, placed in its own text (script-lines.ts); anything else as V8 places it.
  const position = (site as { getPosition?: () => number }).getPosition?.();
  const at =
    name.startsWith('file://') && typeof position === 'number'
      ? lineAndColumn(file, position, () => ({
          line: site.getLineNumber() ?? 0,
          column: site.getColumnNumber() ?? 0,
        }))
      : undefined;
  return at === undefined
    ? { file, line: site.getLineNumber() ?? 0, column: site.getColumnNumber() ?? 0 }
    : { file, line: at.line, column: at.column };
}

/** Module URLs as paths, each converted once: thousands of constructs share a few modules. */
const paths = new Map<string, string>();
/** Each load's bundle has modules of new names: a long-lived process starts again past this many. */
const KEPT_PATHS = 1024;

function pathOf(name: string): string {
  if (!name.startsWith('file://')) return name;
  let path = paths.get(name);
  if (path === undefined) {
    if (paths.size >= KEPT_PATHS) paths.clear();
    path = fileURLToPath(name);
    paths.set(name, path);
  }
  return path;
}

/**
 * The environment the project is being loaded for: the name given with `--env` (or `MONITOR_ENV`)
 * from the config's `environments`, or undefined when the config defines none. Use it to make
 * what must differ between accounts differ, e.g. `url: \`acme-status-${currentEnvironment()}\``.
 * Name the environments your config defines to have them typed: `currentEnvironment<'staging' | 'production'>()`.
 */
export function currentEnvironment<E extends string = string>(): E | undefined {
  return currentSession().environment as E | undefined;
}
