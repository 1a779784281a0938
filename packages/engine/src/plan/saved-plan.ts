import { KINDS, type ResourceKind } from '@monitor/api';
import { z } from '@monitor/api/zod';
import { InvalidPlanError } from '../errors.js';
import { hashJson } from '../hash.js';
import { ByPhysicalId } from '../identity.js';
import { stateKey } from '../state/state.js';
import { withoutIgnored } from './ignore.js';
import { type Live, type LiveResource, type Operation, type Plan, summarize } from './plan.js';
import { type PlanJson, planToJson } from './plan-json.js';

export const SAVED_PLAN_FORMAT_VERSION = 1;

/** A plan saved by `monitor diff --out`, applied later by `monitor deploy --plan`. */
export interface SavedPlan {
  kind: 'monitor-plan';
  formatVersion: typeof SAVED_PLAN_FORMAT_VERSION;
  createdAt: string;
  accountId: string;
  projectName: string;
  /** The state serial the plan was made against. */
  stateSerial: number;
  /** Per operation (`Kind:logicalId`): the hash of the live resource it touches, `null` for creates. */
  fingerprints: Record<string, string | null>;
  /** Per operation: the hash of the desired payload (secrets salted), to notice code changed since. */
  desiredHashes: Record<string, string>;
  plan: PlanJson;
}

const savedPlanSchema = z.looseObject({
  kind: z.literal('monitor-plan'),
  formatVersion: z.literal(SAVED_PLAN_FORMAT_VERSION),
  createdAt: z.string(),
  accountId: z.string(),
  projectName: z.string(),
  stateSerial: z.number().int(),
  fingerprints: z.record(z.string(), z.string().nullable()),
  desiredHashes: z.record(z.string(), z.string()),
  plan: z.looseObject({
    operations: z.array(z.looseObject({ action: z.string(), kind: z.string(), logicalId: z.string() })),
    targets: z.array(z.string()).optional(),
    replace: z.array(z.string()).optional(),
  }),
});

const keyOf = (op: { kind: string; logicalId: string }) => stateKey(op.kind as ResourceKind, op.logicalId);

function liveIndex(live: Live): ByPhysicalId<LiveResource> {
  const index = new ByPhysicalId<LiveResource>();
  for (const kind of Object.keys(live) as ResourceKind[])
    for (const r of live[kind]) index.set(kind, r.id, r);
  return index;
}

function fingerprintOf(op: Operation, live: ByPhysicalId<LiveResource>): string | null {
  if (op.action === 'create') return null;
  const resource = live.tryFind(op.kind, op.physicalId);
  if (resource === undefined) return 'absent';
  // Fields left to people may move in the account without making the plan stale.
  const ignore = op.action === 'delete' ? [] : (op.ignoreChanges ?? []);
  return hashJson(withoutIgnored(KINDS[op.kind], resource, ignore));
}

export function savePlan(
  plan: Plan,
  live: Live,
  context: { accountId: string; projectName: string },
): SavedPlan {
  const index = liveIndex(live);
  return {
    kind: 'monitor-plan',
    formatVersion: SAVED_PLAN_FORMAT_VERSION,
    createdAt: plan.createdAt,
    accountId: context.accountId,
    projectName: context.projectName,
    stateSerial: plan.stateSerial,
    fingerprints: Object.fromEntries(plan.operations.map((op) => [keyOf(op), fingerprintOf(op, index)])),
    desiredHashes: Object.fromEntries(
      plan.operations.flatMap((op) => (op.action === 'delete' ? [] : [[keyOf(op), op.desiredHash]])),
    ),
    plan: planToJson(plan),
  };
}

/** The targets and replacements a saved plan was made with: what `deploy --plan` plans with again. */
export function scopeOf(saved: SavedPlan): { targets?: string[]; replace?: string[] } {
  return {
    ...(saved.plan.targets === undefined ? {} : { targets: saved.plan.targets }),
    ...(saved.plan.replace === undefined ? {} : { replace: saved.plan.replace }),
  };
}

/** Parse a saved plan file's text; a clear error when it is not one. */
export function parseSavedPlan(text: string, path: string): SavedPlan {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new InvalidPlanError(
      `${path} is not JSON: ${(e as Error).message}`,
      'save a plan with monitor diff --out',
    );
  }
  const parsed = savedPlanSchema.safeParse(raw);
  if (!parsed.success) {
    throw new InvalidPlanError(
      `${path} is not a saved monitor plan: ${z.prettifyError(parsed.error).split('\n')[0] ?? ''}`,
      'save a plan with monitor diff --out plan.json',
    );
  }
  return parsed.data as unknown as SavedPlan;
}

/**
 * Check a saved plan against a fresh one (made now from the code, the live account and state).
 * Returns what moved since it was saved (empty: it still holds) and the fresh plan narrowed to
 * exactly the saved operations.
 */
export function checkSavedPlan(saved: SavedPlan, fresh: Plan, live: Live): { stale: string[]; plan: Plan } {
  const state = fresh.priorState;
  const stale: string[] = [];
  if (saved.accountId !== state.accountId) {
    stale.push(`the plan is for account ${saved.accountId}, not ${state.accountId}`);
  }
  if (saved.stateSerial !== state.serial) {
    stale.push(
      `state changed since the plan was saved (serial ${saved.stateSerial} → ${state.serial}): another deploy ran`,
    );
  }
  const index = liveIndex(live);
  const freshByKey = new Map(fresh.operations.map((op) => [keyOf(op), op]));
  const operations: Operation[] = [];
  for (const op of saved.plan.operations as { action: string; kind: string; logicalId: string }[]) {
    const key = keyOf(op);
    const now = freshByKey.get(key);
    if (now === undefined) {
      stale.push(`${key}: the plan would ${op.action} it, but it needs no change now`);
      continue;
    }
    if (now.action !== op.action) {
      stale.push(`${key}: the plan would ${op.action} it, but now it needs ${now.action}`);
      continue;
    }
    const fingerprint = fingerprintOf(now, index);
    if (fingerprint !== saved.fingerprints[key]) {
      stale.push(`${key}: the live resource changed since the plan was saved`);
      continue;
    }
    if (now.action !== 'delete' && now.desiredHash !== saved.desiredHashes[key]) {
      stale.push(`${key}: the code changed since the plan was saved`);
      continue;
    }
    operations.push(now);
  }
  return { stale, plan: { ...fresh, operations, summary: summarize(operations, fresh.unchanged) } };
}
