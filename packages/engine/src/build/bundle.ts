import { hash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { basename, join, relative, resolve } from 'node:path';
import type { Diagnostic } from '@monitor/constructs';
import type { BuildFailure, BuildOptions, Message, Metafile, Plugin } from 'esbuild';
import {
  mappingsIndex,
  type OriginalPosition,
  type PositionMap,
  positionMap,
} from '../positions/position-map.js';
import {
  type BuiltFile,
  cacheFile,
  fingerprint,
  type PartsRecord,
  packageName,
  readKeptBuild,
  splitRefused,
  storeBuild,
} from './bundle-cache.js';
import { outputDirectory, placeBundle } from './bundle-place.js';
import { mergeParts, outputsByName, partsToRebuild } from './changed-parts.js';
import { BundleError } from './errors.js';
import { esbuildService } from './esbuild-service.js';
import { mainModule, PART_NAMESPACE, splitOrder, splitParts } from './split.js';

/** Always loaded from the project, never bundled: one instance of the session for every file. */
const ALWAYS_EXTERNAL = new Set(['@monitor/constructs']);

/**
 * Bare specifiers, except exactly `@monitor/constructs`, which every construct file imports and
 * esbuild marks external itself: a plugin callback is a round trip to the esbuild process, and a
 * project of a hundred files would pay a hundred of them. (esbuild's Go regular expressions have
 * no lookahead, hence the spelled-out prefixes.)
 */
export const BARE_EXCEPT_CONSTRUCTS = bareExcept('@monitor/constructs');

function bareExcept(name: string): RegExp {
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const prefixes = [...name].map((_, i) => literal(name.slice(0, i))).slice(1);
  const diverging = prefixes.map((prefix, i) => `${prefix}[^${literal(name.charAt(i + 1))}]`);
  // Any bare start but `@`; a start of `name` that goes elsewhere or stops; or `name` and more.
  return new RegExp(`^(?:[^./@]|${diverging.join('|')}|(?:${prefixes.join('|')})$|${literal(name)}.)`);
}
const TS_SOURCE = /\.(c|m)?tsx?$/;

/**
 * Bare imports: Node builtins and installed JavaScript packages stay external (loaded from the
 * project's node_modules at run time); packages that resolve to TypeScript sources (a workspace
 * construct library, tsconfig paths) are bundled; a package that cannot be found is an error
 * naming the package and the importing file.
 */
function externalsPlugin(projectDir: string): Plugin {
  return {
    name: 'monitor-externals',
    setup(b) {
      b.onResolve({ filter: BARE_EXCEPT_CONSTRUCTS }, async (args) => {
        if ((args.pluginData as { inner?: boolean } | undefined)?.inner) return undefined;
        const name = packageName(args.path);
        if (args.path.startsWith('node:') || builtinModules.includes(name))
          return { path: args.path, external: true };
        if (ALWAYS_EXTERNAL.has(name)) return { path: args.path, external: true };
        const resolved = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: { inner: true },
        });
        if (resolved.errors.length > 0) {
          const importer = args.importer === '' ? 'the project' : relative(projectDir, args.importer);
          return {
            errors: [
              {
                text: `Cannot find package "${name}" imported from ${importer}`,
                notes: [{ text: `install it in the project (npm install ${name}) or fix the import` }],
              },
            ],
          };
        }
        if (TS_SOURCE.test(resolved.path)) return { path: resolved.path };
        return { path: args.path, external: true };
      });
    },
  };
}

/** The global that names the project file whose top level is running while a bundle loads. */
export const LOADING_FILE = Symbol.for('monitor.loadingFile');

/**
 * Each project file (not a package) names itself in `globalThis[LOADING_FILE]` before its code runs,
 * so that when loading never ends (a top-level await that never settles) or ends the process, the
 * loader can say which file did it. esbuild starts each file's code with a `// path` comment line;
 * that line becomes the assignment, which moves no other line (the source map stays true).
 */
function markLoadingFiles(text: string, inputs: ReadonlySet<string>, projectDir: string): string {
  return text.replace(/^\/\/ (.+)$/gm, (line, path: string) =>
    inputs.has(path) && !path.includes('node_modules/')
      ? `globalThis[Symbol.for('monitor.loadingFile')]=${JSON.stringify(resolve(projectDir, path))};`
      : line,
  );
}

