import { RESOURCE_KINDS, type ResourceKind } from '@monitor/api';
import type { DesiredResource } from '@monitor/constructs';
import * as constructs from '@monitor/constructs';
import { constructClass, UNKNOWN_SECRET } from '../import/synthesize.js';
import { isRefValue, isSecretValue, markSecrets, type PropValue } from '../import/values.js';
import { displayNameOf } from '../plan/plan.js';
import type { Live, LiveResource } from '../plan/types.js';
import type { Ownership } from './ownership.js';

/** A resource of the account, as the audit names it: kind, construct, name and id, and who owns it. */
export interface AuditedResource {
  kind: ResourceKind;
  /** The construct that would make it, e.g. `SlackAlertChannel`. */
  construct: string;
  physicalId: string | number;
  name?: string;
  owner: Ownership;
}

/** A live resource and the construct it reads as: what the policies judge. */
export interface AuditSubject {
  resource: AuditedResource;
  desired: DesiredResource;
}

/** A live resource that could not be read as a construct: the policies do not see it. */
export interface Unreadable {
  resource: AuditedResource;
  reason: string;
}

/**
 * The logical id a live resource has in the audit: its logical id when this project owns it (so
 * its references read as in the code, `{ $ref: 'AlertChannel:oncall' }`), else `#` and its id.
 */
export function auditLogicalId(owner: Ownership, physicalId: string | number): string {
  return owner.owned === 'here' ? owner.logicalId : `#${String(physicalId)}`;
}

interface Made {
  resource: AuditedResource;
  logicalId: string;
  instance: constructs.Construct<object>;
}

/**
 * Every live resource as the construct `monitor import` would write for it, synthesized: its
 * payload has the shape, defaults and references a construct's has at plan time, so the policies
 * see it as they see the code's. References to resources of the account are references to their
 * constructs (`project.resolve` finds them); secrets are the account's values, or for those the
 * service masks a stand-in that the views mask like any other. Resources this project owns keep
 * their construct's place in the code and its `policyExceptions` (only of policies in `known`).
 */
export function liveConstructs(
  live: Live,
  ownerOf: (kind: ResourceKind, id: string | number) => Ownership,
  code: readonly DesiredResource[],
  known: ReadonlySet<string>,
): { subjects: AuditSubject[]; unreadable: Unreadable[] } {
  const unreadable: Unreadable[] = [];
  const made: Made[] = [];
  const session = constructs.createSession({ captureLocations: false });
  try {
    const byId = new Map<string, constructs.Construct<object>>();
    // Referred-to kinds first: a group's channels are made before the group.
    for (const kind of RESOURCE_KINDS) {
      for (const r of live[kind]) {
        const one = makeConstruct(kind, r, ownerOf(kind, r.id), byId);
        if ('reason' in one) unreadable.push(one);
        else {
          made.push(one);
          byId.set(`${kind}:${String(r.id)}`, one.instance);
        }
      }
    }
  } finally {
    constructs.closeSession();
  }
  const { resources, diagnostics } = constructs.synth({ validate: false }, session);
  const synthesized = new Map(resources.map((d) => [constructs.refKey(d.kind, d.logicalId), d]));
  const inCode = new Map(code.map((d) => [constructs.refKey(d.kind, d.logicalId), d]));
  const subjects: AuditSubject[] = [];
  for (const m of made) {
    const key = constructs.refKey(m.resource.kind, m.logicalId);
    const desired = synthesized.get(key);
    if (desired === undefined) {
      const said = diagnostics.find((d) => d.logicalId === m.logicalId && d.severity === 'error');
      unreadable.push({ resource: m.resource, reason: said?.message ?? 'it could not be synthesized' });
      continue;
    }
    const construct = m.resource.owner.owned === 'here' ? inCode.get(key) : undefined;
    subjects.push({ resource: m.resource, desired: withCodeOf(desired, construct, known) });
  }
  return { subjects, unreadable };
}

/** The construct of one live resource, made in the open session; why not, when it cannot be. */
function makeConstruct(
  kind: ResourceKind,
  r: LiveResource,
  owner: Ownership,
  byId: ReadonlyMap<string, constructs.Construct<object>>,
): Made | Unreadable {
  const name = displayNameOf(kind, r);
  const resource: AuditedResource = {
    kind,
    construct: kind,
    physicalId: r.id,
    ...(name === undefined ? {} : { name }),
    owner,
  };
  try {
    const source = constructs.CONSTRUCT_SOURCES[kind].source(markSecrets(kind, r));
    resource.construct = source.construct;
    const runtime = (value: PropValue): unknown => {
      if (isRefValue(value)) {
        return (
          byId.get(`${value.kind}:${String(value.physicalId)}`) ??
          constructClass(value.kind).fromId?.(value.physicalId)
        );
      }
      if (isSecretValue(value)) return value.masked ? UNKNOWN_SECRET : value.value;
      if (Array.isArray(value)) return value.map(runtime);
      if (value !== null && typeof value === 'object')
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, runtime(v)]));
      return value;
    };
    const logicalId = auditLogicalId(owner, r.id);
    const instance = new (constructClass(source.construct))(
      logicalId,
      runtime(source.props as PropValue) as object,
    );
    return { resource, logicalId, instance };
  } catch (e) {
    return { resource, reason: `it could not be read as a construct: ${(e as Error).message}` };
  }
}

/** A live resource's construct with its code's place and waivers, when this project's code has it. */
function withCodeOf(
  desired: DesiredResource,
  construct: DesiredResource | undefined,
  known: ReadonlySet<string>,
): DesiredResource {
  if (construct === undefined) return desired;
  const out: DesiredResource = {
    ...desired,
    options: {
      ...desired.options,
      // A waiver of a policy no one defined is validate's to report, not the audit's.
      policyExceptions: construct.options.policyExceptions.filter((e) => known.has(e.policy)),
    },
  };
  // Resolved when read, as the code's is: most resources are never found at fault.
  Object.defineProperty(out, 'location', { get: () => construct.location, enumerable: true });
  return out;
}
