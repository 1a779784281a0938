/** A path into a value as people write it: `cards[2].services[0].id`; `prefix` goes first (`body`). */
export function formatIssuePath(path: readonly PropertyKey[], prefix = ''): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out.length === 0 ? String(key) : `.${String(key)}`;
  }
  return out;
}
