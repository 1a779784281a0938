import { createHash, hash, webcrypto } from 'node:crypto';
import {
  closeSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import { endianness } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metafile } from 'esbuild';

/**
 * The last build of each purpose, kept in the project's cache directory with everything it was
 * made from: a load whose inputs are all as they were takes it instead of running esbuild again
 * (bundling 20,000 constructs takes seconds; checking that nothing changed, tens of milliseconds).
 *
 * A build's output depends on more than the files it read: on which files exist (a new `x.tsx`
 * wins over `x.ts`, a package installed nearer the importer wins over one further up), on the
 * `tsconfig.json`/`package.json` files around them, and on monitor and esbuild themselves. All of
 * that is recorded and checked; anything that cannot be recorded (a file esbuild did not read
 * from disk) means the build is not kept. A cache file that is unreadable, truncated or altered
 * fails its checks and is ignored.
 */

/** Bump when what a cache file holds or how it is checked changes. */
const FORMAT = 3;

/** What a cache file starts with (one JSON line), before the files of the build. */
interface Header {
  format: number;
  /** monitor's and esbuild's versions and code (`fingerprint`). */
  monitor: string;
  /** Hash of the entry: the files it imports, in order. */
  entry: string;
  projectDir: string;
  /**
   * The build's files: name and byte lengths of the module, of its map and of the map's index
   * (`mappingsIndex`, as little-endian 32-bit integers), which follow the header line
   * in this order.
   */
  files: { name: string; js: number; map: number | null; index: number | null }[];
  /** Hash of the bytes after the header line. */
  body: string;
  /**
   * Files the build read or looked for: path → [content hash, stat], or null when it was absent.
   * A file whose stat (inode, size, modification and change times) is as recorded was not written
   * since; only one whose stat changed is read and hashed again.
   */
  inputs: Record<string, [string, string] | null>;
  /** Directories whose entries steer resolution: path → [hash of the listing, stat]. */
  dirs: Record<string, [string, string]>;
  /** Built whole because its parts would have run its modules in another order (split.ts). */
  splitRefused?: boolean;
}

/**
 * A file of a build: a module, and its source map with the map's index (not for the main module
 * of a split build).
 */
export interface BuiltFile {
  name: string;
  /** As esbuild made it, or the bytes the cache kept (written out as they are, never decoded). */
  js: string | Uint8Array;
  /** JSON text, or its bytes as the cache kept them (decoded only when a position is looked up). */
  map?: string | Uint8Array | undefined;
  index?: Int32Array | undefined;
}

/** What a cached or a new build hands the loader: its files, the first the one to import. */
export interface CachedBuild {
  files: BuiltFile[];
  /** Hash of the files (modules, maps and indexes) as the cache keeps them: set when read from it. */
  digest?: string;
  /** The project was built whole because its parts would have run its modules in another order. */
  splitRefused?: boolean;
  /** A build in parts: what a later build needs to build only the parts an edit touched. */
  parts?: PartsRecord | undefined;
}

const digest = (data: string | Buffer): string => hash('sha256', data, 'base64url');

/** Map indexes are kept as little-endian integers: this machine's own on all but rare ones, which skip them. */
const LITTLE_ENDIAN = endianness() === 'LE';

/** Hash of a file's content; null when there is no such file (or it is a directory). */
function fileHash(path: string): string | null {
  try {
    return digest(readFileSync(path));
  } catch {
    return null;
  }
}

/** Hash of a directory's entries (names and whether each is a directory); a missing one hashes as empty. */
function listingHash(dir: string): string {
  try {
    const entries = readdirSync(dir, { withFileTypes: true })
      .map((e) => `${e.name}${e.isDirectory() ? '/' : ''}`)
      .sort();
    return digest(entries.join('\n'));
  } catch {
    return digest('');
  }
}

/** What changes whenever a file or directory is written: its inode, size, and modification and change times. */
export function statOf(path: string): string | undefined {
  try {
    const s = statSync(path);
    return `${s.ino}/${s.size}/${s.mtimeMs}/${s.ctimeMs}`;
  } catch {
    return undefined;
  }
}

/** A file as it was recorded: content hash and stat, or null when it was absent. */
function fileRecord(path: string): [string, string] | null {
  const stat = statOf(path);
  const content = stat === undefined ? null : fileHash(path);
  return content === null || stat === undefined ? null : [content, stat];
}

function fileUnchanged(path: string, recorded: [string, string] | null): boolean {
  const stat = statOf(path);
  if (recorded === null) return stat === undefined;
  return stat === recorded[1] || fileHash(path) === recorded[0];
}

