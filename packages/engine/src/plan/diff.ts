import { canonicalJson } from '../hash.js';
import type { KindRules } from './rules.js';

/** One changed path of a resource. `before` is live, `after` is desired. */
export interface Change {
  /** e.g. `locations`, `environmentVariables[TOKEN].value`, `cards[Core].services` */
  path: string;
  before: unknown;
  after: unknown;
  /** A secret: before and after are never shown. */
  sensitive?: boolean;
}

export interface DiffContext {
  rules: KindRules;
  /** For a secret at `path` with desired `value`: true when it equals what was last applied. */
  secretUnchanged: (path: string, value: string) => boolean;
}

/** What stands in for a secret value wherever a value is shown. */
export const SENSITIVE = '(sensitive value)';

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // An absent live field and a null desired one mean the same thing.
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  return canonicalJson(a) === canonicalJson(b);
}

function sortedSet(v: unknown): unknown {
  return Array.isArray(v) ? [...new Set(v.map((x) => canonicalJson(x)))].sort() : v;
}

/**
 * Compare desired with live, only over the fields desired has, by the kind's rules. Appends a
 * change per differing path; returns how many top-level fields are unchanged.
 */
export function diffPayload(
  desired: Record<string, unknown>,
  live: Record<string, unknown>,
  ctx: DiffContext,
  out: Change[],
): number {
  let unchanged = 0;
  for (const [key, value] of Object.entries(desired)) {
    const before = out.length;
    diffValue(value, live[key], key, key, ctx, out);
    if (out.length === before) unchanged++;
  }
  return unchanged;
}

/**
 * `rulePath` is the path with list items as `[]` (to look up rules); `path` is what people read,
 * with keyed items named, e.g. `environmentVariables[TOKEN]`.
 */
function diffValue(
  desired: unknown,
  live: unknown,
  path: string,
  rulePath: string,
  ctx: DiffContext,
  out: Change[],
): void {
  const { rules } = ctx;
  if (rules.dates.includes(rulePath) && typeof desired === 'string') {
    const a = Date.parse(desired);
    const b = typeof live === 'string' ? Date.parse(live) : Number.NaN;
    if (a !== b) out.push({ path, before: live ?? null, after: desired });
    return;
  }
  if (isRecord(desired)) {
    if (!isRecord(live)) {
      out.push({ path, before: live ?? null, after: desired });
      return;
    }
    for (const [key, value] of Object.entries(desired))
      diffValue(value, live[key], `${path}.${key}`, `${rulePath}.${key}`, ctx, out);
    return;
  }
  if (Array.isArray(desired)) {
    if (rules.sets.includes(rulePath)) {
      if (!same(sortedSet(desired), sortedSet(live ?? [])))
        out.push({ path, before: live ?? null, after: desired });
      return;
    }
    const keyField = rules.keyed[rulePath];
    if (keyField !== undefined) {
      diffKeyed(desired, Array.isArray(live) ? live : [], keyField, path, rulePath, ctx, out);
      return;
    }
    if (!same(desired, live)) out.push({ path, before: live ?? null, after: desired });
    return;
  }
  if (!same(desired, live)) out.push({ path, before: live ?? null, after: desired });
}

function diffKeyed(
  desired: unknown[],
  live: unknown[],
  keyField: string,
  path: string,
  rulePath: string,
  ctx: DiffContext,
  out: Change[],
): void {
  const keyOf = (item: unknown) => (isRecord(item) ? String(item[keyField]) : canonicalJson(item));
  const liveByKey = new Map(live.map((item) => [keyOf(item), item]));
  const desiredKeys = new Set<string>();
  for (const item of desired) {
    const key = keyOf(item);
    desiredKeys.add(key);
    const itemPath = `${path}[${key}]`;
    const match = liveByKey.get(key);
    const secret = isRecord(item) && item.secret === true && typeof item.value === 'string';
    if (match === undefined) {
      out.push({
        path: itemPath,
        before: null,
        after: secret ? { ...item, value: SENSITIVE } : item,
        ...(secret ? { sensitive: true } : {}),
      });
      continue;
    }
    if (!isRecord(item) || !isRecord(match)) {
      if (!same(item, match)) out.push({ path: itemPath, before: match, after: item });
      continue;
    }
    for (const [field, value] of Object.entries(item)) {
      if (secret && field === 'value') {
        // The service returns secrets empty: compare with the hash of what was applied.
        if (!ctx.secretUnchanged(itemPath, value as string)) {
          out.push({ path: `${itemPath}.value`, before: SENSITIVE, after: SENSITIVE, sensitive: true });
        }
        continue;
      }
      diffValue(value, match[field], `${itemPath}.${field}`, `${rulePath}[].${field}`, ctx, out);
    }
  }
  for (const [key, item] of liveByKey) {
    if (!desiredKeys.has(key)) {
      const secret = isRecord(item) && item.secret === true;
      out.push({
        path: `${path}[${key}]`,
        before: secret ? { ...item, value: SENSITIVE } : item,
        after: null,
      });
    }
  }
}
