import { dirname, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatIssuePath, kindSchemasReady } from '@monitor/api/definitions';
import {
  closeSession,
  createSession,
  type DesiredResource,
  type Diagnostic,
  type SourceLocation,
  type SynthOptions,
  synth,
} from '@monitor/constructs';
import {
  type Bundle,
  cachePath,
  configEntry,
  constructsEntry,
  earlyBuilds,
  LOADING_FILE,
} from '../build/bundle.js';
import { BundleError } from '../build/errors.js';
import { loadGuarded } from '../build/exit-guard.js';
import { ResponseCache, ValidationCache } from '../build/validation-cache.js';
import { ProjectLoadError } from '../errors.js';
import { inSourceOrder, runConstructPolicies } from '../policy/run.js';
import { atPropLocation } from '../positions/prop-location.js';
import { type SourceReader, sourceReader } from '../positions/source-reader.js';
import { mapStack } from '../positions/stack.js';
import { locatedTests } from '../routing-tests/located.js';
import { isPlainlyValid } from './config-check.js';
import { findConfig, type ResolvedConfig, resolveConfig } from './config-file.js';
import { EnvironmentError, PolicyConfigError } from './errors.js';
import { includedFiles, searchIncluded, searchKey, stillTrue } from './included-files.js';
import { lastIncluded, rememberIncluded } from './prefetch.js';

export interface LoadOptions {
  /** Path of the config file; by default the nearest `monitor.config.*` from `cwd` upwards. */
  config?: string;
  /** The environment to load for, one of the config's `environments` (required when it has any). */
  environment?: string | undefined;
  /** @default process.cwd() */
  cwd?: string;
  /**
   * Load a project whose include patterns match no file yet (`monitor import` is about to write
   * them) instead of refusing it. @default false
   */
  allowUnmatchedIncludes?: boolean;
  /**
   * Called once the config is read, before the construct files load: what needs only the config
   * (connecting to the account, reading it) can start while they bundle and run.
   */
  onConfig?: (project: ProjectConfig) => void;
}

export interface LoadedProject {
  configPath: string;
  projectDir: string;
  config: ResolvedConfig;
  /** The construct files included, absolute, sorted. */
  files: string[];
  resources: DesiredResource[];
  diagnostics: Diagnostic[];
  /** What the construct rules of the project's policies found (`monitor validate` shows them; a plan carries them). */
  findings: Diagnostic[];
  timings: { bundleMs: number; importMs: number; synthMs: number; policyMs: number };
}

/** Each problem at the line of its own prop (`atPropLocation`). */
function atProps(diagnostics: Diagnostic[], sourceOf: SourceReader = sourceReader()): Diagnostic[] {
  return diagnostics.map((d) => atPropLocation(d, sourceOf));
}

function locationMapper(b: Bundle): (l: SourceLocation) => SourceLocation {
  return (l) => {
    const original = b.lookup(l.file, l.line, l.column);
    return original === undefined
      ? l
      : { file: original.source, line: original.line, column: original.column };
  };
}

/**
 * Import a bundle so that loading always ends with an answer: an error names the file at fault
 * when the code throws, calls `process.exit` (`exited`, from `loadGuarded`), or waits on a
 * top-level await that can never settle (Node would exit with nothing left to run).
 */
async function importBundle(
  b: Bundle,
  projectDir: string,
  what: string,
  exited: Promise<never>,
): Promise<Record<string, unknown>> {
  const holder = globalThis as Record<symbol, unknown>;
  const fileAtFault = () => {
    const file = holder[LOADING_FILE];
    return typeof file === 'string' ? relative(projectDir, file) : what;
  };
  let onBeforeExit: (() => void) | undefined;
  const neverSettles = new Promise<never>((_, reject) => {
    onBeforeExit = () => {
      const file = fileAtFault();
      const message = `${file} never finished loading: a top-level await in it waits on something that can never happen`;
      reject(
        new ProjectLoadError(
          message,
          [
            {
              severity: 'error',
              path: '',
              message,
              location: { file: resolve(projectDir, file), line: 1, column: 1 },
            },
          ],
          'a construct file must finish loading by itself: await only what settles (a fetch, a file read), or move the work out of the top level',
        ),
      );
    };
    process.once('beforeExit', onBeforeExit);
  });
  try {
    return await Promise.race([
      import(pathToFileURL(b.file).href) as Promise<Record<string, unknown>>,
      neverSettles,
      exited,
    ]);
  } catch (e) {
    if (e instanceof ProjectLoadError) throw e;
    const error = e instanceof Error ? e : new Error(String(e));
    const { text, first } = mapStack(error.stack ?? String(error), b, projectDir);
    const missing = /Cannot find (?:package|module) '([^']+)'/.exec(error.message);
    const message = missing
      ? `Cannot find package "${missing[1]}" at run time (imported by ${what})`
      : `${fileAtFault()} threw while loading: ${error.name}: ${error.message}`;
    throw new ProjectLoadError(message, [
      { severity: 'error', path: '', message, location: first, detail: text },
    ]);
  } finally {
    if (onBeforeExit !== undefined) process.off('beforeExit', onBeforeExit);
    delete holder[LOADING_FILE];
    b.dispose();
  }
}

