import type { ResourceKind } from '@monitor/api';
import {
  type DesiredResource,
  isPayloadRef,
  type PolicyOperation,
  type PolicyPlan,
  type PolicyProject,
  type PolicyResource,
  refKey,
} from '@monitor/constructs';
import type { Live, Plan } from '../plan/types.js';
import type { SourceReader } from '../positions/source-reader.js';

/** The project's constructs as policies see them, each with the resource it was made from. */
export interface ProjectView {
  project: PolicyProject;
  /** The view of each resource, in the order of `resources`. */
  views: ResourceView[];
}

/** A resource as a policy sees it; one class, so thousands of views share one shape and no closures. */
export class ResourceView implements PolicyResource {
  readonly kind: ResourceKind;
  readonly construct: string;
  readonly logicalId: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly environment: string | undefined;
  readonly resource: DesiredResource;
  readonly #sourceOf: SourceReader;
  /** Comments read so far, by prop: several rules ask about the same one (`muted`). */
  #comments: Map<string, string | undefined> | undefined;

  constructor(resource: DesiredResource, environment: string | undefined, sourceOf: SourceReader) {
    this.kind = resource.kind;
    this.construct = resource.construct;
    this.logicalId = resource.logicalId;
    this.payload = resource.payload;
    this.environment = environment;
    this.resource = resource;
    this.#sourceOf = sourceOf;
  }

  get location() {
    return this.resource.location;
  }

  commentOn(prop: string): string | undefined {
    this.#comments ??= new Map();
    if (!this.#comments.has(prop)) this.#comments.set(prop, commentOn(this.resource, prop, this.#sourceOf));
    return this.#comments.get(prop);
  }
}

export function projectView(
  resources: readonly DesiredResource[],
  environment: string | undefined,
  sourceOf: SourceReader,
): ProjectView {
  const views = resources.map((r) => new ResourceView(r, environment, sourceOf));
  let byKey: Map<string, PolicyResource> | undefined;
  const project: PolicyProject = {
    resources: views,
    environment,
    resolve(ref) {
      if (!isPayloadRef(ref)) return undefined;
      byKey ??= new Map(views.map((v) => [refKey(v.kind, v.logicalId), v]));
      return byKey.get(ref.$ref);
    },
  };
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

/** The plan as plan rules see it: each operation with the live resource before and the payload after. */
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
  const operations: PolicyOperation[] = plan.operations.map((op) => {
    const physicalId = op.action === 'create' ? undefined : op.physicalId;
    return {
      action: op.action,
      kind: op.kind,
      logicalId: op.logicalId,
      name: op.name,
      physicalId,
      before: physicalId === undefined ? undefined : liveById.get(`${op.kind}:${String(physicalId)}`),
      after: op.action === 'delete' ? undefined : op.payload,
      changes:
        op.action === 'update' || op.action === 'adopt' || op.action === 'move'
          ? op.changes.map((c) => ({ path: c.path, before: c.before, after: c.after }))
          : [],
      drift: op.action === 'update' && op.drift,
      resource: inCode.get(refKey(op.kind, op.logicalId)),
    };
  });
  return {
    operations,
    deletions: operations.filter((op) => op.action === 'delete'),
    adoptions: operations.filter((op) => op.action === 'adopt'),
    conflicts: plan.conflicts.map((c) => ({
      reason: c.reason,
      kind: c.kind,
      logicalId: c.logicalId,
      field: c.field,
      value: c.value,
    })),
    project: view.project,
    live,
  };
}