function dirUnchanged(dir: string, [listing, stat]: [string, string]): boolean {
  return statOf(dir) === stat || listingHash(dir) === listing;
}

let ownFingerprint: string | undefined;

/**
 * monitor's part of the key: the cache format, monitor's and esbuild's versions, and the code of
 * the modules that build (`moduleUrls`): a monitor built from other sources never takes a bundle
 * this one made, even at the same version number.
 */
export function fingerprint(moduleUrls: readonly string[]): string {
  if (ownFingerprint !== undefined) return ownFingerprint;
  const require = createRequire(import.meta.url);
  const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
  const code = [...new Set([import.meta.url, ...moduleUrls])].map((url) =>
    digest(readFileSync(fileURLToPath(url))),
  );
  ownFingerprint = digest(
    [FORMAT, version('@monitor/engine'), version('esbuild'), process.platform, ...code].join('\n'),
  );
  return ownFingerprint;
}

/** Where the cached build of `purpose` is kept. */
export function cacheFile(cacheDir: string, purpose: string): string {
  return join(cacheDir, `${purpose}.bundle`);
}

const isPair = (v: unknown): v is [string, string] =>
  Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'string');

const isLength = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

function isHeader(value: unknown): value is Header {
  if (value === null || typeof value !== 'object') return false;
  const h = value as Record<string, unknown>;
  const record = (r: unknown, ok: (v: unknown) => boolean) =>
    r !== null && typeof r === 'object' && !Array.isArray(r) && Object.values(r).every(ok);
  const isFile = (f: unknown) => {
    const { name, js, map, index } = (f ?? {}) as Record<string, unknown>;
    return (
      typeof name === 'string' &&
      isLength(js) &&
      (map === null || isLength(map)) &&
      (index === null || (isLength(index) && index % 4 === 0))
    );
  };
  return (
    typeof h.format === 'number' &&
    typeof h.monitor === 'string' &&
    typeof h.entry === 'string' &&
    typeof h.projectDir === 'string' &&
    Array.isArray(h.files) &&
    h.files.length > 0 &&
    h.files.every(isFile) &&
    typeof h.body === 'string' &&
    record(h.inputs, (v) => v === null || isPair(v)) &&
    record(h.dirs, isPair)
  );
}

/**
 * The cached build of `entry` for `purpose`, when everything it was made from is as it was;
 * otherwise undefined (also when the cache file is missing, unreadable or damaged). Read and
 * hashed off the main thread (tens of MB in a large project), which meanwhile loads the CLI.
 */
export async function readCachedBuild(
  file: string,
  entry: string,
  projectDir: string,
  monitor: string,
): Promise<CachedBuild | undefined> {
  const kept = await readKeptBuild(file, entry, projectDir, monitor);
  return kept?.changed.length === 0 ? kept.build : undefined;
}

/**
 * A kept build, and the files of those it was made from whose content changed since (none when it
 * can be taken as it is). With changes, only a build in parts is read, and only when nothing but
 * the content of files changed (not which files exist, not the entry, monitor or the cache) and
 * `planChanges` makes a plan of them from its parts' record (`PartsRecord`, which must be this very
 * build's): before the build is read, which takes tens of MB. Otherwise undefined.
 */
