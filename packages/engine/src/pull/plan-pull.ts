import { isRecord, KINDS, type ResourceKind, rulePathOf } from '@monitor/api';
import type { DesiredResource, SourceLocation } from '@monitor/constructs';
import * as constructs from '@monitor/constructs';
import { isRefValue, isSecretValue, markSecrets, type Props, type PropValue } from '../import/values.js';
import type { Change } from '../plan/diff.js';
import { pathSegments } from '../plan/ignore.js';
import type { Live, LiveResource, Plan, UpdateOperation } from '../plan/types.js';
import { stateKey } from '../state/state.js';

/**
 * `monitor pull`, the planning half: for each owned resource that drifted (the account changed
 * it, the code did not), the props to write back and the account's value for each, as the
 * construct takes them (the inverse of synthesis beside each construct, as import uses it).
 * Pure: the rewriting of source files is `rewrite.ts`.
 */

/** One step of a prop path: a field, or the entry of a keyed list named by its key. */
export interface PropStep {
  field: string;
  /** The entry's key, and the field of the entries that holds it (`key` of environment variables). */
  entry?: { key: string; keyField: string };
}

/** A prop (or a value inside one) to write as the account has it. */
export interface PropEdit {
  /** As the plan prints paths, under the props: `alertSettings.reminders.amount`, or a whole prop. */
  path: string;
  steps: PropStep[];
  /** The account's value there; `undefined` when the account has none (the code's is removed). */
  value: PropValue | undefined;
  /** The account's value at each step's end, to add what the code does not write at all. */
  valuesAlong: (PropValue | undefined)[];
  /** For a keyed step, the account's whole list it picks its entry from. */
  listsAlong: (PropValue | undefined)[];
  /** The plan's change paths it brings back. */
  changes: string[];
  /** A prop of references (written as the variables of constructs), written again whole. */
  references: boolean;
}

export interface ResourcePull {
  key: string;
  kind: ResourceKind;
  logicalId: string;
  construct: string;
  location?: SourceLocation | undefined;
  edits: PropEdit[];
}

/** A change `pull` leaves to people, with why. */
export interface NotPulled {
  key: string;
  kind: ResourceKind;
  logicalId: string;
  location?: SourceLocation | undefined;
  path: string;
  reason: 'code-changed' | 'secret' | 'no-prop';
}

export interface PullPlan {
  resources: ResourcePull[];
  notPulled: NotPulled[];
}

/** The steps of a props path; keyed entries take their key field from the kind's payload path. */
function stepsOf(kind: ResourceKind, propPath: string, payloadPath: string): PropStep[] | undefined {
  const def = KINDS[kind];
  const payload = pathSegments(payloadPath);
  const props = pathSegments(propPath);
  // A prop path is the payload path, or its tail (an alert channel's `config.` is not a prop).
  const offset = payload.length - props.length;
  if (offset < 0) return undefined;
  let rule = '';
  const keyFields: (string | undefined)[] = [];
  for (const segment of payload) {
    rule = rule === '' ? segment.field : `${rule}.${segment.field}`;
    keyFields.push(segment.key === undefined ? undefined : def.keyed[rulePathOf(rule)]);
    if (segment.key !== undefined) rule = `${rule}[]`;
  }
  const steps: PropStep[] = [];
  for (const [i, segment] of props.entries()) {
    const keyField = keyFields[i + offset];
    if (segment.key === undefined) steps.push({ field: segment.field });
    else if (keyField === undefined) return undefined;
    else steps.push({ field: segment.field, entry: { key: segment.key, keyField } });
  }
  return steps;
}

/** The value at the end of each step in `props` (and each keyed step's list); `undefined` from where there is none. */
function valuesAlong(
  props: Props,
  steps: readonly PropStep[],
): { values: (PropValue | undefined)[]; lists: (PropValue | undefined)[] } {
  const values: (PropValue | undefined)[] = [];
  const lists: (PropValue | undefined)[] = [];
  let at: PropValue | undefined = props;
  for (const step of steps) {
    let next: PropValue | undefined = isRecord(at) ? (at as Props)[step.field] : undefined;
    lists.push(step.entry === undefined ? undefined : next);
    if (step.entry !== undefined) {
      const { key, keyField } = step.entry;
      next = Array.isArray(next)
        ? next.find((item) => isRecord(item) && String((item as Props)[keyField]) === key)
        : undefined;
    }
    values.push(next);
    at = next;
  }
  return { values, lists };
}

/** Whether a props value holds a marker (`isSecretValue`, `isRefValue`) anywhere in it. */
function holds(value: PropValue | undefined, marker: (v: PropValue) => boolean): boolean {
  if (value === undefined) return false;
  if (marker(value)) return true;
  if (Array.isArray(value)) return value.some((v) => holds(v, marker));
  if (value !== null && typeof value === 'object' && !isRefValue(value) && !isSecretValue(value))
    return Object.values(value).some((v) => holds(v, marker));
  return false;
}

