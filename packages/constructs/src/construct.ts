import {
  type ConstructOptions,
  type OptionProblem,
  optionProblems,
  type ResolvedOptions,
  resolveOptions,
  withoutOptions,
} from './options.js';
import {
  CALLER_LOCATOR,
  CallerLocator,
  CONSTRUCT_BRAND,
  type ConstructLike,
  captureStack,
  currentSession,
  isConstruct,
  isProjectConstructRef,
  isRemote,
  OPTION_PROBLEMS,
  PROJECT_BRAND,
  PROP_PATH,
  REMOTE_BRAND,
  type ResourceKind,
  type SourceLocation,
  SYNTHESIZE,
} from './session.js';

export type { ConstructOptions, ResolvedOptions };

/**
 * Spread first into a literal that copies objects: `{ ...FRESH, ...DEFAULTS, ...props }` is
 * `{ ...DEFAULTS, ...props }`, but V8 gives every object made by a literal that starts by spreading
 * a non-empty object a hidden class of its own, and makes it ten times slower: 75,000 payloads
 * would carry 75,000 classes (tens of MB), and every function that reads them would slow down.
 */
export const FRESH: Readonly<Record<string, never>> = Object.freeze({});

/** A reference inside a desired payload, resolved to the physical id at deploy time. */
export interface PayloadRef {
  $ref: string;
}
export function refKey(kind: ResourceKind, logicalId: string): string {
  return `${kind}:${logicalId}`;
}
/**
 * A reference to a construct another project owns, inside a desired payload
 * (`AlertChannel.fromProject('platform', 'pagerduty-oncall')`): resolved at plan time to the
 * physical id that project's state records. Exactly two keys: never taken for a `PayloadRef`,
 * which this project's own state resolves.
 */
export interface ProjectPayloadRef {
  $project: string;
  /** `Kind:logicalId` in the other project. */
  $ref: string;
}

export function isProjectPayloadRef(value: unknown): value is ProjectPayloadRef {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ProjectPayloadRef).$project === 'string' &&
    typeof (value as ProjectPayloadRef).$ref === 'string' &&
    Object.keys(value).length === 2
  );
}

/** `platform/AlertChannel:pagerduty-oncall`: a use of another project's construct, as state records it. */
export function projectUseKey(ref: ProjectPayloadRef): string {
  return `${ref.$project}/${ref.$ref}`;
}

/**
 * `value` with every reference replaced by `replace(ref)`, and every reference to another
 * project's construct by `replaceProject(ref)` when it is given (else left as it is); copies only
 * the objects and lists that hold a replaced reference, so most of a payload is returned as it is.
 */
export function replaceRefs(
  value: unknown,
  replace: (ref: PayloadRef) => unknown,
  replaceProject?: (ref: ProjectPayloadRef) => unknown,
): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (isPayloadRef(value)) return replace(value);
  if (isProjectPayloadRef(value)) return replaceProject === undefined ? value : replaceProject(value);
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = replaceRefs(value[i], replace, replaceProject);
      if (next !== value[i]) {
        out ??= [...value];
        out[i] = next;
      }
    }
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    const next = replaceRefs(field, replace, replaceProject);
    if (next !== field) {
      out ??= { ...FRESH, ...(value as Record<string, unknown>) };
      out[key] = next;
    }
  }
  return out ?? value;
}

export function isPayloadRef(value: unknown): value is PayloadRef {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PayloadRef).$ref === 'string' &&
    Object.keys(value).length === 1
  );
}

/** A prop whose value is read from a file, relative to the file that made the construct. */
export interface FileRef {
  /** Path relative to the source file that creates the construct. */
  file: string;
}

/** What synthesis gives each construct: plain JSON, fully defaulted. */
export interface DesiredResource {
  kind: ResourceKind;
  /** The construct class, e.g. `SlackAlertChannel`. */
  construct: string;
  logicalId: string;
  /**
   * The request payload, fully defaulted; references as `{ "$ref": "Kind:logicalId" }`, to another
   * project's constructs as `{ "$project": "platform", "$ref": "Kind:logicalId" }`.
   */
  payload: Record<string, unknown>;
  /** Resources this one references, as `Kind:logicalId`. */
  dependsOn: string[];
  options: ResolvedOptions;
  location?: SourceLocation | undefined;
}

