import { isResourceKind, nearest } from '@monitor/api';
import type { DesiredResource } from '@monitor/constructs';
import { type State, stateKey } from '../state/state.js';
import { TargetError } from './errors.js';
import type { PlanMode } from './types.js';

/**
 * The targeting stage: which constructs the plan places. All of them; none when destroying, which
 * is planning against a project that declares nothing; or with targets, the named ones and what
 * they need created first.
 */

/** What a targeted plan covers. */
export interface Selection {
  /** State keys the targets name: constructs of the code, or entries of state (to delete). */
  targeted: ReadonlySet<string>;
  /** Constructs the targeted ones refer to, transitively: only their creates are planned. */
  needed: ReadonlySet<string>;
}

export interface Targets {
  desired: readonly DesiredResource[];
  /** Absent: the plan covers the whole project. */
  selection?: Selection;
}

/**
 * Resolve `ids` (`logicalId` or `Kind:logicalId`, as `monitor state show` takes them) against the
 * code and state: each names exactly one construct or state entry, or it is a `TargetError` with the
 * nearest names.
 */
export function resolveIds(
  ids: readonly string[],
  code: readonly DesiredResource[],
  state: State,
  what: '--target' | '--replace' | 'output',
): string[] {
  const known = new Set([...code.map((d) => stateKey(d.kind, d.logicalId)), ...Object.keys(state.resources)]);
  return ids.map((id) => {
    const colon = id.indexOf(':');
    const kind = colon < 0 ? undefined : id.slice(0, colon);
    if (kind !== undefined && isResourceKind(kind)) {
      if (known.has(id)) return id;
      throw unknown(id, known, what);
    }
    const matches = [...known].filter((key) => key.slice(key.indexOf(':') + 1) === id);
    if (matches.length === 1) return matches[0] as string;
    if (matches.length > 1) {
      throw new TargetError(
        `${what} ${id} names ${matches.length} resources: ${matches.sort().join(', ')}`,
        `name one with its kind, e.g. ${matches[0]}`,
      );
    }
    throw unknown(id, known, what);
  });
}

function unknown(id: string, known: ReadonlySet<string>, what: string): TargetError {
  const ids = [...known, ...[...known].map((k) => k.slice(k.indexOf(':') + 1))];
  const near = nearest(id, ids);
  return new TargetError(
    `${what} ${id}: the project has no construct and no state entry of that name`,
    near === undefined ? 'list what the project owns with monitor state list' : `did you mean ${near}?`,
  );
}

/** The constructs the plan places, for `mode`, the resolved targets and replacements. */
export function resolveTargets(
  code: readonly DesiredResource[],
  mode: PlanMode,
  options: { targets?: readonly string[] } = {},
): Targets {
  if (mode === 'destroy') return { desired: [] };
  if (options.targets === undefined || options.targets.length === 0) return { desired: code };
  const targeted = new Set(options.targets);
  const byKey = new Map(code.map((d) => [stateKey(d.kind, d.logicalId), d]));
  const needed = new Set<string>();
  const queue = [...targeted];
  while (queue.length > 0) {
    const d = byKey.get(queue.shift() as string);
    for (const dep of d?.dependsOn ?? []) {
      if (targeted.has(dep) || needed.has(dep)) continue;
      needed.add(dep);
      queue.push(dep);
    }
  }
  const desired = code.filter((d) => {
    const key = stateKey(d.kind, d.logicalId);
    return targeted.has(key) || needed.has(key);
  });
  return { desired, selection: { targeted, needed } };
}