/** Whether a value holds a secret anywhere in it: such a value is never written into code. */
export const holdsSecret = (value: PropValue | undefined) => holds(value, isSecretValue);
/** Whether a value refers to another resource anywhere in it. */
export const holdsRef = (value: PropValue | undefined) => holds(value, isRefValue);

/** Paths where one is inside another keep the outer one: it is written whole. */
function outermost(paths: string[]): string[] {
  const sorted = [...new Set(paths)].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const p of sorted) if (!kept.some((k) => p.startsWith(`${k}.`) || p.startsWith(`${k}[`))) kept.push(p);
  return kept;
}

function pullOne(
  op: UpdateOperation,
  live: LiveResource,
  location: SourceLocation | undefined,
): { pull?: ResourcePull; notPulled: NotPulled[] } {
  const key = stateKey(op.kind, op.logicalId);
  const base = { key, kind: op.kind, logicalId: op.logicalId, location };
  const source = constructs.CONSTRUCT_SOURCES[op.kind];
  const { construct, props } = source.source(markSecrets(op.kind, live));
  const notPulled: NotPulled[] = [];
  // Each prop path, with the plan's changes it brings back (and one of their payload paths).
  const wanted = new Map<string, { payloadPath: string; changes: string[] }>();
  for (const change of op.changes) {
    // A secret is never written into code; one that could not be compared says nothing.
    if (change.sensitive === true || change.unverified === true) {
      notPulled.push({ ...base, path: change.path, reason: 'secret' });
      continue;
    }
    const target = constructs.propOf(source, change.path);
    if (target === undefined) {
      notPulled.push({ ...base, path: change.path, reason: 'no-prop' });
      continue;
    }
    // An entry added to or removed from a keyed list: the list is written again whole (entries
    // changed in place are edited where they are).
    const whole = (path: string) => path.replace(/\[[^[]*\]$/, '');
    const propPath = target.path === undefined ? target.prop : whole(target.path);
    const entry = wanted.get(propPath) ?? {
      payloadPath: target.path === undefined ? '' : whole(change.path),
      changes: [],
    };
    entry.changes.push(change.path);
    wanted.set(propPath, entry);
  }
  const edits: PropEdit[] = [];
  for (const path of outermost([...wanted.keys()])) {
    const inner = [...wanted].filter(
      ([p]) => p === path || p.startsWith(`${path}.`) || p.startsWith(`${path}[`),
    );
    const changes = inner.flatMap(([, w]) => w.changes);
    const own = wanted.get(path);
    const steps =
      own !== undefined && own.payloadPath !== ''
        ? stepsOf(op.kind, path, own.payloadPath)
        : pathSegments(path).every((s) => s.key === undefined)
          ? pathSegments(path).map((s) => ({ field: s.field }))
          : undefined;
    if (steps === undefined) {
      for (const c of changes) notPulled.push({ ...base, path: c, reason: 'no-prop' });
      continue;
    }
    const along = valuesAlong(props as Props, steps);
    const value = along.values[along.values.length - 1];
    if (holdsSecret(value)) {
      for (const c of changes) notPulled.push({ ...base, path: c, reason: 'secret' });
      continue;
    }
    edits.push({
      path,
      steps,
      value,
      valuesAlong: along.values,
      listsAlong: along.lists,
      changes,
      references: own !== undefined && own.payloadPath === '',
    });
  }
  return {
    ...(edits.length === 0 ? {} : { pull: { ...base, construct, edits } }),
    notPulled,
  };
}

/**
 * What `pull` writes back: the fields of owned resources that the account changed since the last
 * deploy (`cause: 'account'`). A field the code changed (or both did) stays the code's, and
 * secrets are never written.
 */
export function planPull(plan: Plan, live: Live, desired: readonly DesiredResource[]): PullPlan {
  const byKey = new Map(desired.map((d) => [stateKey(d.kind, d.logicalId), d]));
  const resources: ResourcePull[] = [];
  const notPulled: NotPulled[] = [];
  for (const op of plan.operations) {
    if (op.action !== 'update') continue;
    const key = stateKey(op.kind, op.logicalId);
    const location = byKey.get(key)?.location;
    // Only what the account changed. A change of the code's is the deploy's to make; a field both
    // changed stays the code's, and is listed: it is the account's value that would be lost.
    const cause = (c: Change) => c.cause ?? (op.drift ? 'account' : 'code');
    for (const c of op.changes.filter((c) => cause(c) === 'both'))
      notPulled.push({
        key,
        kind: op.kind,
        logicalId: op.logicalId,
        location,
        path: c.path,
        reason: 'code-changed',
      });
    const drifted = op.changes.filter((c) => cause(c) === 'account');
    if (drifted.length === 0) continue;
    const resource = live[op.kind].find((r) => String(r.id) === String(op.physicalId));
    if (resource === undefined) continue;
    const one = pullOne({ ...op, changes: drifted }, resource, location);
    if (one.pull !== undefined) resources.push(one.pull);
    notPulled.push(...one.notPulled);
  }
  return { resources, notPulled };
}
