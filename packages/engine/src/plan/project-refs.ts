import { KINDS, valuesAt } from '@monitor/api';
import {
  type DesiredResource,
  isProjectPayloadRef,
  type ProjectPayloadRef,
  projectUseKey,
  replaceRefs,
} from '@monitor/constructs';
import type { PhysicalId } from '../identity.js';
import { type State, stateKey } from '../state/state.js';
import type { AccountIndex } from './match.js';
import type { Conflict, ProjectRefResolved } from './types.js';

/**
 * The stage that resolves references to other projects' constructs (`X.fromProject`): each
 * `{ $project, $ref }` in a payload becomes the physical id the other project's state records for
 * it, in this account. Only the other project's state is asked, never this one's: the resource is
 * that project's, and this project only refers to it.
 */

/** A reference to another project's construct, where a payload holds it. */
export interface ProjectRefAt {
  resource: DesiredResource;
  /** The payload path of the reference, e.g. `alertChannelSubscriptions[0].alertChannelId`. */
  path: string;
  ref: ProjectPayloadRef;
}

/**
 * Every reference to another project's construct in the code. Only the kinds' reference fields
 * can hold one (synthesis writes them where it writes references), so only those are read.
 */
export function projectRefsIn(code: readonly DesiredResource[]): ProjectRefAt[] {
  const found: ProjectRefAt[] = [];
  for (const resource of code) {
    for (const field of KINDS[resource.kind].references) {
      for (const { path, value } of valuesAt(resource.payload, field.path)) {
        if (isProjectPayloadRef(value)) found.push({ resource, path, ref: value });
      }
    }
  }
  return found;
}

/** The other projects the code references, sorted. */
export function referencedProjectNames(code: readonly DesiredResource[]): string[] {
  return [...new Set(projectRefsIn(code).map((at) => at.ref.$project))].sort();
}

export interface ResolvedProjectRefs {
  /** The code with each resolved reference replaced by its id; a resource with none is the same object. */
  desired: DesiredResource[];
  /** One `unresolved` conflict per reference that does not resolve. */
  conflicts: Conflict[];
  /** What each resource with references uses (`project/Kind:logicalId`), sorted, by its state key. */
  uses: Map<string, string[]>;
  /** Each resolved reference, in the order of the code. */
  resolved: ProjectRefResolved[];
}

/**
 * Resolve the code's references to other projects' constructs against their states
 * (`states`: undefined for a project not found). A reference resolves when that project's state
 * records the construct and the account still holds the resource at the recorded id.
 */
export function resolveProjectRefs(
  code: readonly DesiredResource[],
  states: ReadonlyMap<string, State | undefined>,
  account: Pick<AccountIndex, 'byId'>,
): ResolvedProjectRefs {
  const found = projectRefsIn(code);
  const result: ResolvedProjectRefs = { desired: [...code], conflicts: [], uses: new Map(), resolved: [] };
  if (found.length === 0) return result;
  const ids = new Map<ProjectPayloadRef, PhysicalId>();
  const holders = new Set<DesiredResource>();
  for (const { resource, path, ref } of found) {
    holders.add(resource);
    const key = stateKey(resource.kind, resource.logicalId);
    const uses = result.uses.get(key) ?? [];
    uses.push(projectUseKey(ref));
    result.uses.set(key, uses);
    const resolved = resolveOne(ref, states.get(ref.$project), account);
    if (typeof resolved === 'string') {
      result.conflicts.push(unresolvedConflict(resource, path, ref, resolved));
      continue;
    }
    ids.set(ref, resolved.id);
    result.resolved.push({ from: key, project: ref.$project, ref: ref.$ref, physicalId: resolved.id });
  }
  for (const [key, uses] of result.uses) result.uses.set(key, [...new Set(uses)].sort());
  result.desired = code.map((d) => (holders.has(d) ? withResolvedRefs(d, ids) : d));
  return result;
}

/** The id a reference resolves to, or what is missing for it to resolve. */
function resolveOne(
  ref: ProjectPayloadRef,
  state: State | undefined,
  account: Pick<AccountIndex, 'byId'>,
): { id: PhysicalId } | 'project' | 'construct' | 'resource' {
  if (state === undefined) return 'project';
  const entry = state.resources[ref.$ref];
  if (entry === undefined) return 'construct';
  if (account.byId.tryFind(entry.kind, entry.physicalId) === undefined) return 'resource';
  return { id: entry.physicalId };
}

function unresolvedConflict(
  d: DesiredResource,
  path: string,
  ref: ProjectPayloadRef,
  missing: 'project' | 'construct' | 'resource',
): Conflict {
  return {
    reason: 'unresolved',
    kind: d.kind,
    logicalId: d.logicalId,
    construct: d.construct,
    location: d.location,
    field: path,
    value: ref.$ref,
    holder: ref.$project,
    missing,
  };
}

/**
 * `d` with the references that resolved replaced by their ids (those that did not stay as they
 * are: the construct is in conflict, never sent). Its location is read from `d` when asked: mapping
 * it through the source map costs, and most are never read.
 */
function withResolvedRefs(
  d: DesiredResource,
  ids: ReadonlyMap<ProjectPayloadRef, PhysicalId>,
): DesiredResource {
  const payload = replaceRefs(
    d.payload,
    (ref) => ref,
    (ref) => ids.get(ref) ?? ref,
  ) as Record<string, unknown>;
  return {
    kind: d.kind,
    construct: d.construct,
    logicalId: d.logicalId,
    payload,
    dependsOn: d.dependsOn,
    options: d.options,
    get location() {
      return d.location;
    },
  };
}