export interface Bundle {
  /** The module to import (inside the project, so that its imports resolve there). */
  file: string;
  /** Every file of the bundle: the module to import, and the parts and chunks of a large project. */
  files: readonly string[];
  /** Whether it is the build kept in the project's cache (nothing it was made from had changed). */
  fromCache: boolean;
  /** Set when only the parts an edit touched were built, the others taken from the cache. */
  rebuilt?: { parts: number; of: number } | undefined;
  /** Where a position in one of the bundle's files came from (1-based); undefined where nothing maps. */
  lookup(file: string, line: number, column: number): OriginalPosition | undefined;
  /** Remove the bundle's files, unless they are kept for the next run (`placeBundle`). */
  dispose(): void;
}

export function messageToDiagnostic(message: Message, projectDir: string): Diagnostic {
  const notes = message.notes.map((n) => n.text).filter((t) => t.length > 0);
  return {
    severity: 'error',
    path: '',
    message: message.text + (notes.length > 0 ? ` (${notes.join('; ')})` : ''),
    location:
      message.location === null
        ? undefined
        : {
            file: resolve(projectDir, message.location.file),
            line: message.location.line,
            column: message.location.column + 1,
          },
    detail: message.location?.lineText,
  };
}

/** What a build made, or the cache kept: its files (loading markers in), the first the one to import. */
interface Built {
  projectDir: string;
  files: BuiltFile[];
  fromCache: boolean;
  rebuilt?: { parts: number; of: number } | undefined;
  /** Hash of the build's files, when the cache holds it. */
  digest?: string | undefined;
}

/** Where the project's `.monitor/cache` directory is. */
export function cachePath(projectDir: string): string {
  return join(projectDir, '.monitor', 'cache');
}

/**
 * The project's `.monitor/cache` directory, made if it is not there yet: git-ignored and readable
 * only by its owner, as its builds copy the construct files (and whatever literals they hold).
 */
export function cacheDirectory(projectDir: string): string {
  const dir = cachePath(projectDir);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, '.gitignore'), '*\n');
  }
  return dir;
}

/** The stdin entry's name: what esbuild calls it in messages and in the metafile. */
const ENTRY_NAME = 'monitor-entry.mjs';

/** The options every build shares. */
function buildOptions(projectDir: string): BuildOptions & { metafile: true; write: false } {
  return {
    absWorkingDir: projectDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    sourcemap: 'external',
    sourcesContent: false,
    keepNames: true,
    logLevel: 'silent',
    external: [...ALWAYS_EXTERNAL],
    metafile: true,
  };
}

/** A build's output: each file's path and text. */
type BuildResult = { outputFiles: readonly { path: string; text: string }[]; metafile: Metafile };

/** Run a build; a failure becomes a BundleError. */
async function run(
  projectDir: string,
  options: BuildOptions & { metafile: true; write: boolean },
): Promise<BuildResult> {
  try {
    const result = await (await esbuildService()).build(options);
    if (!options.write) return { outputFiles: result.outputFiles ?? [], metafile: result.metafile };
    // Written by esbuild: read back (the metafile names them relative to the working directory).
    const outputFiles = Object.keys(result.metafile.outputs).map((output) => {
      const path = resolve(projectDir, output);
      return { path, text: readFileSync(path, 'utf8') };
    });
    return { outputFiles, metafile: result.metafile };
  } catch (e) {
    const failure = e as BuildFailure;
    if (Array.isArray(failure.errors))
      throw new BundleError(failure.errors.map((m) => messageToDiagnostic(m, projectDir)));
    throw e;
  }
}

/** The output files of a build as the bundle's files, each with its map and loading markers. */
function builtFiles(result: BuildResult, projectDir: string): BuiltFile[] {
  const inputs = new Set(Object.keys(result.metafile.inputs));
  const maps = new Map(
    result.outputFiles.filter((o) => o.path.endsWith('.map')).map((o) => [o.path.slice(0, -4), o.text]),
  );
  return result.outputFiles
    .filter((o) => o.path.endsWith('.mjs'))
    .map((o) => {
      const map = maps.get(o.path);
      return {
        name: basename(o.path),
        js: markLoadingFiles(o.text, inputs, projectDir),
        map,
        // Made now, to be kept with the build: a run that finds it unchanged looks positions up at once.
        index: map === undefined ? undefined : mappingsIndex(map),
      };
    });
}

