import { isRecord, type KindDefinition, rulePathOf } from '@monitor/api';
import { isPayloadRef } from '@monitor/constructs';

/**
 * `ignoreChanges`: fields people own in the service's UI. Sent when a resource is created, never
 * on update, never drift, never in a saved plan's fingerprint. Paths are the plan's own
 * (`alertSettings.reminders`, `environmentVariables[API_URL].value`); synthesis checked them.
 */

/** Whether a change at `path` is one of the ignored fields, or inside one. */
export function isIgnored(path: string, ignore: readonly string[]): boolean {
  return ignore.some((p) => path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[`));
}

export interface Segment {
  field: string;
  /** The key of a keyed list's entry: `API_URL` of `environmentVariables[API_URL]`. */
  key?: string;
}

export function pathSegments(path: string): Segment[] {
  return path.split('.').map((part) => {
    const m = /^([^[]+)\[(.*)\]$/.exec(part);
    return m === null ? { field: part } : { field: m[1] as string, key: m[2] as string };
  });
}

/** How a keyed list's entry is named in paths: by its key field, a reference by the logical id. */
export type EntryName = (item: unknown, keyField: string, refKind?: string) => string;

export const plainEntryName: EntryName = (item, keyField) => {
  if (!isRecord(item)) return '';
  const key = item[keyField];
  if (isPayloadRef(key)) return key.$ref.slice(key.$ref.indexOf(':') + 1);
  return String(key);
};

/**
 * Where an ignored path ends in `root`, copied on the way down so that `root` is never changed: the
 * object that holds its last field, or for a path that ends at a list entry, the list and that
 * entry's index. Undefined when the account or the code has nothing there.
 */
type Place = { holder: Record<string, unknown>; field: string } | { list: unknown[]; index: number };

function placeOf(
  def: KindDefinition,
  root: Record<string, unknown>,
  path: string,
  name: EntryName,
): Place | undefined {
  const parts = pathSegments(path);
  let holder = root;
  let rule = '';
  for (const [i, part] of parts.entries()) {
    rule = rule === '' ? part.field : `${rule}.${part.field}`;
    const last = i === parts.length - 1;
    if (part.key === undefined) {
      if (last) return { holder, field: part.field };
      const next = holder[part.field];
      if (!isRecord(next)) return undefined;
      holder[part.field] = { ...next };
      holder = holder[part.field] as Record<string, unknown>;
      continue;
    }
    const list = holder[part.field];
    const keyField = def.keyed[rulePathOf(rule)];
    if (keyField === undefined || !Array.isArray(list)) return undefined;
    const refKind = def.references.find((r) => r.path === `${rulePathOf(rule)}[].${keyField}`)?.kind;
    const copy = list.map((item) => (isRecord(item) ? { ...item } : item));
    holder[part.field] = copy;
    const index = copy.findIndex((item) => isRecord(item) && name(item, keyField, refKind) === part.key);
    if (index < 0) return undefined;
    if (last) return { list: copy, index };
    rule = `${rule}[]`;
    holder = copy[index] as Record<string, unknown>;
  }
  return undefined;
}

/**
 * The update payload with the ignored fields as the account has them: a top-level field is left
 * out (an update is partial), one inside an object or a list entry carries the live value (those
 * are sent whole), so the service keeps what people set.
 */
export function keepLiveValues(
  def: KindDefinition,
  payload: Record<string, unknown>,
  live: Record<string, unknown>,
  ignore: readonly string[],
  name: EntryName = plainEntryName,
): Record<string, unknown> {
  if (ignore.length === 0) return payload;
  const out = { ...payload };
  for (const path of ignore) {
    if (!path.includes('.') && !path.includes('[')) {
      delete out[path];
      continue;
    }
    const target = placeOf(def, out, path, name);
    if (target === undefined) continue;
    const source = placeOf(def, structuredClone(live), path, name);
    if ('list' in target) {
      // A whole entry: as the account has it, or not sent when the account has none.
      const entry = source !== undefined && 'list' in source ? source.list[source.index] : undefined;
      if (entry === undefined) target.list.splice(target.index, 1);
      else target.list[target.index] = entry;
      continue;
    }
    if (source === undefined || 'list' in source || !(source.field in source.holder)) {
      delete target.holder[target.field];
    } else target.holder[target.field] = source.holder[source.field];
  }
  return out;
}

/** `value` without the ignored fields: what a hash of the desired payload or a live fingerprint covers. */
export function withoutIgnored(
  def: KindDefinition,
  value: Record<string, unknown>,
  ignore: readonly string[],
  name: EntryName = plainEntryName,
): Record<string, unknown> {
  if (ignore.length === 0) return value;
  const out = { ...value };
  for (const path of ignore) {
    const at = placeOf(def, out, path, name);
    if (at === undefined) continue;
    if ('list' in at) at.list.splice(at.index, 1);
    else delete at.holder[at.field];
  }
  return out;
}
