import { hash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { KnownResponses } from '@monitor/api';
import type { ResourceKind, ValidatedPayloads } from '@monitor/constructs';

/**
 * What passed its schema before, so that it is not checked again:
 * - payloads, so that synthesis checks only the new ones (the schema check is most of synthesis:
 *   ~30 µs a payload): `ValidationCache`;
 * - the account's response bodies, so that reading an account that did not change checks none
 *   (a no-change diff of 30,000 resources ran 0.3–0.5 s faster without checking its pages on
 *   Node 20): `ResponseCache`.
 *
 * Kept in the project's cache directory as keys, one per payload or body:
 * - a key is a keyed hash of the payload's JSON: payloads hold secrets (env vars, credentials),
 *   and a plain hash would let anyone holding the cache file test guesses of them. The key lives
 *   in the user's own cache directory, never in the project;
 * - only payloads that JSON tells apart from every other value are kept (no `undefined`, NaN,
 *   Dates, class instances…), so that equal keys mean what the schema sees is equal;
 * - the file names the code of the schemas and of synthesis it was made with, and carries a hash of
 *   its keys: another monitor, or a damaged or edited file, finds it empty.
 */

const FORMAT = 1;

/** The key of the keyed hashes, from the user's cache directory (made on first use). */
function userKey(env: NodeJS.ProcessEnv): string | undefined {
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const file = join(base, 'monitor', 'payload-key');
  try {
    const key = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(key)) return key;
  } catch {
    // made below
  }
  try {
    const key = randomBytes(32).toString('hex');
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch {
    // Another process made it meanwhile; otherwise there is no cache.
    try {
      const key = readFileSync(file, 'utf8').trim();
      return /^[0-9a-f]{64}$/.test(key) ? key : undefined;
    } catch {
      return undefined;
    }
  }
}

const digest = (data: string | Buffer): string => hash('sha256', data, 'base64url');

let codeFingerprint: string | undefined;

/**
 * What decides whether a payload or a body is valid: the schemas (`@monitor/api`, as
 * `@monitor/constructs` loads it) and synthesis (`@monitor/constructs`, which replaces references
 * before the check).
 */
function schemasFingerprint(): string {
  if (codeFingerprint !== undefined) return codeFingerprint;
  const require = createRequire(import.meta.url);
  const constructs = require.resolve('@monitor/constructs');
  const api = createRequire(constructs).resolve('@monitor/api');
  const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
  codeFingerprint = digest(
    [FORMAT, version('@monitor/engine'), digest(readFileSync(constructs)), digest(readFileSync(api))].join(
      '\n',
    ),
  );
  return codeFingerprint;
}

/** Whether JSON tells `value` apart from every other value the schemas could see. */
function isPlainJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return false;
        for (let i = 0; i < value.length; i++) if (!isPlainJson(value[i])) return false;
        return true;
      }
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return false;
      for (const key in value) {
        if (!Object.hasOwn(value, key) || !isPlainJson((value as Record<string, unknown>)[key])) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/** The keys file: its keys, if it is whole and of this monitor. */
function readKeys(file: string, monitor: string): string[] {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (data === null || typeof data !== 'object') return [];
    const { format, schemas, keys, check } = data as Record<string, unknown>;
    if (format !== FORMAT || schemas !== monitor || !Array.isArray(keys)) return [];
    if (!keys.every((k) => typeof k === 'string')) return [];
    return check === digest(`${monitor}\n${keys.join('\n')}`) ? keys : [];
  } catch {
    return [];
  }
}

interface OpenOptions {
  env?: NodeJS.ProcessEnv;
  /** Stands for the code that decides validity. @default monitor's own (`schemasFingerprint`) */
  schemas?: string;
}

/** Keys of what a project's runs found valid, kept between runs in a file of its cache directory. */
abstract class KeptKeys {
  readonly #file: string;
  readonly #key: string;
  readonly #monitor: string;
  readonly #known: Set<string>;
  /** Keys this run used or added, in that order: what is kept first. */
  readonly #used = new Set<string>();
  #added = 0;

  protected constructor(file: string, { key, monitor }: { key: string; monitor: string }) {
    this.#file = file;
    this.#key = key;
    this.#monitor = monitor;
    this.#known = new Set(readKeys(file, monitor));
  }

  /**
   * The user's key and the code's fingerprint; undefined when there can be no cache (no key: the
   * user's cache directory cannot be written).
   */
  protected static secrets(options: OpenOptions): { key: string; monitor: string } | undefined {
    const key = userKey(options.env ?? process.env);
    if (key === undefined) return undefined;
    return { key, monitor: options.schemas ?? schemasFingerprint() };
  }

  /** The keyed hash of `text`, as `scope` (a kind, an endpoint) sees it. */
  protected keyed(scope: string, text: string): string {
    return digest(`${this.#key}\n${scope}\n${text}`);
  }

  has(key: string): boolean {
    if (!this.#known.has(key)) return false;
    this.#used.add(key);
    return true;
  }

  add(key: string): void {
    this.#used.add(key);
    if (this.#known.has(key)) return;
    this.#known.add(key);
    this.#added++;
  }

  /**
   * Write the keys when this run found new ones: those it used first, then older ones (another
   * environment's), up to a few times what it used. Never throws: a cache that cannot be written
   * only makes the next run slower.
   */
  save(): void {
    if (this.#added === 0) return;
    const keys = [...this.#used];
    const limit = 4 * keys.length + 1000;
    for (const k of this.#known) {
      if (keys.length >= limit) break;
      if (!this.#used.has(k)) keys.push(k);
    }
    const text = JSON.stringify({
      format: FORMAT,
      schemas: this.#monitor,
      keys,
      check: digest(`${this.#monitor}\n${keys.join('\n')}`),
    });
    const temporary = `${this.#file}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, text);
      renameSync(temporary, this.#file);
      this.#added = 0;
    } catch {
      rmSync(temporary, { force: true });
    }
  }
}

/** The payloads a project's loads found valid. */
export class ValidationCache extends KeptKeys implements ValidatedPayloads {
  /** The cache of the project whose cache directory is `cacheDir`; undefined when there can be none. */
  static open(cacheDir: string, options: OpenOptions = {}): ValidationCache | undefined {
    const secrets = KeptKeys.secrets(options);
    return secrets === undefined ? undefined : new ValidationCache(join(cacheDir, 'validated.json'), secrets);
  }

  keyOf(kind: ResourceKind, payload: Record<string, unknown>): string | undefined {
    return isPlainJson(payload) ? this.keyed(kind, JSON.stringify(payload)) : undefined;
  }
}

/** The response bodies a project's reads of the account found valid (`KnownResponses` of the client). */
export class ResponseCache extends KeptKeys implements KnownResponses {
  /** The cache of the project whose cache directory is `cacheDir`; undefined when there can be none. */
  static open(cacheDir: string, options: OpenOptions = {}): ResponseCache | undefined {
    const secrets = KeptKeys.secrets(options);
    return secrets === undefined ? undefined : new ResponseCache(join(cacheDir, 'responses.json'), secrets);
  }

  keyOf(endpoint: string, text: string): string | undefined {
    return this.keyed(endpoint, text);
  }
}
