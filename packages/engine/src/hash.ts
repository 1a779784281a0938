import { createHash } from 'node:crypto';

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

/** The hash of a secret, salted per state file so equal secrets in two projects do not match. */
export function hashSecret(value: string, salt: string): string {
  return createHash('sha256').update(salt).update('\u0000').update(value).digest('hex');
}