export interface Diagnostic {
  /** `info` only for policy findings (and waived ones: see `waived`). */
  severity: 'error' | 'warning' | 'info';
  /** The construct class, when the problem belongs to one. */
  construct?: string;
  logicalId?: string;
  /** Property path, e.g. `locations[2]`; empty for the construct as a whole. */
  path: string;
  /** Where `path` is written: in the construct's options (`new`'s third argument); in its props when unset. */
  pathIn?: 'options' | undefined;
  message: string;
  location?: SourceLocation | undefined;
  /** More lines for people, e.g. a stack trace mapped to the TypeScript sources. */
  detail?: string | undefined;
  /** What would fix it, when there is more to say than the message. */
  hint?: string | undefined;
  /** The policy that found it, for a policy finding. */
  policy?: string | undefined;
  /**
   * A finding the construct's `policyExceptions` waive: its own severity and the reason. A waived
   * finding's `severity` is `info`, so that it never counts as an error or a warning.
   */
  waived?: { severity: 'error' | 'warning' | 'info'; reason: string } | undefined;
}

/** What a construct gets while it synthesizes itself. */
export interface SynthContext {
  /** Props the config's `defaults` give this construct's kind. */
  readonly defaults: Record<string, unknown>;
  problem(path: string, message: string): void;
  /** A reference to a construct, `fromId` or `fromProject` of `expected` kind, as a payload value. */
  ref(
    value: unknown,
    expected: ResourceKind,
    path: string,
  ): PayloadRef | ProjectPayloadRef | string | number | undefined;
  /** A string prop or the content of the file it names. */
  text(value: string | FileRef | null | undefined, path: string): string | null | undefined;
}

/**
 * The base of every construct: a logical id, props, options, and where it was made.
 * Registers itself in the open session.
 */
export abstract class Construct<P extends object> implements ConstructLike {
  readonly [CONSTRUCT_BRAND] = true;
  abstract readonly kind: ResourceKind;
  readonly logicalId: string;
  readonly props: P;
  readonly options: ResolvedOptions;
  /** Options written among the props, and unknown options: synthesis reports them. */
  readonly [OPTION_PROBLEMS]: readonly OptionProblem[];
  /** The stack when `new` was called, resolved into `location` on first read. */
  readonly #locator: CallerLocator;

  constructor(logicalId: string, props: P, options?: ConstructOptions) {
    const session = currentSession();
    this.logicalId = logicalId;
    const { props: own, misplaced } = withoutOptions(props);
    this.props = own;
    const { resolved, unknown } = resolveOptions(options);
    this.options = resolved;
    this[OPTION_PROBLEMS] = optionProblems(this.constructor.name, logicalId, misplaced, unknown);
    this.#locator = new CallerLocator(
      session.captureLocations === false ? undefined : captureStack(Construct),
    );
    session.constructs.push(this);
  }

  /**
   * Where `new` was called, as the runtime saw it (the loader maps it to the TypeScript source).
   * Not for overriding: synthesis reads the captured stack itself (`CALLER_LOCATOR`).
   */
  get location(): SourceLocation | undefined {
    return this.#locator.location;
  }

  /** Where `new` was called, without the construct: what synthesis keeps for a resource's location. */
  [CALLER_LOCATOR](): CallerLocator {
    return this.#locator;
  }

  /** The request payload. Problems go to `ctx.problem`; never throws for bad props. */
  abstract [SYNTHESIZE](ctx: SynthContext): Record<string, unknown>;

  /** The prop path users wrote for a path in the payload, to name it in diagnostics. */
  [PROP_PATH](payloadPath: string): string {
    return payloadPath;
  }

  /** `CheckGroup "payments"`, as diagnostics name a construct. */
  toString(): string {
    return `${this.constructor.name} "${this.logicalId}"`;
  }
}

/** A resource that exists in the account and is only referred to; never created, changed or deleted. */
export interface RemoteRef<K extends ResourceKind> {
  readonly kind: K;
  readonly logicalId: string;
  readonly physicalId: K extends 'StatusPage' | 'StatusPageService' | 'Dashboard' ? string : number;
}

export function remoteRef<K extends ResourceKind>(kind: K, physicalId: string | number): RemoteRef<K> {
  return Object.freeze({
    [REMOTE_BRAND]: true,
    kind,
    logicalId: `fromId(${String(physicalId)})`,
    physicalId,
  }) as unknown as RemoteRef<K>;
}

/**
 * A construct another project of the workspace (or of the shared state database) owns, by that
 * project's name and the construct's logical id there: referred to, never created, changed or
 * deleted. Resolved at plan time to the id that project's state records.
 */
export interface ProjectConstructRef<K extends ResourceKind> {
  readonly kind: K;
  /** The other project's `projectName`. */
  readonly project: string;
  /** The construct's logical id in that project. */
  readonly logicalId: string;
}

export function projectRef<K extends ResourceKind>(
  kind: K,
  project: string,
  logicalId: string,
): ProjectConstructRef<K> {
  return Object.freeze({
    [PROJECT_BRAND]: true,
    kind,
    project,
    logicalId,
  }) as unknown as ProjectConstructRef<K>;
}

export { isConstruct, isProjectConstructRef, isRemote };