function configDiagnostic(configPath: string, message: string): Diagnostic {
  return { severity: 'error', path: '', message, location: { file: configPath, line: 1, column: 1 } };
}

/**
 * The exports of a config-like file (`monitor.config.ts`, `monitor.workspace.ts`): bundled alone (it
 * may import helpers) and imported as the project's construct files are, guarded the same way.
 */
export async function importConfigModule(
  path: string,
  dir: string,
  environment?: string,
): Promise<Record<string, unknown>> {
  return (await importConfig(path, dir, environment)).exports;
}

/** `importConfigModule`, with what maps a position in the bundle to the file's own source. */
async function importConfig(
  path: string,
  dir: string,
  environment?: string,
): Promise<{ exports: Record<string, unknown>; mapLocation: (l: SourceLocation) => SourceLocation }> {
  let b: Bundle;
  try {
    b = await earlyBuilds.bundle('config', configEntry(path), dir);
  } catch (e) {
    if (e instanceof BundleError) throw new ProjectLoadError(e.message, e.diagnostics);
    throw e;
  }
  createSession({ environment });
  try {
    const entry = await loadGuarded(b, dir, (exited) => importBundle(b, dir, relative(dir, path), exited));
    return { exports: entry.config as Record<string, unknown>, mapLocation: locationMapper(b) };
  } finally {
    closeSession();
  }
}

/** Read the config file: bundle it alone (it may import helpers) and validate its default export. */
async function readConfig(
  configPath: string,
  projectDir: string,
  environment?: string,
): Promise<ResolvedConfig> {
  const { exports: mod, mapLocation } = await importConfig(configPath, projectDir, environment);
  const name = relative(projectDir, configPath);
  const hint = "export default defineConfig({ projectName: 'my-project' }) from monitor.config.ts";
  if (mod.default === undefined || mod.default === null) {
    throw new ProjectLoadError(
      `${name} exports nothing: it needs a default export`,
      [configDiagnostic(configPath, `${name} has no default export`)],
      hint,
    );
  }
  const parsed = isPlainlyValid(mod.default)
    ? ({ success: true, data: mod.default } as const)
    : (await import('./config-schema.js')).configSchema.safeParse(mod.default);
  if (!parsed.success) {
    const diagnostics = parsed.error.issues.map((issue) =>
      configDiagnostic(configPath, `config ${formatIssuePath(issue.path) || '(root)'}: ${issue.message}`),
    );
    throw new ProjectLoadError(`${name} is not a valid config`, diagnostics, hint);
  }
  try {
    const config = resolveConfig(parsed.data, projectDir, environment);
    // Read while the config's source map is at hand: a failing test points at its own line.
    return { ...config, routingTests: locatedTests(config.routingTests, mapLocation) };
  } catch (e) {
    if (e instanceof EnvironmentError) {
      throw new ProjectLoadError(e.message, [configDiagnostic(configPath, e.message)], e.hint);
    }
    if (e instanceof PolicyConfigError) {
      throw new ProjectLoadError(
        `${name} has invalid policies`,
        e.problems.map((p) => configDiagnostic(configPath, `config ${p.path}: ${p.message}`)),
      );
    }
    throw e;
  }
}

/** A project's config alone, without its constructs: what state commands need. */
export interface ProjectConfig {
  configPath: string;
  projectDir: string;
  config: ResolvedConfig;
}

/** Find and read the config only (no construct file is loaded). */
export async function loadConfig(options: LoadOptions = {}): Promise<ProjectConfig> {
  const configPath = findConfig(options.cwd ?? process.cwd(), options.config);
  const projectDir = dirname(configPath);
  return namingConfig(configPath, async () => ({
    configPath,
    projectDir,
    config: await readConfig(configPath, projectDir, options.environment),
  }));
}

/**
 * Load a project: find and read its config, bundle every included construct file in one esbuild
 * build, run it in a fresh session, and synthesize the desired resources with all diagnostics.
 */
