import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where a build's files are written to be imported, in the project's cache directory (so that
 * their imports resolve as the project's):
 * - a build the cache kept goes to a place named by its content, the same run after run, and stays
 *   there. Node ≥ 22.8 keeps the compiled code of a module by its path (`module.enableCompileCache`,
 *   which the CLI calls), so the next run of an unchanged project does not compile its construct
 *   files again (20,000 constructs on Node 22: validate in 1.69 s instead of 2.08 s, by
 *   bench/scale.mjs --node). Only the first import of a build in a process goes there: importing
 *   the same path again would hand back the module already run;
 * - any other build goes to a place of this run's own, removed once it is imported.
 *
 * One file is written as `<name>.mjs` beside the cache files. Several (the main module, parts and
 * chunks, which import each other by name) go into a directory: their maps name the sources
 * relative to where esbuild put them, which is as deep. A kept build of several files shares one
 * directory with the builds before it, `modules-<scope>/`, where each part and chunk is named by
 * its own content (esbuild names them so) and the main module by the build's: after an edit of one
 * construct file, the parts it is not in keep their paths, and Node ≥ 22 their compiled code. Like
 * the cache files, they are readable by their owner only: they are the construct files' code,
 * literals and all.
 */
export interface BundlePlace {
  /** The paths of the files, in the order given. */
  paths: string[];
  /** The directory the files are in. */
  dir: string;
  /** Kept for the next run: `remove` leaves it. */
  kept: boolean;
  remove(): void;
}

/** A file of a build as it is written: its name and its bytes (or text). */
export interface PlacedFile {
  name: string;
  js: string | Uint8Array;
}

/**
 * How many places of kept builds stay in a project's cache: those of this run (its config and its
 * construct files, and the project again when `import` has written files), and the run's before.
 */
const KEPT_PLACES = 4;
/** A place is not removed until it has been unused this long: a run beside this one may be importing it. */
const UNUSED_FOR_MS = 10 * 60_000;
/** A place of a run's own (or a kept one half written) that a run killed part way left behind. */
const LEFT_FOR_MS = 60 * 60_000;

const KEPT_NAME = /^bundle-[A-Za-z0-9_-]{24}(?:\.mjs)?$/;
const LEFT_NAME =
  /^bundle-(?:\d+-[0-9a-f]{8}|[A-Za-z0-9_-]{24}(?:\.mjs)?\.\d+-[0-9a-f]{8}\.tmp)(?:\.mjs)?$|^output-[A-Za-z0-9]{6}$/;

/**
 * A new directory in the cache directory for esbuild to write one build into, as deep as a
 * directory of parts (their maps name the sources relative to it). The build is read back and
 * the directory removed; one that a run killed part way left is pruned with the other leftovers.
 */
export function outputDirectory(cacheDir: string): string {
  return mkdtempSync(join(cacheDir, 'output-'));
}

/**
 * The kept places this process has handed out, by path: for the whole process (another copy of
 * this module would otherwise hand the same path out again), as the runtime's modules are.
 */
const IMPORTED_KEY = Symbol.for('@monitor/engine.importedBundlePlaces');
const holder = globalThis as unknown as Record<symbol, Set<string> | undefined>;
holder[IMPORTED_KEY] ??= new Set<string>();
const importedHere = holder[IMPORTED_KEY];

/** What names a kept build's place: the hash of its files, and what the names of its parts hold for. */
export interface KeptBuild {
  /** The hash of the build's files, as the cache keeps them. */
  digest: string;
  /**
   * A hash of monitor's fingerprint and the project's directory: the parts and chunks are named
   * by esbuild's hash of its output, which the loader then marks with the project's absolute
   * paths, so their names hold for one monitor in one directory only.
   */
  scope: string;
}

/**
 * Write `files` where they are imported from: the kept place of the build (`keep`) when there is
 * one and this process has not imported from it yet, else a place of this run's own. Fails only
 * when this run's own place cannot be written (it is then removed).
 */
export async function placeBundle(
  cacheDir: string,
  files: readonly PlacedFile[],
  keep: KeptBuild | undefined,
): Promise<BundlePlace> {
  if (keep !== undefined && files.length > 1) {
    const shared = await placeShared(cacheDir, files, keep);
    if (shared !== undefined) return shared;
  } else if (keep !== undefined && files.length === 1) {
    const path = join(cacheDir, `bundle-${keep.digest.slice(0, 24)}.mjs`);
    if (!importedHere.has(path)) {
      // Taken before the wait: a second load of the same build meanwhile gets its own place.
      importedHere.add(path);
      try {
        await keepFile(path, (files[0] as PlacedFile).js);
        prune(cacheDir, path);
        return { paths: [path], dir: cacheDir, kept: true, remove: () => {} };
      } catch {
        importedHere.delete(path);
      }
    }
  }
  const own = placeAt(cacheDir, files, `bundle-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await writeFiles(own, files);
  } catch (error) {
    own.remove();
    throw error;
  }
  return own;
}

const SHARED_NAME = /^modules-[A-Za-z0-9_-]{12}$/;

/**
 * Put a kept build of several files in the directory the kept builds of its scope share: each
 * part and chunk under its own name, written only when it is not there whole, the main module
 * (`main-<build>.mjs`) last, so that a main module in place names files that are there. Undefined
 * when this process imported one of the files already (importing it again would not run it), or
 * when the directory cannot be written: the build then gets a place of its own.
 */
async function placeShared(
  cacheDir: string,
  files: readonly PlacedFile[],
  { digest, scope }: KeptBuild,
): Promise<BundlePlace | undefined> {
  const dir = join(cacheDir, `modules-${scope.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 12)}`);
  const paths = files.map((f, i) => join(dir, i === 0 ? `main-${digest.slice(0, 24)}.mjs` : f.name));
  if (paths.some((p) => importedHere.has(p))) return undefined;
  // Taken before the writes: a second load of a build sharing a file meanwhile gets its own place.
  for (const p of paths) importedHere.add(p);
  try {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (error) {
      // Another run made it first.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    await Promise.all(files.slice(1).map((f, i) => keepFile(paths[i + 1] as string, f.js)));
    await keepFile(paths[0] as string, (files[0] as PlacedFile).js);
  } catch {
    for (const p of paths) importedHere.delete(p);
    return undefined;
  }
  touched(dir);
  pruneShared(dir, new Set(paths));
  prune(cacheDir, dir);
  return { paths, dir, kept: true, remove: () => {} };
}

/**
 * Make `path` hold `js`: taken as it is when it has its size (its name says what it holds), else
 * written under a name of this run's own and renamed into place whole. Marked as used either way.
 */
async function keepFile(path: string, js: string | Uint8Array): Promise<void> {
  if (sizeIs(path, js) && touched(path)) return;
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, js, { mode: 0o600 });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    // Another run put the same file there first.
    if (!(sizeIs(path, js) && touched(path))) throw error;
  }
}

function sizeIs(path: string, js: string | Uint8Array): boolean {
  try {
    return statSync(path).size === Buffer.byteLength(js);
  } catch {
    return false;
  }
}

/**
 * Remove what no run used for `UNUSED_FOR_MS` from the shared directory (but the files of this
 * build): builds before it, parts an edit replaced, what a run killed part way left. Files another
 * build still uses are marked used by each run of it. Never throws.
 */
function pruneShared(dir: string, current: ReadonlySet<string>): void {
  const now = Date.now();
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry);
    if (current.has(path)) continue;
    try {
      if (now - statSync(path).mtimeMs > UNUSED_FOR_MS) rmSync(path, { force: true });
    } catch {
      // Gone already, or left for a later run.
    }
  }
}

/** A place of this run's own: removed once imported. */
function placeAt(cacheDir: string, files: readonly PlacedFile[], name: string): BundlePlace {
  const single = files.length === 1;
  const dir = single ? cacheDir : join(cacheDir, name);
  const paths = files.map((f) => (single ? join(dir, `${name}.mjs`) : join(dir, f.name)));
  const target = single ? (paths[0] as string) : dir;
  return { paths, dir, kept: false, remove: () => rmSync(target, { recursive: true, force: true }) };
}

/** Write each file, side by side off the main thread, in its directory (made first when it has one of its own). */
async function writeFiles(place: BundlePlace, files: readonly PlacedFile[]): Promise<void> {
  if (files.length > 1) mkdirSync(place.dir, { mode: 0o700 });
  const writes = files.map((f, i) => writeFile(place.paths[i] as string, f.js, { mode: 0o600 }));
  const settled = await Promise.allSettled(writes);
  const failed = settled.findIndex((w) => w.status === 'rejected');
  if (failed >= 0) {
    // Named here, told for people by the CLI (this module loads before the engine's errors).
    const reason = (settled[failed] as PromiseRejectedResult).reason as NodeJS.ErrnoException;
    reason.path ??= place.paths[failed];
    throw reason;
  }
}

/** Mark a kept place as just used (pruning keeps the latest); false when it is gone. */
function touched(path: string): boolean {
  try {
    const now = new Date();
    utimesSync(path, now, now);
    return true;
  } catch {
    return false;
  }
}

/**
 * Remove a place: renamed out of its name first, so that a removal cut short never leaves a
 * place that looks whole. False when it could not be moved.
 */
function removed(path: string): boolean {
  const doomed = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.removed`;
  try {
    renameSync(path, doomed);
  } catch {
    return false;
  }
  try {
    rmSync(doomed, { recursive: true, force: true });
  } catch {
    // What is left is removed by a later run's prune.
  }
  return true;
}

/**
 * Remove the kept places but the latest `KEPT_PLACES` used (and `current`), once unused for
 * `UNUSED_FOR_MS`: a large project's build is tens of MB. Also what runs killed part way left
 * (places of their own, half-written or half-removed ones) after `LEFT_FOR_MS`. Never throws: what
 * cannot be removed now is removed by a later run.
 */
function prune(cacheDir: string, current: string): void {
  const now = Date.now();
  const usedAt = (entry: string) => {
    try {
      return statSync(join(cacheDir, entry)).mtimeMs;
    } catch {
      return undefined;
    }
  };
  let entries: string[];
  try {
    entries = readdirSync(cacheDir);
  } catch {
    return;
  }
  const kept = entries
    .filter(
      (entry) => (KEPT_NAME.test(entry) || SHARED_NAME.test(entry)) && join(cacheDir, entry) !== current,
    )
    .map((entry) => ({ entry, used: usedAt(entry) }))
    .filter((p): p is { entry: string; used: number } => p.used !== undefined)
    .sort((a, b) => b.used - a.used);
  for (const { entry, used } of kept.slice(KEPT_PLACES - 1))
    if (now - used > UNUSED_FOR_MS) removed(join(cacheDir, entry));
  for (const entry of entries) {
    const left =
      LEFT_NAME.test(entry) ||
      ((entry.startsWith('bundle-') || entry.startsWith('modules-')) && entry.endsWith('.removed'));
    const used = left ? usedAt(entry) : undefined;
    if (used !== undefined && now - used > LEFT_FOR_MS)
      rmSync(join(cacheDir, entry), { recursive: true, force: true });
  }
}