/** The construct files an entry made by `constructsEntry` imports; undefined for any other entry. */
function entryFiles(entry: string): string[] | undefined {
  const files: string[] = [];
  for (const line of entry.split('\n')) {
    const quoted = /^import ("(?:[^"\\]|\\.)*");$/.exec(line)?.[1];
    if (quoted === undefined) return undefined;
    files.push(JSON.parse(quoted) as string);
  }
  return files;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** What a build made, before it is kept: its files, metafile and entry names, and more of a build in parts. */
interface Made {
  files: BuiltFile[];
  metafile: Metafile;
  entryNames: string[];
  parts?: PartsRecord | undefined;
  rebuilt?: { parts: number; of: number } | undefined;
  splitRefused?: boolean;
}

/** What a build in parts made: its files (the main module first), and its parts' record. */
type SplitBuilt = Made & { parts: PartsRecord };

/**
 * A large project's construct files built as parts, loaded in order by a main module (split.ts);
 * undefined when the project is small, `refused` when the parts would not run its modules in the
 * order one bundle does.
 */
async function splitBuild(entry: string, projectDir: string): Promise<SplitBuilt | 'refused' | undefined> {
  const files = entryFiles(entry);
  const parts = files === undefined ? undefined : splitParts(files, sizeOf);
  if (parts === undefined) return undefined;
  const result = await buildParts(
    projectDir,
    parts.map((files, index) => ({ index, files })),
  );
  const names = parts.map((_, i) => `${PART_NAMESPACE}:${i}`);
  const metafile = outputsByName(result.metafile);
  const main = mainOf(metafile, names);
  if (main === undefined) return 'refused';
  return {
    files: [main, ...builtFiles(result, projectDir)],
    metafile,
    entryNames: names,
    parts: { lengths: parts.map((p) => p.length), metafile },
  };
}

/** A module of the project's source that an edit may change without building every part. */
const SOURCE_MODULE = /\.(c|m)?(j|t)sx?$/;

/** Which parts an edit of some construct files makes to build again (`planChangedParts`). */
interface ChangedParts {
  /** Each part's construct files, as a build of every part cuts them. */
  parts: string[][];
  /** The metafile names of the parts' entries. */
  names: string[];
  /** The parts to build again, by index. */
  rebuild: number[];
  record: PartsRecord;
}

/**
 * The parts of `entry` to build again after an edit of the files `changed` (paths), the others to
 * be taken from the kept build whose parts' record is `record` (changed-parts.ts); undefined when
 * every part is to be built.
 */
function planChangedParts(
  entry: string,
  projectDir: string,
  changed: readonly string[],
  record: PartsRecord,
): ChangedParts | undefined {
  const files = entryFiles(entry);
  if (files === undefined) return undefined;
  // The cuts of a build of every part, so that parts do not drift from them as files grow.
  const parts = splitParts(files, sizeOf);
  if (parts === undefined || parts.map((p) => p.length).join() !== record.lengths.join()) return undefined;
  const names = parts.map((_, i) => `${PART_NAMESPACE}:${i}`);
  const paths = new Set(changed);
  const changedNames = new Set(
    Object.keys(record.metafile.inputs).filter((name) => paths.has(resolve(projectDir, name))),
  );
  // Each changed file must be a module of source code: a package.json or tsconfig.json (imported
  // as JSON or not) also steers how every file near it builds.
  const changedPaths = new Set([...changedNames].map((name) => resolve(projectDir, name)));
  if (changedPaths.size !== paths.size || ![...changedNames].every((n) => SOURCE_MODULE.test(n)))
    return undefined;
  // Throws on a record that parses but does not hold what a build writes: `readKeptBuild` then
  // finds no plan, and every part is built.
  const rebuild = partsToRebuild(record.metafile, names, changedNames);
  return rebuild === undefined ? undefined : { parts, names, rebuild, record };
}

/**
 * The parts `plan` names built again, the others taken from the kept build's `keptFiles`;
 * undefined when the result would not run the project as a build of every part would. Fails with
 * a BundleError when a part does not build.
 */
