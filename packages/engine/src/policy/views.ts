import { KINDS, type ResourceKind, redactPayload, SENSITIVE_VALUE } from '@monitor/api/definitions';
import {
  type DesiredResource,
  isPayloadRef,
  type PolicyOperation,
  type PolicyPlan,
  type PolicyProject,
  type PolicyResource,
  refKey,
  type SourceLocation,
} from '@monitor/constructs';
import { conflictRedactor } from '../plan/conflict-text.js';
import type { Live, Operation, Plan } from '../plan/types.js';
import type { SourceReader } from '../positions/source-reader.js';

/** The project's constructs as policies see them, each with the resource it was made from. */
export interface ProjectView {
  project: PolicyProject;
  /** The view of each resource, in the order of `resources`. */
  views: ResourceView[];
}

/** The construct a view shows (for the engine: a policy sees only the view). */
export function desiredOf(view: PolicyResource): DesiredResource | undefined {
  return resourceOfView(view);
}

/** Set by `ResourceView`, the one place that can read a view's construct. */
let resourceOfView: (view: object) => DesiredResource | undefined;

/**
 * A value as a policy may see it: a deep copy, frozen, so that a rule can neither change what is
 * deployed nor what the next rule sees (a write throws in a module, which is strict). A copy, not
 * a view over the value: a view lets `Object.getOwnPropertyDescriptor` reach what is underneath.
 */
export function frozenCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = frozenCopy((value as Record<string, unknown>)[key]);
  return Object.freeze(out) as T;
}

/** The payload's top-level fields that hold or lead to a sensitive value, by kind: `config` of an alert channel. */
const SECRET_HOLDERS = new Map<ResourceKind, ReadonlySet<string>>();

function secretHolders(kind: ResourceKind): ReadonlySet<string> {
  let holders = SECRET_HOLDERS.get(kind);
  if (holders === undefined) {
    holders = new Set(KINDS[kind].sensitive.map((rule) => /^[^.[]*/.exec(rule.path)?.[0] ?? ''));
    SECRET_HOLDERS.set(kind, holders);
  }
  return holders;
}

/**
 * A payload as monitor's own rules read it: what `redactPayload` makes of it, made only when a
 * field that holds or leads to a secret is read (the other fields are the payload's own). The
 * built-ins read a few flags and lists of each construct and never a secret: masking every alert
 * channel's config for them to read `sendFailure` was a fifth of their time. A view over the
 * payload, not a copy: copying each payload's fields to skip one cost nearly as much.
 */
export function maskedOnRead(kind: ResourceKind, payload: Record<string, unknown>): Record<string, unknown> {
  const holders = secretHolders(kind);
  if (holders.size === 0) return payload;
  // A field that cannot be changed cannot read differently through a view (a proxy's invariants):
  // a frozen payload, or one whose secret-holding field is fixed, is masked whole.
  if (!Object.isExtensible(payload) || [...holders].some((field) => isFixed(payload, field)))
    return redactPayload(KINDS[kind], payload);
  return new Proxy(payload, new MaskedFields(kind, payload, holders));
}

/** Whether `field` of `value` is its own and cannot be configured: a view must read it as it is. */
function isFixed(value: object, field: string): boolean {
  return Object.getOwnPropertyDescriptor(value, field)?.configurable === false;
}

/** What `maskedOnRead`'s view does: one object a payload, its methods shared. */
class MaskedFields implements ProxyHandler<Record<string, unknown>> {
  readonly #kind: ResourceKind;
  readonly #payload: Record<string, unknown>;
  readonly #holders: ReadonlySet<string>;
  #masked: Record<string, unknown> | undefined;

  constructor(kind: ResourceKind, payload: Record<string, unknown>, holders: ReadonlySet<string>) {
    this.#kind = kind;
    this.#payload = payload;
    this.#holders = holders;
  }

  get(target: Record<string, unknown>, key: string | symbol, receiver: unknown): unknown {
    return this.#holds(key) ? this.#maskedField(key) : Reflect.get(target, key, receiver);
  }

  getOwnPropertyDescriptor(target: Record<string, unknown>, key: string | symbol) {
    const own = Reflect.getOwnPropertyDescriptor(target, key);
    return own === undefined || !this.#holds(key) ? own : { ...own, value: this.#maskedField(key) };
  }

  /** A key written as a path (`'config.url'`) is one that redactPayload may mask too. */
  #holds(key: string | symbol): key is string {
    return typeof key === 'string' && (this.#holders.has(key) || key.includes('.') || key.includes('['));
  }

  #maskedField(key: string): unknown {
    this.#masked ??= redactPayload(KINDS[this.#kind], this.#payload);
    return this.#masked[key];
  }
}

