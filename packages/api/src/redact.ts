export const REDACTED = '[redacted]';

/**
 * Remembers secret strings (API key, secret variable values, dashboard raw keys) and removes them
 * from any text before it leaves the client in an error or a debug event.
 */
export class Redactor {
  readonly #secrets = new Set<string>();

  add(value: string | undefined | null): void {
    // Very short values would redact ordinary words; real secrets are longer.
    if (typeof value === 'string' && value.length >= 4) this.#secrets.add(value);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret && out.includes(encoded)) out = out.split(encoded).join(REDACTED);
    }
    return out;
  }

  /** Collect the secret values found in a request or response body. */
  collectFrom(body: unknown): void {
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
  } else if (node !== null && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      fn(key, value, record);
      visit(value, fn);
    }
  }
}