async function changedPartsBuild(
  projectDir: string,
  { parts, names, rebuild, record }: ChangedParts,
  keptFiles: readonly BuiltFile[],
): Promise<SplitBuilt | undefined> {
  const result = await buildParts(
    projectDir,
    rebuild.map((index) => ({ index, files: parts[index] as string[] })),
  );
  const fresh = outputsByName(result.metafile);
  const rebuilt = rebuild.map((index) => names[index] as string);
  let merged: ReturnType<typeof mergeParts>;
  let main: BuiltFile | undefined;
  try {
    merged = mergeParts(record.metafile, fresh, names, rebuilt);
    main = merged === undefined ? undefined : mainOf(merged.metafile, names);
  } catch {
    return undefined; // a record that parses but does not hold what a build writes
  }
  if (merged === undefined || main === undefined) return undefined;
  const { metafile, keptOutputs } = merged;
  // A chunk both builds made (esbuild's helpers, the same code under the same name) is taken once.
  const kept = keptFiles.filter((f) => keptOutputs.has(f.name) && !(f.name in fresh.outputs));
  return {
    files: [main, ...kept, ...builtFiles(result, projectDir)],
    metafile,
    entryNames: names,
    parts: { lengths: record.lengths, metafile },
    rebuilt: { parts: rebuild.length, of: parts.length },
  };
}

/** The name of a split build's main module. */
const MAIN = 'main.mjs';

/** The main module of a split build (`metafile`'s outputs named by file name); undefined when it would change the order. */
function mainOf(metafile: Metafile, names: readonly string[]): BuiltFile | undefined {
  const externals = splitOrder(metafile, names);
  if (externals === undefined) return undefined;
  const outputOf = new Map(
    Object.entries(metafile.outputs).map(([name, output]) => [output.entryPoint, name]),
  );
  const partFiles = names.map((name) => outputOf.get(name));
  if (partFiles.some((f) => f === undefined)) throw new Error('esbuild produced no file for a part');
  return { name: MAIN, js: mainModule(externals, partFiles as string[]) };
}

/** Build the parts given (each its index among all the parts, and its construct files). */
async function buildParts(
  projectDir: string,
  parts: readonly { index: number; files: readonly string[] }[],
): Promise<BuildResult> {
  // Written by esbuild and read back, not handed over in its answer: esbuild reads its service's
  // answers into one buffer that grows to twice the largest (28 MB of parts and maps at 20,000
  // constructs) and stays for the rest of the run; and once buffers that large have been freed,
  // glibc keeps in the process the memory the run frees after. A deploy of 20,000 constructs from
  // a fresh checkout peaked at 515–552 MB that way on Node 20, against 410–432 MB now.
  const outdir = outputDirectory(cachePath(projectDir));
  try {
    return await run(projectDir, {
      ...buildOptions(projectDir),
      entryPoints: parts.map(({ index }) => ({ in: `${PART_NAMESPACE}:${index}`, out: 'part' })),
      outdir,
      write: true,
      outExtension: { '.js': '.mjs' },
      // Named by their content, as chunks are: a part an edit did not touch keeps its name (bundle-place.ts).
      entryNames: '[name]-[hash]',
      splitting: true,
      plugins: [
        partsPlugin(new Map(parts.map((p) => [p.index, p.files])), projectDir),
        externalsPlugin(projectDir),
      ],
    });
  } finally {
    try {
      rmSync(outdir, { recursive: true, force: true });
    } catch {
      // Pruned by a later run (bundle-place.ts); the build itself is read.
    }
  }
}