export async function readKeptBuild<Plan>(
  file: string,
  entry: string,
  projectDir: string,
  monitor: string,
  planChanges?: (changed: readonly string[], parts: PartsRecord) => Plan | undefined,
): Promise<CacheLookup<Plan> | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = (await handle.stat()).size;
    const head = await readHeaderLine(handle);
    if (head === undefined) return undefined;
    let header: unknown;
    try {
      header = JSON.parse(head.text);
    } catch {
      return undefined;
    }
    if (!isHeader(header)) return undefined;
    const lengths = header.files.reduce((n, f) => n + f.js + (f.map ?? 0) + (f.index ?? 0), 0);
    if (
      header.format !== FORMAT ||
      header.monitor !== monitor ||
      header.entry !== digest(entry) ||
      header.projectDir !== projectDir ||
      size !== head.bytes + lengths
    )
      return undefined;
    for (const [dir, recorded] of Object.entries(header.dirs))
      if (!dirUnchanged(dir, recorded)) return undefined;
    const changed: string[] = [];
    for (const [path, recorded] of Object.entries(header.inputs)) {
      if (fileUnchanged(path, recorded)) continue;
      // A file that appeared or went away changes what imports resolve to.
      if (recorded === null || statOf(path) === undefined) return undefined;
      changed.push(path);
    }
    let plan: Plan | undefined;
    if (changed.length > 0) {
      const parts = planChanges === undefined ? undefined : readPartsRecord(file, header.body);
      plan = parts === undefined ? undefined : planChanges?.(changed, parts);
      if (plan === undefined) return undefined;
    }
    // One buffer for the whole body. Reading it a section at a time (tried in 0691b74) made a
    // no-change diff of 20,000 constructs peak 25 MB lower, and a validate of 50,000 35 MB higher:
    // what glibc's malloc keeps of what is freed depends on the sizes of the blocks (see
    // `readTextInRuns` in state/file-store.ts).
    const body = Buffer.allocUnsafe(lengths);
    for (let read = 0; read < lengths; ) {
      const { bytesRead } = await handle.read(body, read, lengths - read, head.bytes + read);
      if (bytesRead === 0) return undefined;
      read += bytesRead;
    }
    if (Buffer.from(await webcrypto.subtle.digest('SHA-256', body)).toString('base64url') !== header.body)
      return undefined;
    return { build: { files: filesOf(header, body), digest: header.body }, changed, plan };
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** What the cache holds for a build (`readKeptBuild`): the build, what changed since, and the plan of the changes. */
export interface CacheLookup<Plan> {
  build: CachedBuild & { digest: string };
  /** The files it was made from whose content is not what it was. */
  changed: readonly string[];
  /** Set when `changed` is not empty. */
  plan?: Plan | undefined;
}

/**
 * What a build in parts keeps beside its cache file, for the next build to build again only the
 * parts an edit touched (changed-parts.ts): how many construct files each part has, and esbuild's
 * metafile with its outputs named by file name (`outputsByName`).
 */
export interface PartsRecord {
  lengths: number[];
  metafile: Metafile;
}

/** Where the parts' record of the build kept in `file` is. */
const partsFile = (file: string) => `${file}.parts.json`;

/** The parts' record of the build whose body hashes to `body`; undefined when there is none, or another build's. */
function readPartsRecord(file: string, body: string): PartsRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(partsFile(file), 'utf8')) as {
      format?: unknown;
      body?: unknown;
      lengths?: unknown;
      metafile?: { inputs?: unknown; outputs?: unknown } | null;
    };
    const { lengths, metafile } = record;
    if (record.format !== FORMAT || record.body !== body) return undefined;
    if (!Array.isArray(lengths) || !lengths.every((n) => Number.isSafeInteger(n) && n > 0)) return undefined;
    if (typeof metafile?.inputs !== 'object' || typeof metafile.outputs !== 'object') return undefined;
    if (metafile.inputs === null || metafile.outputs === null) return undefined;
    return { lengths: lengths as number[], metafile: metafile as Metafile };
  } catch {
    return undefined;
  }
}

/** Keep `record` for the build whose body hashes to `body` (written whole, or not at all). */
function writePartsRecord(file: string, body: string, record: PartsRecord | undefined): void {
  const path = partsFile(file);
  if (record === undefined) {
    rmSync(path, { force: true });
    return;
  }
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, JSON.stringify({ format: FORMAT, body, ...record }), { mode: 0o600 });
    renameSync(temporary, path);
  } catch {
    rmSync(temporary, { force: true });
  }
}

/**
 * The files of a kept build, from its body: each module a view of it (written out as it is, then
 * dropped), each map and index a copy, which a map's first lookup lets go of.
 */
function filesOf(header: Header, body: Buffer): BuiltFile[] {
  let at = 0;
  const next = (length: number) => {
    const part = body.subarray(at, at + length);
    at += length;
    return part;
  };
  return header.files.map(({ name, js, map, index }) => {
    const file: BuiltFile = { name, js: next(js) };
    if (map !== null) file.map = Buffer.from(next(map));
    if (index !== null) {
      // Copied into a buffer of its own, so that they are aligned; written little-endian, read only so.
      const integers = new Int32Array(new Uint8Array(next(index)).buffer);
      if (LITTLE_ENDIAN) file.index = integers;
    }
    return file;
  });
}

/**
 * Whether the build kept in `file`, whatever it was made from, was built whole because its parts
 * would have changed the order: a hint for the next build of the project, which does not try the
 * parts again (a damaged or missing file says no).
 */
export async function splitRefused(file: string): Promise<boolean> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch {
    return false;
  }
  try {
    const head = await readHeaderLine(handle);
    return head !== undefined && (JSON.parse(head.text) as { splitRefused?: unknown }).splitRefused === true;
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}

