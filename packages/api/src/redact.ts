import type { KindDefinition } from './kinds/definition.js';
import { isRecord, sensitiveValues } from './kinds/secrets.js';

export const REDACTED = '[redacted]';

/**
 * Remembers secret strings (the API key, every sensitive field of a managed kind, dashboard raw
 * keys) and removes them from any text before it leaves the client in an error or a debug event,
 * in every form a server may echo them: as sent, URL-encoded, or escaped inside JSON.
 */
export class Redactor {
  readonly #forms = new Set<string>();

  add(value: string | undefined | null): void {
    // Very short values would redact ordinary words; real secrets are longer.
    if (typeof value !== 'string' || value.length < 4) return;
    this.#forms.add(value);
    this.#forms.add(encodeURIComponent(value));
    this.#forms.add(JSON.stringify(value).slice(1, -1));
    // A JSON body quoted again inside a JSON message escapes every backslash twice.
    this.#forms.add(JSON.stringify(JSON.stringify(value).slice(1, -1)).slice(1, -1));
  }

  redact(text: string): string {
    let out = text;
    for (const form of this.#forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
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
        if (isRecord(item)) for (const value of Object.values(sensitiveValues(kind, item))) this.add(value);
      }
      return;
    }
    visit(body, (key, value, parent) => {
      if (key === 'rawKey' && typeof value === 'string') this.add(value);
      if (key === 'value' && parent.secret === true && typeof value === 'string') this.add(value);
    });
  }
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