/** A payload or live resource of `kind` as a policy sees it: every sensitive field a marker, a frozen copy. */
export function policyPayload(
  kind: ResourceKind,
  payload: Record<string, unknown>,
): Readonly<Record<string, unknown>> {
  return frozenCopy(redactPayload(KINDS[kind], payload));
}

/**
 * A resource as a policy sees it: its payload with every sensitive value replaced by a marker
 * (`(sensitive value)`, never the value or its hash), frozen. One class, so thousands of views
 * share one shape and no closures; the payload is made on first read.
 *
 * `copies: false` is for views only monitor's own policies read (`BUILT_IN_POLICIES`, which never
 * write): the payload is then masked as it is read (`maskedOnRead`), without a frozen copy of it,
 * a third of the construct rules' time (builtins.test.ts holds that they find the same on frozen
 * copies).
 */
export class ResourceView implements PolicyResource {
  readonly kind: ResourceKind;
  readonly construct: string;
  readonly logicalId: string;
  readonly environment: string | undefined;
  /** Kept out of the view's fields, where a policy could reach it (`desiredOf`). */
  readonly #resource: DesiredResource;
  readonly #sourceOf: SourceReader;
  readonly #copies: boolean;
  #payload: Readonly<Record<string, unknown>> | undefined;
  /** Comments read so far, by prop: several rules ask about the same one (`muted`). */
  #comments: Map<string, string | undefined> | undefined;

  constructor(
    resource: DesiredResource,
    environment: string | undefined,
    sourceOf: SourceReader,
    copies = true,
  ) {
    this.kind = resource.kind;
    this.construct = resource.construct;
    this.logicalId = resource.logicalId;
    this.environment = environment;
    this.#sourceOf = sourceOf;
    this.#copies = copies;
    this.#resource = resource;
    // A rule that wrote `kind` would hide the construct from the rules after it.
    Object.freeze(this);
  }

