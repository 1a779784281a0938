/**
 * Parse a query string the way the service reads it: a repeated key becomes an array
 * (`tag=a&tag=b`), `key[op]=v` becomes `{ key: { op: v } }` (`startsAt[gte]=…`).
 */
export function parseQueryString(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const nested = /^([^[\]]+)\[([^[\]]+)\]$/.exec(rawKey);
    if (nested !== null) {
      const [, key = '', op = ''] = nested;
      const existing = out[key];
      const target =
        existing !== null && typeof existing === 'object' && !Array.isArray(existing) ? existing : {};
      (target as Record<string, unknown>)[op] = value;
      out[key] = target;
      continue;
    }
    const existing = out[rawKey];
    if (existing === undefined) out[rawKey] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else out[rawKey] = [existing, value];
  }
  return out;
}
