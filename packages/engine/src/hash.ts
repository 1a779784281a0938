import { createHmac, hash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level: the same value always gives the same text. Written
 * directly, in one pass: the same text as `JSON.stringify` of a sorted copy (`sortedCopy`), which it
 * falls back to for what a direct writer would order or convert differently, in half the time (a
 * deploy's plan hashes every payload and every field of it: 2.2 s of a 30,000-resource plan).
 */
export function canonicalJson(value: unknown): string {
  try {
    // A toJSON that every object or array inherits (some library added it) is called by the copy's
    // JSON.stringify: only the copy writes that right.
    if ('toJSON' in Object.prototype || 'toJSON' in Array.prototype) throw UNUSUAL;
    return written(value) as string;
  } catch (e) {
    if (e !== UNUSUAL) throw e;
    return JSON.stringify(sortedCopy(value));
  }
}

/** Thrown by `written` for what only `JSON.stringify` of a sorted copy writes right. */
const UNUSUAL = Symbol('unusual');

/**
 * `value` as `JSON.stringify(sortedCopy(value))` writes it; undefined where it writes nothing (an
 * object's key with such a value is left out, an array's item is `null`). Throws `UNUSUAL` for:
 * - a key that may be an array index: an object puts those first, in numeric order, whatever the
 *   order they were added in;
 * - a key `toJSON`: the copy's own `toJSON` method would replace it;
 * - an array of a class of its own: the copy is of that class too (`map`), and may have a `toJSON`;
 * - a BigInt (or any type JSON has no rule for).
 */
function written(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) throw UNUSUAL;
        let out = '[';
        for (let i = 0; i < value.length; i++) out += `${i === 0 ? '' : ','}${written(value[i]) ?? 'null'}`;
        return `${out}]`;
      }
      const keys = Object.keys(value).sort();
      let out = '{';
      for (const key of keys) {
        const first = key.charCodeAt(0);
        if ((first >= 48 && first <= 57) || key === 'toJSON') throw UNUSUAL;
        const item = written((value as Record<string, unknown>)[key]);
        if (item !== undefined) out += `${out.length === 1 ? '' : ','}${quotedKey(key)}:${item}`;
      }
      return `${out}}`;
    }
    default:
      throw UNUSUAL;
  }
}

/** Keys as JSON strings, each quoted once: payloads repeat the same few field names. */
const quotedKeys = new Map<string, string>();
const KEPT_KEYS = 4096;

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    if (quotedKeys.size < KEPT_KEYS) quotedKeys.set(key, quoted);
  }
  return quoted;
}

/** A copy of `value` with the keys of every object in sorted order: what `canonicalJson` means. */
function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, sortedCopy((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** A short, stable hash of a JSON value. */
export function hashJson(value: unknown): string {
  return hashOfJson(canonicalJson(value));
}

/** `hashJson` of the value whose `canonicalJson` is `json`. */
export function hashOfJson(json: string): string {
  return hash('sha256', json, 'hex').slice(0, 32);
}

/**
 * How sensitive values are fingerprinted for state: an HMAC keyed by the state secret, which is
 * never stored with the state, so a state file (committed, or read from a shared database) gives
 * nothing to guess a secret against. Without a key nothing is fingerprinted: `hash` is undefined.
 */
export interface SecretHasher {
  /** Whether there is a key: without one, masked sensitive values cannot be compared. */
  readonly keyed: boolean;
  hash(value: string): string | undefined;
}

const HASH_PREFIX = 'hmac-sha256:';

/**
 * A hasher for one state: HMAC-SHA256 under `key`, over the state's salt and the value, so equal
 * secrets in two projects that share a key still differ. `key` undefined or empty: no hashes.
 */
export function secretHasher(key: string | undefined, salt: string): SecretHasher {
  if (key === undefined || key === '') return { keyed: false, hash: () => undefined };
  return {
    keyed: true,
    hash: (value) =>
      HASH_PREFIX + createHmac('sha256', key).update(salt).update('\u0000').update(value).digest('hex'),
  };
}