/** The cache file's first line (its header) and its length in bytes with the newline; undefined without one. */
async function readHeaderLine(handle: FileHandle): Promise<{ text: string; bytes: number } | undefined> {
  const chunks: Buffer[] = [];
  for (let at = 0; ; ) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, at);
    if (bytesRead === 0) return undefined;
    const newline = chunk.subarray(0, bytesRead).indexOf(10);
    if (newline !== -1) {
      chunks.push(chunk.subarray(0, newline));
      return { text: Buffer.concat(chunks).toString('utf8'), bytes: at + newline + 1 };
    }
    chunks.push(chunk.subarray(0, bytesRead));
    at += bytesRead;
  }
}

/** What a finished build read, for `storeBuild`. */
export interface BuildRecord {
  /** The names the metafile gives the build's entries (the stdin entry, the parts': not files). */
  entryNames: readonly string[];
  /** The files the entry imports, as it names them (a symlink is followed when hashed). */
  entryFiles: readonly string[];
  metafile: Metafile;
  /** `Date.now()` before the build started. */
  started: number;
}

/**
 * Keep a finished build in `file`. Not kept when a file it depends on may have changed while it
 * ran (its modification time is not clearly before the build started: the build may have read
 * the old content) or when it read anything but files. Never throws: a cache that cannot be
 * written is only a slower next run. The hash of the files it kept, as `readCachedBuild` gives it
 * back; undefined when it kept nothing.
 */
export function storeBuild(
  file: string,
  entry: string,
  projectDir: string,
  monitor: string,
  built: CachedBuild,
  record: BuildRecord,
): string | undefined {
  try {
    const deps = dependencies(projectDir, record);
    if (deps === undefined) return undefined;
    for (const path of [...Object.keys(deps.files), ...Object.keys(deps.dirs)]) {
      if (changedSince(path, record.started)) return undefined;
    }
    // Written a file at a time, as it is read: no copy of the whole build at once.
    const body = createHash('sha256');
    const indexes = built.files.map(({ index }) =>
      index === undefined || !LITTLE_ENDIAN
        ? undefined
        : new Uint8Array(index.buffer, index.byteOffset, index.byteLength),
    );
    const files = built.files.map(({ name, js, map }, i) => {
      const index = indexes[i];
      body.update(js);
      if (map !== undefined) body.update(map);
      if (index !== undefined) body.update(index);
      return {
        name,
        js: Buffer.byteLength(js, 'utf8'),
        map: map === undefined ? null : Buffer.byteLength(map, 'utf8'),
        index: index === undefined ? null : index.byteLength,
      };
    });
    const header: Header = {
      format: FORMAT,
      monitor,
      entry: digest(entry),
      projectDir,
      files,
      body: body.digest('base64url'),
      inputs: deps.files,
      dirs: deps.dirs,
      ...(built.splitRefused === true ? { splitRefused: true } : {}),
    };
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      const fd = openSync(temporary, 'w', 0o600);
      try {
        writeAll(fd, `${JSON.stringify(header)}\n`);
        built.files.forEach(({ js, map }, i) => {
          writeAll(fd, js);
          if (map !== undefined) writeAll(fd, map);
          const index = indexes[i];
          if (index !== undefined) writeAll(fd, index);
        });
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, file);
      writePartsRecord(file, header.body, built.parts);
      return header.body;
    } catch {
      rmSync(temporary, { force: true });
      return undefined;
    }
  } catch {
    // Only the next run's head start is lost.
    return undefined;
  }
}

/** Write all of `data` (a write may take only part of it). */
function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

/**
 * Whether `path` may have changed after `started`: modified later, or so shortly before that the
 * difference is within the file system's timestamp granularity (whole seconds on some) or the
 * kernel clock's lag behind `Date.now()`.
 */
function changedSince(path: string, started: number): boolean {
  let mtime: number;
  try {
    mtime = statSync(path).mtimeMs;
  } catch {
    return false; // absent: recorded as absent, and checked as such
  }
  const slack = mtime % 1000 === 0 ? 2000 : 50;
  return mtime > started - slack;
}

const BUILTINS = new Set(builtinModules);

function isBare(specifier: string): boolean {
  return !(specifier.startsWith('.') || specifier.startsWith('/') || isAbsolute(specifier));
}

/** The package a bare import names: `@scope/name` or `name`, without a subpath. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** `dir` and every directory above it, nearest first. */
function ancestors(dir: string): string[] {
  const out = [dir];
  for (let d = dir, up = dirname(d); up !== d; d = up, up = dirname(d)) out.push(up);
  return out;
}

