import { KINDS, type ResourceKind, rulePathOf } from '@monitor/api';
import type { SourceLocation } from '@monitor/constructs';
import * as constructs from '@monitor/constructs';
import { markSecrets, type Props } from '../import/values.js';
import { pathSegments } from '../plan/ignore.js';
import type { LiveResource, UpdateOperation } from '../plan/types.js';
import { stateKey } from '../state/state.js';
import { holdsSecret } from './holds.js';
import { outermost, stepsOf, valuesAlong } from './prop-paths.js';
import type { NotPulled, PropEdit, ResourcePull } from './types.js';

/** For a keyed list written again, at `payloadPath`: its key field, and the entries changed inside. */
function entriesOf(kind: ResourceKind, payloadPath: string, changes: readonly string[]): PropEdit['entries'] {
  const keyField = payloadPath === '' ? undefined : KINDS[kind].keyed[rulePathOf(payloadPath)];
  if (keyField === undefined) return undefined;
  const at = pathSegments(payloadPath).length - 1;
  const changed = changes.flatMap((c) => {
    const segments = pathSegments(c);
    const key = segments[at]?.key;
    return key !== undefined && segments.length > at + 1 ? [key] : [];
  });
  return { keyField, changed: [...new Set(changed)] };
}

/**
 * The edits of one construct: the plan's changes of it (those pull brings back) as props to
 * write, with the account's value for each as the construct takes it (the inverse of synthesis
 * beside each construct, as import uses it). A secret, or a change no prop holds, is not an edit.
 */
export function resourceEdits(
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
    const entries = own === undefined ? undefined : entriesOf(op.kind, own.payloadPath, changes);
    edits.push({
      path,
      steps,
      value,
      valuesAlong: along.values,
      listsAlong: along.lists,
      changes,
      references: own !== undefined && own.payloadPath === '',
      ...(entries === undefined ? {} : { entries }),
    });
  }
  return {
    ...(edits.length === 0 ? {} : { pull: { ...base, construct, edits } }),
    notPulled,
  };
}