export async function load(options: LoadOptions = {}): Promise<LoadedProject> {
  const project = await loadConfig(options);
  options.onConfig?.(project);
  return namingConfig(project.configPath, () => loadFrom(project, options.allowUnmatchedIncludes === true));
}

/** Run `body`; a project load error it throws learns which config file it is about. */
async function namingConfig<T>(configPath: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof ProjectLoadError) e.configPath = configPath;
    throw e;
  }
}

/**
 * The response bodies this project's reads of the account found valid, for the client's
 * `knownResponses`; undefined when there can be no cache. Saved by the caller once it is done.
 */
export function projectResponses(projectDir: string): ResponseCache | undefined {
  return ResponseCache.open(cachePath(projectDir));
}

async function loadFrom(
  { configPath, projectDir, config }: ProjectConfig,
  allowUnmatchedIncludes: boolean,
): Promise<LoadedProject> {
  // Each pattern on its own: one that matches nothing is almost always a typo, and a project that
  // silently loads fewer files plans to delete what the missing ones declared.
  const ignore = [...config.exclude, '**/node_modules/**', '**/.monitor/**'];
  const kept = lastIncluded(projectDir, configPath);
  const searched = stillTrue(kept, searchKey(projectDir, config.include, ignore))
    ? kept
    : await searchIncluded(projectDir, config.include, ignore);
  const { matches } = searched;
  const empty = config.include.filter((_, i) => (matches[i] ?? []).every((f) => f === configPath));
  if (empty.length > 0 && !allowUnmatchedIncludes) {
    const name = relative(projectDir, configPath);
    const message = `include ${empty.length === 1 ? 'pattern' : 'patterns'} ${empty.map((p) => JSON.stringify(p)).join(', ')} in ${name} ${empty.length === 1 ? 'matches' : 'match'} no file`;
    throw new ProjectLoadError(
      message,
      [configDiagnostic(configPath, message)],
      `patterns are relative to ${projectDir}; fix the pattern or remove it (a project that loads fewer files would plan to delete what they declare)`,
    );
  }
  const files = includedFiles(searched, configPath);
  rememberIncluded(projectDir, configPath, searched);

  const started = performance.now();
  let b: Bundle;
  try {
    b = await earlyBuilds.bundle('constructs', constructsEntry(files), projectDir);
  } catch (e) {
    if (e instanceof BundleError) throw new ProjectLoadError(e.message, e.diagnostics);
    throw e;
  }
  const bundled = performance.now();
  const mapLocation = locationMapper(b);
  let imported = 0;
  // Synthesis runs construct code too (a library's own synthesize): an exit there fails the load.
  const { resources, diagnostics } = await loadGuarded(b, projectDir, async (exited) => {
    // A local of this arrow, not of `loadFrom`: constructs are made while this arrow awaits the
    // import, so each one's captured stack holds it, and through it the variables `loadFrom`'s
    // closures share. With the session among them, one resource whose location is never read
    // kept every construct and its props alive for the rest of the run. Keep nothing large there.
    const session = createSession({ environment: config.environment });
    try {
      await importBundle(b, projectDir, 'a construct file', exited);
    } finally {
      closeSession();
    }
    imported = performance.now();
    // Synthesis reads the schemas synchronously, for a payload not checked before.
    await kindSchemasReady();
    const validated = ValidationCache.open(cachePath(projectDir));
    const result = synth(
      {
        project: config.projectName,
        defaults: config.defaults as SynthOptions['defaults'],
        mapLocation,
        validated,
      },
      session,
    );
    validated?.save();
    return result;
  });
  const synthesized = performance.now();
  const sourceOf = sourceReader();
  // Policies judge constructs that synthesized cleanly (by logical id: a diagnostic names the class, not
  // the kind): an invalid payload is reported once, by synthesis.
  const invalid = new Set(
    diagnostics.filter((d) => d.severity === 'error' && d.construct !== undefined).map((d) => d.logicalId),
  );
  const valid = invalid.size === 0 ? resources : resources.filter((r) => !invalid.has(r.logicalId));
  const findings = runConstructPolicies(valid, config.policies, {
    environment: config.environment,
    sourceOf,
  });
  const done = performance.now();
  return {
    configPath,
    projectDir,
    config,
    files,
    resources,
    diagnostics: diagnostics.length === 0 ? diagnostics : atProps(diagnostics, sourceOf),
    findings: findings.length === 0 ? findings : inSourceOrder(findings),
    timings: {
      bundleMs: bundled - started,
      importMs: imported - bundled,
      synthMs: synthesized - imported,
      policyMs: done - synthesized,
    },
  };
}