/** The files and directories a build depends on, or undefined when one cannot be recorded. */
function dependencies(
  projectDir: string,
  record: BuildRecord,
): { files: Record<string, [string, string] | null>; dirs: Record<string, [string, string]> } | undefined {
  const files: Record<string, [string, string] | null> = {};
  const dirs: Record<string, [string, string]> = {};
  /** Record a file; its content hash, or null when it is absent. */
  const addFile = (path: string): string | null => {
    const known = files[path];
    if (known !== undefined) return known?.[0] ?? null;
    const recorded = fileRecord(path);
    files[path] = recorded;
    return recorded?.[0] ?? null;
  };
  const addDir = (dir: string) => {
    const stat = statOf(dir);
    dirs[dir] = [listingHash(dir), stat ?? ''];
  };
  const inputs = Object.entries(record.metafile.inputs).filter(([name]) => !record.entryNames.includes(name));
  const inputDirs = new Set<string>();
  for (const [name] of inputs) {
    // Another namespace than files (`ns:path`): nothing on disk to check it by.
    if (/^[a-z][\w-]*:/i.test(name) && !isAbsolute(name)) return undefined;
    const path = resolve(projectDir, name);
    if (addFile(path) === null) return undefined;
    inputDirs.add(dirname(path));
  }
  for (const path of record.entryFiles) if (addFile(path) === null) return undefined;

  // Listings, from each input up to the project (or, outside it, to the package it is in): a
  // file added beside an import's target may now be what it resolves to.
  const listed = new Set<string>();
  for (const dir of inputDirs) {
    for (const d of ancestors(dir)) {
      listed.add(d);
      if (d === projectDir) break;
      if (!d.startsWith(`${projectDir}${sep}`) && addFile(join(d, 'package.json')) !== null) break;
    }
  }
  for (const d of listed) {
    addDir(d);
    addDir(join(d, 'node_modules'));
  }

  // The tsconfig.json/jsconfig.json/package.json esbuild consults for each input, up to the root.
  const configDirs = new Set<string>();
  for (const d of listed) for (const a of ancestors(d)) configDirs.add(a);
  for (const d of configDirs) {
    addFile(join(d, 'package.json'));
    addFile(join(d, 'jsconfig.json'));
    const tsconfig = join(d, 'tsconfig.json');
    if (addFile(tsconfig) !== null && !recordExtends(tsconfig, addFile, 0)) return undefined;
  }

  // Bare imports: the package each resolves to is the first on its node_modules path.
  const seen = new Set<string>();
  for (const [name, input] of inputs) {
    const importerDir = dirname(resolve(projectDir, name));
    for (const imported of input.imports) {
      const specifier = imported.original ?? imported.path;
      if (!isBare(specifier) || specifier.startsWith('node:') || BUILTINS.has(packageName(specifier)))
        continue;
      const key = `${importerDir}\0${packageName(specifier)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      for (const a of ancestors(importerDir))
        addFile(join(a, 'node_modules', packageName(specifier), 'package.json'));
    }
  }
  return { files, dirs };
}

/**
 * Record what a tsconfig's `extends` names (each candidate esbuild may take, present or absent).
 * False when the file cannot be read as JSON with comments.
 */
function recordExtends(tsconfig: string, addFile: (path: string) => string | null, depth: number): boolean {
  if (depth > 8) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(withoutComments(readFileSync(tsconfig, 'utf8')));
  } catch {
    return false;
  }
  const value = (parsed as { extends?: unknown } | null)?.extends;
  const targets = value === undefined ? [] : Array.isArray(value) ? value : [value];
  for (const target of targets) {
    if (typeof target !== 'string') return false;
    const dir = dirname(tsconfig);
    const candidates = isBare(target)
      ? ancestors(dir).flatMap((a) => {
          const base = join(a, 'node_modules', target);
          return [
            base,
            `${base}.json`,
            join(base, 'tsconfig.json'),
            join(a, 'node_modules', packageName(target), 'package.json'),
          ];
        })
      : [resolve(dir, target), `${resolve(dir, target)}.json`];
    for (const candidate of candidates) {
      if (addFile(candidate) !== null && candidate.endsWith('.json') && !candidate.endsWith('package.json')) {
        if (!recordExtends(candidate, addFile, depth + 1)) return false;
      }
    }
  }
  return true;
}

/** JSON with comments and trailing commas (as tsconfig files are written) → JSON. */
export function withoutComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
      out += ' ';
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}
