const brandOf = (name: string) => Symbol.for(`@monitor/error.${name}`);

/**
 * The base of every error the monitor packages throw: a stable `code` fixed by the class, a
 * message naming what failed, and where possible a `hint` at the fix (never a CLI flag: the CLI
 * adds those). Instances carry a `Symbol.for` brand for each class of their chain, so
 * `instanceof` holds across two copies of a package (a CLI and a construct library each with
 * their own), as undici does it. Class names are unique across the packages.
 */
export abstract class CodedError extends Error {
  static readonly code: string;
  readonly code: string;
  readonly hint: string | undefined;

  constructor(message: string, options: { hint?: string | undefined; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = (new.target as unknown as { code: string }).code;
    this.hint = options.hint;
    for (let c: unknown = new.target; typeof c === 'function' && c !== Error; c = Object.getPrototypeOf(c)) {
      Object.defineProperty(this, brandOf((c as { name: string }).name), { value: true });
    }
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // `this` is the class `instanceof` asks about: a subclass checks its own brand.
    // biome-ignore lint/complexity/noThisInStatic: see above
    const brand = brandOf(this.name);
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  }
}
