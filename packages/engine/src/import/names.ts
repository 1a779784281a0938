/** Names for generated code: variables, logical ids and environment variables from resource names. */

const MAX_WORDS = 6;

/** The ASCII words of a name: `Payments API (EU)` → `payments`, `api`, `eu`; camelCase split too. */
export function wordsOf(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase())
    .slice(0, MAX_WORDS);
}

const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false ' +
    'finally for function if import in instanceof new null return super switch this throw true try ' +
    'typeof var void while with yield let static implements interface package private protected ' +
    'public await arguments eval undefined process requiredEnv'
  ).split(' '),
);

/** `payments api` → `paymentsApi`; a leading digit gets `fallback` in front (`group5xx`). */
export function camelCase(words: readonly string[], fallback: string): string {
  const all = words.length === 0 || /^[0-9]/.test(words[0] as string) ? [fallback, ...words] : [...words];
  const name = all.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
  return RESERVED.has(name) ? `${name}${fallback.charAt(0).toUpperCase()}${fallback.slice(1)}` : name;
}

/** `payments api` → `payments-api`: a valid logical id, `fallback` when there are no words. */
export function kebabCase(words: readonly string[], fallback: string): string {
  return words.length === 0 ? fallback : words.join('-');
}

/** `paymentsApi` + `API_TOKEN` → `PAYMENTS_API_API_TOKEN`. */
export function constantCase(...parts: string[]): string {
  return parts
    .flatMap((part) => wordsOf(part.replace(/_/g, ' ')))
    .join('_')
    .toUpperCase();
}

/**
 * Hands out names that are unique among those already taken: `name`, then `name2`, `name3`…
 * (`name-2` with `separator: '-'`).
 */
export class UniqueNames {
  readonly #taken: Set<string>;
  readonly #separator: string;
  constructor(taken: Iterable<string> = [], separator = '') {
    this.#taken = new Set(taken);
    this.#separator = separator;
  }
  take(name: string): string {
    let candidate = name;
    for (let n = 2; this.#taken.has(candidate); n++) candidate = `${name}${this.#separator}${n}`;
    this.#taken.add(candidate);
    return candidate;
  }
}
