import type { KindDefinition } from './kinds/definition.js';
import { isRecord, sensitiveFields } from './kinds/secrets.js';

export const REDACTED = '[redacted]';

/** Shorter secrets are removed only where a text quotes them (`"ab"`): bare, they would hit ordinary words. */
const MIN_BARE_LENGTH = 4;

/**
 * Remembers secret values (the API key, every sensitive field of a managed kind, dashboard raw
 * keys) and removes them from any text before it leaves: an error, a debug event, a diagnostic.
 * A string is removed in every form a text may hold it: quoted as JSON, as sent, URL-encoded, or
 * escaped inside JSON once or twice. A value of another type where a string belongs (a number, an
 * object) is removed where a text quotes it as JSON, and each string inside it as a secret of its own.
 */
export class Redactor {
  /** Each form a secret may take in a text → what stands in for it. */
  readonly #forms = new Map<string, string>();
  /** The forms, longest first, so that a quoted form goes before the bare form inside it. */
  #ordered: [string, string][] | undefined;
  /** The lengths of the forms: a text holds a form only if one of its substrings of these lengths is one. */
  readonly #lengths = new Set<number>();
  readonly #replacement: (value: unknown) => string;

  /** `replacement`: what stands in for a value. @default '[redacted]' */
  constructor(replacement: (value: unknown) => string = () => REDACTED) {
    this.#replacement = replacement;
  }

  add(value: unknown): void {
    if (value === undefined || value === null || typeof value === 'boolean' || value === '') return;
    const replacement = this.#replacement(value);
    if (typeof value === 'object') {
      for (const inner of Object.values(value)) this.add(inner);
    }
    const quoted = JSON.stringify(value);
    if (quoted !== undefined && (typeof value === 'string' || quoted.length >= MIN_BARE_LENGTH))
      this.#set(quoted, replacement);
    if (typeof value !== 'string' || value.length < MIN_BARE_LENGTH) return;
    this.#set(value, replacement);
    this.#set(encodeURIComponent(value), replacement);
    this.#set(JSON.stringify(value).slice(1, -1), replacement);
    // A JSON body quoted again inside a JSON message escapes every backslash twice.
    this.#set(JSON.stringify(JSON.stringify(value).slice(1, -1)).slice(1, -1), replacement);
  }

  #set(form: string, replacement: string): void {
    if (this.#forms.has(form)) return;
    this.#forms.set(form, replacement);
    this.#lengths.add(form.length);
    this.#ordered = undefined;
  }

  /**
   * Whether any form occurs in `text`, by looking its substrings up: with thousands of secrets
   * (every password of a large account read back), searching the text for each form in turn
   * costs more than the request that brought it.
   */
  #anyIn(text: string): boolean {
    for (const length of this.#lengths) {
      for (let i = 0; i + length <= text.length; i++) {
        if (this.#forms.has(text.slice(i, i + length))) return true;
      }
    }
    return false;
  }

  redact(text: string): string {
    if (this.#forms.size > 64 && !this.#anyIn(text)) return text;
    this.#ordered ??= [...this.#forms].sort(([a], [b]) => b.length - a.length);
    let out = text;
    for (const [form, replacement] of this.#ordered)
      if (out.includes(form)) out = out.split(form).join(replacement);
    return out;
  }

  /**
   * Collect the secret values of a request or response body: by the kind's sensitive paths when
   * the body is (or lists) resources of a managed kind; otherwise dashboard raw keys and secret
   * variables wherever they appear (the kinds' definitions name both where they hold them).
   */
  collectFrom(body: unknown, kind?: KindDefinition): void {
    if (kind !== undefined) {
      const items = Array.isArray(body)
        ? body
        : isRecord(body) && Array.isArray(body.entries)
          ? body.entries
          : [body];
      for (const item of items) {
        if (isRecord(item)) for (const { value } of sensitiveFields(kind, item)) this.add(value);
      }
      return;
    }
    visit(body, (key, value, parent) => {
      if (key === 'rawKey' && typeof value === 'string') this.add(value);
      if (key === 'value' && parent.secret === true && typeof value === 'string') this.add(value);
    });
  }
}

/** What a message says in place of a sensitive value: what it is, never what it holds. */
export function describeSensitive(value: unknown): string {
  if (typeof value === 'string')
    return `(sensitive value, ${value.length} character${value.length === 1 ? '' : 's'})`;
  const what = Array.isArray(value)
    ? 'a list'
    : typeof value === 'object'
      ? 'an object'
      : `a ${typeof value}`;
  return `(sensitive value: ${what})`;
}

/**
 * The one way a message about a payload of kind `def` is made fit to show (a diagnostic, a
 * schema's complaint, a conflict, a request the client refused): every value the kind's
 * definition marks sensitive in `payload` is replaced by what it is (`(sensitive value, 41
 * characters)`), however the message quotes it and whichever rule it breaks. With `partial`, the
 * payload is only a part of one (a conflict's field and value), and a path that is sensitive only
 * under a condition counts as sensitive.
 */
export function messageRedactor(
  def: KindDefinition,
  payload: Record<string, unknown>,
  options: { partial?: boolean } = {},
): (text: string) => string {
  const fields = sensitiveFields(def, payload, options.partial === true);
  if (fields.length === 0) return (text) => text;
  const redactor = new Redactor(describeSensitive);
  for (const { value } of fields) redactor.add(value);
  return (text) => redactor.redact(text);
}

function visit(
  node: unknown,
  fn: (key: string, value: unknown, parent: Record<string, unknown>) => void,
): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item, fn);
  } else if (isRecord(node)) {
    for (const [key, value] of Object.entries(node)) {
      fn(key, value, node);
      visit(value, fn);
    }
  }
}