/** Each part's entry: the imports of its run of construct files. */
function partsPlugin(parts: ReadonlyMap<number, readonly string[]>, projectDir: string): Plugin {
  return {
    name: 'monitor-parts',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${PART_NAMESPACE}:`) }, (args) => ({
        path: args.path.slice(PART_NAMESPACE.length + 1),
        namespace: PART_NAMESPACE,
      }));
      b.onLoad({ filter: /.*/, namespace: PART_NAMESPACE }, (args) => ({
        contents: constructsEntry(parts.get(Number(args.path)) ?? []),
        resolveDir: projectDir,
        loader: 'js',
      }));
    },
  };
}

/**
 * Build `entry` with esbuild (in parts when the project is large); nothing is written yet but the
 * cache of `purpose`. Fails with a BundleError.
 */
async function build(
  entry: string,
  projectDir: string,
  purpose: BuildPurpose,
  started: number,
): Promise<Built> {
  const cache = cacheFile(cacheDirectory(projectDir), purpose);
  // A project whose parts would change the order builds whole; it is not tried again each time.
  const split =
    purpose === 'constructs' && !(await splitRefused(cache))
      ? await splitBuild(entry, projectDir)
      : undefined;
  if (split !== undefined && split !== 'refused') return keep(split, entry, projectDir, purpose, started);
  const result = await run(projectDir, {
    ...buildOptions(projectDir),
    stdin: { contents: entry, resolveDir: projectDir, sourcefile: ENTRY_NAME, loader: 'js' },
    outfile: join(cachePath(projectDir), 'bundle.mjs'),
    plugins: [externalsPlugin(projectDir)],
  });
  const files = builtFiles(result, projectDir);
  if (files.length !== 1 || files[0]?.map === undefined) throw new Error('esbuild produced no bundle');
  const made = {
    files,
    metafile: result.metafile,
    entryNames: [ENTRY_NAME],
    splitRefused: split === 'refused',
  };
  return keep(made, entry, projectDir, purpose, started);
}

/** `made`, kept in the cache of `purpose` when it can be (`storeBuild`). */
function keep(made: Made, entry: string, projectDir: string, purpose: BuildPurpose, started: number): Built {
  const { files, metafile, entryNames } = made;
  let digest: string | undefined;
  try {
    digest = storeBuild(
      cacheFile(cacheDirectory(projectDir), purpose),
      entry,
      projectDir,
      monitorFingerprint(),
      { files, ...(made.splitRefused === true ? { splitRefused: true } : {}), parts: made.parts },
      {
        entryNames,
        entryFiles: entryNames.flatMap((name) =>
          (metafile.inputs[name]?.imports ?? []).map((i) => i.original ?? i.path),
        ),
        metafile,
        started,
      },
    );
  } catch {
    // Only the next run's head start is lost.
  }
  return { projectDir, files, fromCache: false, rebuilt: made.rebuilt, digest };
}

const monitorFingerprint = () => fingerprint([import.meta.url]);

/**
 * The build of `entry`: the one kept in the project's cache when nothing it was made from has
 * changed since; after an edit of some construct files of a large project, the parts it touched
 * built again; else a new one (which is then kept).
 */
async function cachedOrBuild(entry: string, projectDir: string, purpose: BuildPurpose): Promise<Built> {
  // Before the kept build is checked: a file written after it may not be what was checked, and a
  // build is kept only when none of its files was written after `started` (`storeBuild`).
  const started = Date.now();
  const fromCache = await fromKeptBuild(entry, projectDir, purpose, started);
  return fromCache ?? build(entry, projectDir, purpose, started);
}

/**
 * The kept build when nothing changed, or its parts an edit touched built again; undefined when
 * neither can be (the kept build, tens of MB, is let go before a build of every part).
 */
async function fromKeptBuild(
  entry: string,
  projectDir: string,
  purpose: BuildPurpose,
  started: number,
): Promise<Built | undefined> {
  // Made first: making it while esbuild runs would change the project directory under the build.
  const file = cacheFile(cacheDirectory(projectDir), purpose);
  const lookup = await readKeptBuild(
    file,
    entry,
    projectDir,
    monitorFingerprint(),
    purpose === 'constructs'
      ? (changed, record) => planChangedParts(entry, projectDir, changed, record)
      : undefined,
  );
  if (lookup === undefined) return undefined;
  const { build: cached, plan } = lookup;
  if (plan === undefined) return { projectDir, files: cached.files, fromCache: true, digest: cached.digest };
  const split = await changedPartsBuild(projectDir, plan, cached.files);
  if (split === undefined) return undefined;
  return keep(split, entry, projectDir, purpose, started);
}

/**
 * Write a build into the project's cache directory, where its imports resolve as the project's
 * (`placeBundle`: a build the cache kept, at paths named by content, which Node ≥ 22's compile
 * cache recognises on the next run).
 */
async function written({ projectDir, files, fromCache, rebuilt, digest }: Built): Promise<Bundle> {
  const keep =
    digest === undefined
      ? undefined
      : { digest, scope: hash('sha256', `${monitorFingerprint()}\n${projectDir}`, 'base64url') };
  const place = await placeBundle(cacheDirectory(projectDir), files, keep);
  const maps = new Map<string, PositionMap>();
  files.forEach((f, i) => {
    if (f.map !== undefined)
      maps.set(
        place.paths[i] as string,
        positionMap(f.map, (source) => resolve(place.dir, source), f.index),
      );
  });
  // Nothing below keeps `files`: the modules' text is the runtime's to keep now (tens of MB).
  return {
    file: place.paths[0] as string,
    files: place.paths,
    fromCache,
    rebuilt,
    lookup: (file, line, column) => maps.get(file)?.lookup(line, column),
    dispose: place.remove,
  };
}

/** Bundle `entry` (JavaScript source importing the project's files) in one esbuild build, or take it from the cache. */
export async function bundle(entry: string, projectDir: string, purpose: BuildPurpose): Promise<Bundle> {
  return written(await cachedOrBuild(entry, projectDir, purpose));
}

/**
 * Every file a build of `entry` reads, absolute: the project's own and those of the libraries it
 * bundles from TypeScript sources (a workspace package), none of the packages left external. What
 * `--changed-since` holds a change against; nothing is written.
 */
export async function bundleInputs(entry: string, projectDir: string): Promise<string[]> {
  const result = await run(projectDir, {
    ...buildOptions(projectDir),
    sourcemap: false,
    stdin: { contents: entry, resolveDir: projectDir, sourcefile: ENTRY_NAME, loader: 'js' },
    outfile: join(cachePath(projectDir), 'inputs.mjs'),
    plugins: [externalsPlugin(projectDir)],
  });
  return Object.keys(result.metafile.inputs)
    .filter((name) => name !== ENTRY_NAME)
    .map((name) => resolve(projectDir, name));
}

/** The two builds of loading a project: its config alone, then its construct files. */
export type BuildPurpose = 'config' | 'constructs';

/** The entry that imports a config file alone (as a namespace: a missing default is our diagnostic). */
export function configEntry(configPath: string): string {
  return `import * as config from ${JSON.stringify(configPath)};\nexport { config };`;
}

/** The entry that imports every construct file, in order. */
export function constructsEntry(files: readonly string[]): string {
  return files.map((f) => `import ${JSON.stringify(f)};`).join('\n');
}

/**
 * Builds started before the command asked for them, one per purpose: `prefetchProject` starts
 * them while the CLI's modules load, and the first load of the run takes them. Only the first: it
 * follows at once, when no file of the project can have changed since; any later load (import
 * re-loads the project after writing files) checks the cache again or builds anew.
 */
export class EarlyBuilds {
  private readonly ahead = new Map<
    BuildPurpose,
    { entry: string; projectDir: string; built: Promise<Built> }
  >();
  private readonly taken = new Set<BuildPurpose>();

  /**
   * Start building `entry` now, for the first `bundle(purpose, ...)` to take. Resolves when that
   * build is done, failed or not (its failure is the taker's to see), or at once when none starts.
   */
  start(purpose: BuildPurpose, entry: string, projectDir: string): Promise<void> {
    if (this.taken.has(purpose) || this.ahead.has(purpose)) return Promise.resolve();
    const built = cachedOrBuild(entry, projectDir, purpose);
    this.ahead.set(purpose, { entry, projectDir, built });
    return built.then(
      () => undefined,
      () => undefined,
    );
  }

  /**
   * Bundle `entry` for `purpose`: the build started early when it was of this very entry (the
   * same files of the same project), else a new one.
   */
  async bundle(purpose: BuildPurpose, entry: string, projectDir: string): Promise<Bundle> {
    const early = this.ahead.get(purpose);
    this.ahead.delete(purpose);
    this.taken.add(purpose);
    const matches = early !== undefined && early.entry === entry && early.projectDir === projectDir;
    return written(await (matches ? early.built : cachedOrBuild(entry, projectDir, purpose)));
  }
}

/** The early builds of this run. */
export const earlyBuilds = new EarlyBuilds();
