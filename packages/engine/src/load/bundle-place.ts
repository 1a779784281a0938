import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where a build's files are written to be imported, in the project's cache directory (so that
 * their imports resolve as the project's):
 * - a build the cache kept goes to a place named by its content, the same run after run, and stays
 *   there. Node ≥ 22 keeps the compiled code of a module by its path (`module.enableCompileCache`,
 *   called by the CLI), so the next run of an unchanged project does not compile its constructs
 *   again: 0.8 s of a 16 MB bundle's 1.2 s import on Node 22. Only the first import of a build in
 *   a process goes there: importing the same path again would hand back the module already run;
 * - any other build goes to a place of this run's own, removed once it is imported.
 *
 * One file is written as `<name>.mjs` beside the cache files, several (the main module, parts and
 * chunks, which import each other by name) in a directory `<name>/`: their maps name the sources
 * relative to where esbuild put them, which is as deep.
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
 * construct files), and those of the run before, which a run beside it may be importing.
 */
const KEPT_PLACES = 4;

const KEPT_NAME = /^bundle-[A-Za-z0-9_-]{24}(?:\.mjs)?$/;

/** Content hashes of the builds this process has imported from their kept place. */
const importedHere = new Set<string>();

/**
 * Write `files` where they are imported from: the kept place of `digest` (the hash of the build's
 * files) when there is one and this process has not used it yet, else a place of this run's own.
 * Fails only when this run's own place cannot be written (it is then removed).
 */
export async function placeBundle(
  cacheDir: string,
  files: readonly PlacedFile[],
  digest: string | undefined,
): Promise<BundlePlace> {
  if (digest !== undefined && !importedHere.has(digest)) {
    const kept = await keptPlace(cacheDir, files, `bundle-${digest.slice(0, 24)}`);
    if (kept !== undefined) {
      importedHere.add(digest);
      pruneKept(cacheDir, kept.name);
      return kept.place;
    }
  }
  const name = `bundle-${process.pid}-${randomBytes(4).toString('hex')}`;
  const place = placeAt(cacheDir, files, name);
  try {
    await writeFiles(place.paths, files, files.length > 1 ? place.dir : undefined);
  } catch (error) {
    place.remove();
    throw error;
  }
  return place;
}

function placeAt(cacheDir: string, files: readonly PlacedFile[], name: string, kept = false): BundlePlace {
  const single = files.length === 1;
  const dir = single ? cacheDir : join(cacheDir, name);
  const paths = files.map((f) => (single ? join(dir, `${name}.mjs`) : join(dir, f.name)));
  const target = single ? (paths[0] as string) : dir;
  return {
    paths,
    dir,
    kept,
    remove: kept ? () => {} : () => rmSync(target, { recursive: true, force: true }),
  };
}

/** Write each file, side by side off the main thread; `dir` is made first when given. */
async function writeFiles(
  paths: readonly string[],
  files: readonly PlacedFile[],
  dir: string | undefined,
): Promise<void> {
  if (dir !== undefined) mkdirSync(dir);
  const writes = files.map((f, i) => writeFile(paths[i] as string, f.js));
  const failed = (await Promise.allSettled(writes)).find((w) => w.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}

/**
 * The kept place `name`, written now unless a run before (or beside) this one wrote it: the files
 * are written under a name of this run's own, then renamed into place whole, so that no run ever
 * imports a place that is half written. Undefined when it cannot be had: this run writes its own.
 */
async function keptPlace(
  cacheDir: string,
  files: readonly PlacedFile[],
  name: string,
): Promise<{ place: BundlePlace; name: string } | undefined> {
  const single = files.length === 1;
  const entry = single ? `${name}.mjs` : name;
  const place = placeAt(cacheDir, files, name, true);
  const target = join(cacheDir, entry);
  if (existsSync(target)) return touched(target) ? { place, name: entry } : undefined;
  const own = `${name}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const ownPlace = placeAt(cacheDir, files, own);
  const temporary = single ? (ownPlace.paths[0] as string) : ownPlace.dir;
  try {
    await writeFiles(ownPlace.paths, files, single ? undefined : ownPlace.dir);
    renameSync(temporary, target);
    return { place, name: entry };
  } catch {
    ownPlace.remove();
    // Another run put the same files there first.
    return existsSync(target) && touched(target) ? { place, name: entry } : undefined;
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
 * Remove the kept places but the latest `KEPT_PLACES` used (and `current`): a large project's
 * build is tens of MB. Never throws: what cannot be removed now is removed by a later run.
 */
function pruneKept(cacheDir: string, current: string): void {
  try {
    const places = readdirSync(cacheDir)
      .filter((entry) => KEPT_NAME.test(entry) && entry !== current)
      .map((entry) => ({ entry, used: statSync(join(cacheDir, entry)).mtimeMs }))
      .sort((a, b) => b.used - a.used);
    for (const { entry } of places.slice(KEPT_PLACES - 1))
      rmSync(join(cacheDir, entry), { recursive: true, force: true });
  } catch {
    // Left for a later run.
  }
}
