import { type Client, collect, KINDS } from '@monitor/api';
import type { OperationResult } from '../apply/apply.js';
import type { Change } from '../plan/diff.js';
import type { Plan } from '../plan/types.js';
import { type CheckBefore, type KeptBaseline, stateKey } from '../state/state.js';
import type { GroupToVerify } from './report.js';

/**
 * What a verification measures against: the check groups a deploy touched (and what it changed in
 * them), and how their checks stood before it.
 */

export type { CheckBefore } from '../state/state.js';

/** What the account said before the deploy: each check's status and locations, and the error groups. */
export interface Baseline {
  /** When it was read (ISO 8601): before the apply, or when `monitor verify` started. */
  at: string;
  /**
   * The checks the account gave a status, by id, with their check group. A check not here had not
   * run (or did not exist) when the baseline was read: its first run tells nothing of the deploy.
   */
  checks: ReadonlyMap<string, CheckBefore & { groupId?: number }>;
  /** The error groups there were, each with the check it is of: any other is new. */
  errorGroups: ReadonlyMap<string, string>;
  /** Instead of `errorGroups`: an error group first seen at or after this time (ISO 8601) is new. */
  newSince?: string;
}

export const EMPTY_BASELINE: Baseline = {
  at: new Date(0).toISOString(),
  checks: new Map(),
  errorGroups: new Map(),
};

/** The check groups a deploy created, replaced, or changed in a field that affects runs (`runFields`), with those changes. */
export function groupsChangedBy(plan: Plan, results: readonly OperationResult[]): GroupToVerify[] {
  const done = new Map(results.filter((r) => r.status === 'done').map((r) => [r.key, r]));
  const runFields = new Set(KINDS.CheckGroup.runFields ?? []);
  const out: GroupToVerify[] = [];
  for (const op of plan.operations) {
    if (op.kind !== 'CheckGroup' || op.action === 'delete') continue;
    const key = stateKey(op.kind, op.logicalId);
    const r = done.get(key);
    if (r?.physicalId === undefined) continue;
    const changes =
      op.action === 'create' || op.action === 'replace'
        ? []
        : op.changes.filter((c) => runFields.has(c.path.split(/[.[]/)[0] as string)).map(shownChange);
    const reason =
      op.action === 'create'
        ? 'created'
        : op.action === 'replace'
          ? 'replaced'
          : changes.length > 0
            ? 'changed'
            : undefined;
    if (reason === undefined) continue;
    out.push({
      key,
      logicalId: op.logicalId,
      id: Number(r.physicalId),
      ...(op.name === undefined ? {} : { name: op.name }),
      reason,
      ...(changes.length === 0 ? {} : { changes }),
    });
  }
  return out;
}

/** A change as the plan shows it (its values already masked where sensitive), without its cause. */
function shownChange(c: Change): Change {
  return {
    path: c.path,
    before: c.before,
    after: c.after,
    ...(c.sensitive === true ? { sensitive: true } : {}),
    ...(c.unverified === true ? { unverified: true } : {}),
  };
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

/** `groups`, each one the deploy changed given as `changed` says (its reason and changes). */
export function withChanges(
  groups: readonly GroupToVerify[],
  changed: readonly GroupToVerify[],
): GroupToVerify[] {
  const byKey = new Map(changed.map((g) => [g.key, g]));
  return groups.map((g) => byKey.get(g.key) ?? g);
}

const STATUSES = ['failing', 'degraded', 'passing'] as const;

/**
 * Every check with a status, and the error groups, as they are now: read before a deploy (or when
 * `monitor verify` starts). With `newSince`, error groups are told new by when they were first
 * seen, and not listed.
 */
export async function readBaseline(
  client: Pick<Client, 'checks' | 'errorGroups'>,
  newSince?: string,
): Promise<Baseline> {
  const at = new Date().toISOString();
  const [lists, groups] = await Promise.all([
    Promise.all(STATUSES.map((status) => collect(client.checks.all({ status, applyGroupSettings: true })))),
    newSince === undefined ? collect(client.errorGroups.all()) : [],
  ]);
  const checks = new Map<string, CheckBefore & { groupId?: number }>();
  STATUSES.forEach((status, i) => {
    for (const c of lists[i] ?? []) {
      if (checks.has(c.id)) continue;
      const check = c as { locations?: unknown; groupId?: unknown };
      checks.set(c.id, {
        status,
        locations: Array.isArray(check.locations) ? (check.locations as string[]) : [],
        ...(typeof check.groupId === 'number' ? { groupId: check.groupId } : {}),
      });
    }
  });
  return {
    at,
    checks,
    errorGroups: new Map(groups.map((g) => [g.id, g.checkId])),
    ...(newSince === undefined ? {} : { newSince }),
  };
}

/**
 * The part of a baseline a deploy's record keeps: the checks of `groupIds` (the groups it changed,
 * the ones `verify --since-deploy` runs) and their error groups.
 */
export function keptBaseline(baseline: Baseline, groupIds: readonly number[]): KeptBaseline {
  const wanted = new Set(groupIds);
  const checks: Record<string, CheckBefore> = {};
  for (const [id, c] of [...baseline.checks].sort(([a], [b]) => a.localeCompare(b))) {
    if (c.groupId !== undefined && wanted.has(c.groupId))
      checks[id] = { status: c.status, locations: c.locations };
  }
  const errorGroups: Record<string, string> = {};
  for (const [id, checkId] of [...baseline.errorGroups].sort(([a], [b]) => a.localeCompare(b))) {
    if (Object.hasOwn(checks, checkId)) errorGroups[id] = checkId;
  }
  return { checks, errorGroups };
}

/** The baseline a deploy's record kept, as it was read before that deploy (`at`). */
export function baselineFromKept(kept: KeptBaseline, at: string): Baseline {
  return {
    at,
    checks: new Map(Object.entries(kept.checks)),
    errorGroups: new Map(Object.entries(kept.errorGroups)),
  };
}