  /** Where `new` was called: resolved on first read (from the stack and the source map), as a copy. */
  get location(): SourceLocation | undefined {
    return frozenCopy(this.#resource.location);
  }

  get payload(): Readonly<Record<string, unknown>> {
    if (this.#payload === undefined) {
      const { payload } = this.#resource;
      this.#payload = this.#copies ? policyPayload(this.kind, payload) : maskedOnRead(this.kind, payload);
    }
    return this.#payload;
  }

  commentOn(prop: string): string | undefined {
    this.#comments ??= new Map();
    if (!this.#comments.has(prop)) {
      this.#comments.set(prop, commentOn(this.#resource, prop, this.#sourceOf));
    }
    return this.#comments.get(prop);
  }

  static {
    resourceOfView = (view) => (#resource in view ? view.#resource : undefined);
  }
}

// Nor may a rule replace what every view's methods do.
Object.freeze(ResourceView.prototype);

/** The views of a project's constructs; `copies`: as `ResourceView` takes it. */
export function projectView(
  resources: readonly DesiredResource[],
  environment: string | undefined,
  sourceOf: SourceReader,
  copies = true,
): ProjectView {
  const views = resources.map((r) => new ResourceView(r, environment, sourceOf, copies));
  const frozenViews = Object.freeze([...views]);
  let byKey: Map<string, PolicyResource> | undefined;
  const project: PolicyProject = Object.freeze({
    resources: frozenViews,
    environment,
    resolve(ref: unknown) {
      if (!isPayloadRef(ref)) return undefined;
      byKey ??= new Map(views.map((v) => [refKey(v.kind, v.logicalId), v]));
      return byKey.get(ref.$ref);
    },
  });
  return { project, views };
}

/**
 * The comment beside `prop` in the construct's call: after it on its line (`muted: true, // why`),
 * or a comment line just above it. A plain scan of the line, so `//` inside a string on that line
 * would be taken for a comment; good enough for a reason next to a prop.
 */
export function commentOn(r: DesiredResource, prop: string, sourceOf: SourceReader): string | undefined {
  const location = r.location;
  if (location === undefined) return undefined;
  const source = sourceOf(location.file);
  if (source === undefined) return undefined;
  const at = source.propPosition(location, prop);
  // Not written at the call (a default, a variable, a spread): there is no comment to read.
  if (at === undefined) return undefined;
  const own = source.line(at.line).slice(at.column - 1);
  const trailing = /\/\/(.*)$|\/\*(.*?)\*\//.exec(own);
  if (trailing !== null) return nonEmpty(trailing[1] ?? trailing[2]);
  const above = source.line(at.line - 1).trim();
  if (above.startsWith('//')) return nonEmpty(above.slice(2));
  const block = /^\/?\*+(.*?)\*\/$/.exec(above);
  return block === null ? undefined : nonEmpty(block[1]);
}

function nonEmpty(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * The plan as plan rules see it: each operation with the live resource before and the payload
 * after, every sensitive value a marker and everything frozen; the account (`live`) likewise,
 * made on first read.
 */
export function planView(plan: Plan, live: Live, view: ProjectView): PolicyPlan {
  // Indexes of the whole project and account, made only for a plan with operations to look up:
  // a plan with no changes (the usual diff) has none.
  const indexed = plan.operations.length > 0;
  const inCode = new Map<string, PolicyResource>(
    indexed ? view.views.map((v) => [refKey(v.kind, v.logicalId), v]) : [],
  );
  const liveById = new Map<string, Record<string, unknown>>();
  if (indexed) {
    for (const [kind, items] of Object.entries(live) as [ResourceKind, Live[ResourceKind]][]) {
      for (const item of items) liveById.set(`${kind}:${String(item.id)}`, item);
    }
  }
  const operations = Object.freeze(plan.operations.map((op) => operationView(op, liveById, inCode)));
  let liveView: PolicyPlan['live'] | undefined;
  return Object.freeze({
    operations,
    deletions: Object.freeze(operations.filter((op) => op.action === 'delete')),
    adoptions: Object.freeze(operations.filter((op) => op.action === 'adopt')),
    conflicts: Object.freeze(
      plan.conflicts.map((c) =>
        Object.freeze({
          reason: c.reason,
          kind: c.kind,
          logicalId: c.logicalId,
          field: c.field,
          value: conflictRedactor(c)(c.value) === c.value ? c.value : SENSITIVE_VALUE,
        }),
      ),
    ),
    project: view.project,
    get live() {
      liveView ??= Object.freeze(
        Object.fromEntries(
          (Object.entries(live) as [ResourceKind, Live[ResourceKind]][]).map(([kind, items]) => [
            kind,
            Object.freeze(items.map((item) => policyPayload(kind, item))),
          ]),
        ) as PolicyPlan['live'],
      );
      return liveView;
    },
  });
}

function operationView(
  op: Operation,
  liveById: ReadonlyMap<string, Record<string, unknown>>,
  inCode: ReadonlyMap<string, PolicyResource>,
): PolicyOperation {
  const physicalId = op.action === 'create' ? undefined : op.physicalId;
  const before = physicalId === undefined ? undefined : liveById.get(`${op.kind}:${String(physicalId)}`);
  return Object.freeze({
    action: op.action,
    kind: op.kind,
    logicalId: op.logicalId,
    name: op.name,
    physicalId,
    before: before === undefined ? undefined : policyPayload(op.kind, before),
    after: op.action === 'delete' ? undefined : policyPayload(op.kind, op.payload),
    changes: Object.freeze(
      op.action === 'update' || op.action === 'adopt' || op.action === 'move'
        ? op.changes.map((c) =>
            Object.freeze(
              c.sensitive
                ? { path: c.path, before: SENSITIVE_VALUE, after: SENSITIVE_VALUE }
                : { path: c.path, before: frozenCopy(c.before), after: frozenCopy(c.after) },
            ),
          )
        : [],
    ),
    drift: op.action === 'update' && op.drift,
    resource: inCode.get(refKey(op.kind, op.logicalId)),
  });
}
