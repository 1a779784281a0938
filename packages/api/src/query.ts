/**
 * Encode a query object: arrays repeat the key (`tag=a&tag=b`) unless named in `commaSeparated`
 * (`metrics=a,b`); booleans as `true`/`false`; nested objects as `key[op]=v` (`startsAt[gte]=…`).
 */
export function encodeQuery(
  query: Record<string, unknown> | undefined,
  commaSeparated: readonly string[] = [],
): string {
  if (query === undefined) return '';
  const parts: string[] = [];
  const add = (key: string, value: unknown) => {
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  };
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (commaSeparated.includes(key)) add(key, value.join(','));
      else for (const item of value) add(key, item);
    } else if (typeof value === 'object') {
      for (const [op, v] of Object.entries(value as Record<string, unknown>)) {
        if (v !== undefined && v !== null)
          parts.push(
            `${encodeURIComponent(key)}[${encodeURIComponent(op)}]=${encodeURIComponent(String(v))}`,
          );
      }
    } else {
      add(key, value);
    }
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/** Fill `{name}` placeholders of a path template, percent-encoding each value. */
export function fillPath(template: string, params: Record<string, unknown> | undefined): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '') {
      throw new TypeError(`path parameter "${name}" of ${template} is missing`);
    }
    return encodeURIComponent(String(value));
  });
}
