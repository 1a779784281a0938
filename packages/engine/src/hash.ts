import { createHash, createHmac } from 'node:crypto';

/** JSON with object keys sorted at every level: the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** A short, stable hash of a JSON value. */
export function hashJson(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 32);
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
