import type { KindDefinition, SensitivePath } from './definition.js';

type Payload = Record<string, unknown>;

/** What stands in for a sensitive value wherever a value is shown. */
export const SENSITIVE_VALUE = '(sensitive value)';

/** A plain object (not null, not a list). */
export function isRecord(v: unknown): v is Payload {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const byPath = new WeakMap<KindDefinition, Map<string, SensitivePath[]>>();
function sensitiveByPath(def: KindDefinition): Map<string, SensitivePath[]> {
  let map = byPath.get(def);
  if (map === undefined) {
    map = new Map();
    for (const s of def.sensitive) map.set(s.path, [...(map.get(s.path) ?? []), s]);
    byPath.set(def, map);
  }
  return map;
}

/**
 * Whether the field at `rulePath` (list items as `[]`) of `holder`, inside `payload`, is a
 * credential by the kind's definition.
 */
export function isSensitive(
  def: KindDefinition,
  rulePath: string,
  holder: Payload,
  payload: Payload,
): boolean {
  const entries = sensitiveByPath(def).get(rulePath);
  return entries?.some((s) => s.when === undefined || s.when(holder, payload)) === true;
}

/** Every rule path that is, or leads to, a sensitive path of the kind ('' when there is any). */
const holders = new WeakMap<KindDefinition, Set<string>>();
function sensitiveHolders(def: KindDefinition): Set<string> {
  let set = holders.get(def);
  if (set === undefined) {
    set = new Set();
    for (const { path } of def.sensitive) {
      set.add('');
      // `a.b[].c` is held by `a`, `a.b`, `a.b[]` and itself.
      for (let i = 0; i < path.length; i++) if (path[i] === '.' || path[i] === '[') set.add(path.slice(0, i));
      set.add(path);
    }
    holders.set(def, set);
  }
  return set;
}

/** Whether anything under `rulePath` may be sensitive: lets walkers skip most of a payload. */
function mayHoldSensitive(def: KindDefinition, rulePath: string): boolean {
  return sensitiveHolders(def).has(rulePath);
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/**
 * A copy of `value` (found at `rulePath` of `payload`) with every sensitive string replaced by
 * `replace(secret)`; `value` itself when nothing in it is sensitive.
 */
export function replaceSensitive(
  def: KindDefinition,
  value: unknown,
  replace: (secret: string) => string,
  rulePath = '',
  payload: Payload = isRecord(value) ? value : {},
): unknown {
  if (!mayHoldSensitive(def, rulePath)) return value;
  if (Array.isArray(value))
    return value.map((item) => replaceSensitive(def, item, replace, `${rulePath}[]`, payload));
  if (!isRecord(value)) return value;
  let out: Payload | undefined;
  for (const [key, field] of Object.entries(value)) {
    const path = join(rulePath, key);
    const next =
      typeof field === 'string' && field !== '' && isSensitive(def, path, value, payload)
        ? replace(field)
        : replaceSensitive(def, field, replace, path, payload);
    if (next !== field) {
      out ??= { ...value };
      out[key] = next;
    }
  }
  return out ?? value;
}

/** The payload fit to show: every sensitive value replaced by `(sensitive value)`. */
export function redactPayload(def: KindDefinition, payload: Payload): Payload {
  return replaceSensitive(def, payload, () => SENSITIVE_VALUE) as Payload;
}

/**
 * Every value at a sensitive path of `payload`, of any type (a number or an object where a string
 * belongs is still the secret someone meant to write), by its path with list indexes
 * (`config.headers[0].value`). What messages about a payload must never quote.
 */
export function sensitiveFields(
  def: KindDefinition,
  payload: Payload,
  /** The payload is a part of one: a path sensitive under a condition counts as sensitive. */
  partial = false,
): { path: string; value: unknown }[] {
  const out: { path: string; value: unknown }[] = [];
  const walk = (value: unknown, rulePath: string, path: string) => {
    if (!mayHoldSensitive(def, rulePath)) return;
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(item, `${rulePath}[]`, `${path}[${i}]`);
      return;
    }
    if (!isRecord(value)) return;
    for (const [key, field] of Object.entries(value)) {
      const fieldRule = join(rulePath, key);
      const fieldPath = join(path, key);
      const sensitive = partial
        ? sensitiveByPath(def).has(fieldRule)
        : isSensitive(def, fieldRule, value, payload);
      if (field !== undefined && field !== null && sensitive) out.push({ path: fieldPath, value: field });
      else walk(field, fieldRule, fieldPath);
    }
  };
  walk(payload, '', '');
  return out;
}

/**
 * The sensitive values of a payload by the path a diff names them with: keyed list items by their
 * key (`environmentVariables[TOKEN].value`, `config.headers[Authorization].value`), other list
 * items by index.
 */
export function sensitiveValues(def: KindDefinition, payload: Payload): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (value: unknown, rulePath: string, path: string) => {
    if (!mayHoldSensitive(def, rulePath)) return;
    if (Array.isArray(value)) {
      const keyField = def.keyed[rulePath];
      value.forEach((item, i) => {
        const name = keyField !== undefined && isRecord(item) ? String(item[keyField]) : String(i);
        walk(item, `${rulePath}[]`, `${path}[${name}]`);
      });
      return;
    }
    if (!isRecord(value)) return;
    for (const [key, field] of Object.entries(value)) {
      const fieldRule = join(rulePath, key);
      const fieldPath = join(path, key);
      if (typeof field === 'string' && isSensitive(def, fieldRule, value, payload)) out[fieldPath] = field;
      else walk(field, fieldRule, fieldPath);
    }
  };
  walk(payload, '', '');
  return out;
}
