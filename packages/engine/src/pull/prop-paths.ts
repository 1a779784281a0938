import { isRecord, KINDS, type ResourceKind, rulePathOf } from '@monitor/api';
import type { Props, PropValue } from '../import/values.js';
import { pathSegments } from '../plan/ignore.js';
import type { PropStep } from './types.js';

/**
 * Paths under a construct's props, as pull walks them: the steps of a path (fields, and keyed
 * lists' entries by their key), the account's values along them, and which of several paths to
 * write when one holds another.
 */

/** The steps of a props path; keyed entries take their key field from the kind's payload path. */
export function stepsOf(kind: ResourceKind, propPath: string, payloadPath: string): PropStep[] | undefined {
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
export function valuesAlong(
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

/** Paths where one is inside another keep the outer one: it is written whole. */
export function outermost(paths: string[]): string[] {
  const sorted = [...new Set(paths)].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const p of sorted) if (!kept.some((k) => p.startsWith(`${k}.`) || p.startsWith(`${k}[`))) kept.push(p);
  return kept;
}
