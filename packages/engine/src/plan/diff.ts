import { isSensitive, type KindDefinition, replaceSensitive, SENSITIVE_VALUE } from '@monitor/api';
import { canonicalJson } from '../hash.js';

/** One changed path of a resource. `before` is live, `after` is desired. */
export interface Change {
  /** e.g. `locations`, `environmentVariables[TOKEN].value`, `cards[Core].services` */
  path: string;
  before: unknown;
  after: unknown;
  /** A secret: before and after are never shown. */
  sensitive?: boolean;
  /** A secret the service masks that could not be compared (no state secret): sent again. */
  unverified?: boolean;
}

export interface DiffContext {
  /** The kind's definition: its sets, keyed lists, dates and sensitive paths. */
  kind: KindDefinition;
  /**
   * For a sensitive value at `path` that the service does not return: true when `value` is what
   * was last applied (compared by the hash in state), undefined when that cannot be told.
   */
  secretUnchanged: (path: string, value: string) => boolean | undefined;
}

type Payload = Record<string, unknown>;

function isRecord(v: unknown): v is Payload {
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

/** Where a value sits: its path for people, its path for rules (`[]` for items), its payloads. */
interface At {
  path: string;
  rulePath: string;
  desiredRoot: Payload;
  liveRoot: Payload;
}

class Differ {
  readonly #ctx: DiffContext;
  readonly #out: Change[];
  constructor(ctx: DiffContext, out: Change[]) {
    this.#ctx = ctx;
    this.#out = out;
  }

  /** A value fit to show: sensitive fields inside it masked. */
  #shown(value: unknown, at: At, root: Payload): unknown {
    if (value === undefined || value === null) return null;
    return replaceSensitive(this.#ctx.kind, value, () => SENSITIVE_VALUE, at.rulePath, root);
  }

  #changed(at: At, live: unknown, desired: unknown): void {
    this.#out.push({
      path: at.path,
      before: this.#shown(live, at, at.liveRoot),
      after: this.#shown(desired, at, at.desiredRoot),
    });
  }

  #sensitiveChanged(path: string, unverified: boolean): void {
    this.#out.push({
      path,
      before: SENSITIVE_VALUE,
      after: SENSITIVE_VALUE,
      sensitive: true,
      ...(unverified ? { unverified: true } : {}),
    });
  }

  /** Compare one field of a record: `holder` is the desired record that has it. */
  field(desired: unknown, live: unknown, at: At, holder: Payload): void {
    const { kind } = this.#ctx;
    if (typeof desired === 'string' && isSensitive(kind, at.rulePath, holder, at.desiredRoot)) {
      if (desired === live) return;
      // A service that returns the value is compared with it; one that masks it (empty), by the hash in state.
      if (typeof live === 'string' && live !== '') {
        this.#sensitiveChanged(at.path, false);
        return;
      }
      const unchanged = this.#ctx.secretUnchanged(at.path, desired);
      if (unchanged !== true) this.#sensitiveChanged(at.path, unchanged === undefined);
      return;
    }
    this.value(desired, live, at);
  }

  /** Every field of a desired record against the live record at the same place. */
  #fields(desired: Payload, live: Payload, at: At): void {
    for (const [key, value] of Object.entries(desired)) {
      this.field(
        value,
        live[key],
        { ...at, path: `${at.path}.${key}`, rulePath: `${at.rulePath}.${key}` },
        desired,
      );
    }
  }

  value(desired: unknown, live: unknown, at: At): void {
    const { kind } = this.#ctx;
    if (kind.dates.includes(at.rulePath) && typeof desired === 'string') {
      const a = Date.parse(desired);
      const b = typeof live === 'string' ? Date.parse(live) : Number.NaN;
      if (a !== b) this.#changed(at, live, desired);
      return;
    }
    if (isRecord(desired)) {
      if (!isRecord(live)) {
        this.#changed(at, live, desired);
        return;
      }
      this.#fields(desired, live, at);
      return;
    }
    if (Array.isArray(desired)) {
      if (kind.sets.includes(at.rulePath)) {
        if (!same(sortedSet(desired), sortedSet(live ?? []))) this.#changed(at, live, desired);
        return;
      }
      const keyField = kind.keyed[at.rulePath];
      if (keyField !== undefined) {
        this.#keyed(desired, Array.isArray(live) ? live : [], keyField, at);
        return;
      }
    }
    if (!same(desired, live)) this.#changed(at, live, desired);
  }

  #keyed(desired: unknown[], live: unknown[], keyField: string, at: At): void {
    const keyOf = (item: unknown) => (isRecord(item) ? String(item[keyField]) : canonicalJson(item));
    const liveByKey = new Map(live.map((item) => [keyOf(item), item]));
    const itemAt = (key: string): At => ({ ...at, path: `${at.path}[${key}]`, rulePath: `${at.rulePath}[]` });
    const desiredKeys = new Set<string>();
    for (const item of desired) {
      const key = keyOf(item);
      desiredKeys.add(key);
      const match = liveByKey.get(key);
      if (match === undefined) {
        this.#out.push({
          path: itemAt(key).path,
          before: null,
          after: this.#shown(item, itemAt(key), at.desiredRoot),
        });
        continue;
      }
      if (!isRecord(item) || !isRecord(match)) {
        if (!same(item, match)) this.#changed(itemAt(key), match, item);
        continue;
      }
      this.#fields(item, match, itemAt(key));
    }
    for (const [key, item] of liveByKey) {
      if (!desiredKeys.has(key)) {
        this.#out.push({
          path: itemAt(key).path,
          before: this.#shown(item, itemAt(key), at.liveRoot),
          after: null,
        });
      }
    }
  }
}

/**
 * Compare desired with live, only over the fields desired has, by the kind's rules. Appends a
 * change per differing path, sensitive values masked; returns how many top-level fields are
 * unchanged.
 */
export function diffPayload(desired: Payload, live: Payload, ctx: DiffContext, out: Change[]): number {
  const differ = new Differ(ctx, out);
  let unchanged = 0;
  for (const [key, value] of Object.entries(desired)) {
    const before = out.length;
    differ.field(
      value,
      live[key],
      { path: key, rulePath: key, desiredRoot: desired, liveRoot: live },
      desired,
    );
    if (out.length === before) unchanged++;
  }
  return unchanged;
}
