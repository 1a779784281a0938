import { type Client, collect, KINDS } from '@monitor/api';
import type { OperationResult } from '../apply/apply.js';
import type { Plan } from '../plan/types.js';
import { stateKey } from '../state/state.js';
import type { GroupToVerify } from './report.js';

/**
 * What a verification measures against: the check groups a deploy touched, and how their checks
 * stood before it.
 */

/** What the account said before the deploy: failing checks and known error groups. */
export interface Baseline {
  failing: ReadonlySet<string>;
  degraded: ReadonlySet<string>;
  /** The error groups there were: any other is new. */
  errorGroups: ReadonlySet<string>;
  /** Instead of `errorGroups`: an error group first seen at or after this time (ISO 8601) is new. */
  newSince?: string;
}

export const EMPTY_BASELINE: Baseline = { failing: new Set(), degraded: new Set(), errorGroups: new Set() };

/** The check groups a deploy created, replaced, or changed in a field that affects runs (`runFields`). */
export function groupsChangedBy(plan: Plan, results: readonly OperationResult[]): GroupToVerify[] {
  const done = new Map(results.filter((r) => r.status === 'done').map((r) => [r.key, r]));
  const runFields = new Set(KINDS.CheckGroup.runFields ?? []);
  const out: GroupToVerify[] = [];
  for (const op of plan.operations) {
    if (op.kind !== 'CheckGroup' || op.action === 'delete') continue;
    const key = stateKey(op.kind, op.logicalId);
    const r = done.get(key);
    if (r?.physicalId === undefined) continue;
    const reason =
      op.action === 'create'
        ? 'created'
        : op.action === 'replace'
          ? 'replaced'
          : op.changes.some((c) => runFields.has(c.path.split(/[.[]/)[0] as string))
            ? 'changed'
            : undefined;
    if (reason === undefined) continue;
    out.push({
      key,
      logicalId: op.logicalId,
      id: Number(r.physicalId),
      ...(op.name === undefined ? {} : { name: op.name }),
      reason,
    });
  }
  return out;
}

/** Every check group the project owns, by its state: what `--verify all` and `monitor verify` run. */
export function ownedGroups(
  state: { resources: Record<string, { kind: string; logicalId: string; physicalId: string | number }> },
  only?: ReadonlySet<string>,
): GroupToVerify[] {
  return Object.values(state.resources)
    .filter(
      (e) => e.kind === 'CheckGroup' && (only === undefined || only.has(stateKey('CheckGroup', e.logicalId))),
    )
    .map((e) => ({
      key: stateKey('CheckGroup', e.logicalId),
      logicalId: e.logicalId,
      id: Number(e.physicalId),
      reason: 'selected' as const,
    }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

/**
 * The failing and degraded checks, and the error groups, as they are now: read before a deploy.
 * With `newSince`, error groups are told new by when they were first seen, and not listed.
 */
export async function readBaseline(
  client: Pick<Client, 'checks' | 'errorGroups'>,
  newSince?: string,
): Promise<Baseline> {
  const [failing, degraded, groups] = await Promise.all([
    collect(client.checks.all({ status: 'failing' })),
    collect(client.checks.all({ status: 'degraded' })),
    newSince === undefined ? collect(client.errorGroups.all()) : [],
  ]);
  return {
    failing: new Set(failing.map((c) => c.id)),
    degraded: new Set(degraded.map((c) => c.id)),
    errorGroups: new Set(groups.map((g) => g.id)),
    ...(newSince === undefined ? {} : { newSince }),
  };
}
