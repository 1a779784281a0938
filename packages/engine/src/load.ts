import { dirname, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatIssuePath } from '@monitor/api';
import {
  closeSession,
  createSession,
  type DesiredResource,
  type Diagnostic,
  type SourceLocation,
  type SynthOptions,
  synth,
} from '@monitor/constructs';
import { glob } from 'tinyglobby';
import { type Bundle, BundleError, bundle } from './bundle.js';
import { configSchema, findConfig, type ResolvedConfig, resolveConfig } from './config-file.js';
import { ProjectLoadError } from './errors.js';

export interface LoadOptions {
  /** Path of the config file; by default the nearest `monitor.config.*` from `cwd` upwards. */
  config?: string;
  /** @default process.cwd() */
  cwd?: string;
}

export interface LoadedProject {
  configPath: string;
  projectDir: string;
  config: ResolvedConfig;
  /** The construct files included, absolute, sorted. */
  files: string[];
  resources: DesiredResource[];
  diagnostics: Diagnostic[];
  timings: { bundleMs: number; importMs: number; synthMs: number };
}

/** Map positions in the bundle to the TypeScript sources. */
function locationMapper(b: Bundle): (l: SourceLocation) => SourceLocation {
  return (l) => {
    if (l.file !== b.file) return l;
    const original = b.map.lookup(l.line, l.column);
    return original === undefined
      ? l
      : { file: original.source, line: original.line, column: original.column };
  };
}

/** Rewrite bundle positions in a stack trace to source positions; return the first user frame. */
export function mapStack(
  stack: string,
  b: Bundle,
  projectDir: string,
): { text: string; first: SourceLocation | undefined } {
  const url = pathToFileURL(b.file).href;
  let first: SourceLocation | undefined;
  const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(?:${escaped(url)}|${escaped(b.file)}):(\\d+):(\\d+)`, 'g');
  const text = stack.replace(pattern, (whole, line: string, column: string) => {
    const original = b.map.lookup(Number(line), Number(column));
    if (original === undefined) return whole;
    if (first === undefined && !original.source.includes('/node_modules/'))
      first = { file: original.source, line: original.line, column: original.column };
    return `${relative(projectDir, original.source)}:${original.line}:${original.column}`;
  });
  return { text, first };
}

async function importBundle(b: Bundle, projectDir: string, what: string): Promise<Record<string, unknown>> {
  try {
    return (await import(pathToFileURL(b.file).href)) as Record<string, unknown>;
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e));
    const { text, first } = mapStack(error.stack ?? String(error), b, projectDir);
    const missing = /Cannot find (?:package|module) '([^']+)'/.exec(error.message);
    const message = missing
      ? `Cannot find package "${missing[1]}" at run time (imported by ${what})`
      : `${what} threw while loading: ${error.name}: ${error.message}`;
    throw new ProjectLoadError(message, [
      { severity: 'error', path: '', message, location: first, detail: text },
    ]);
  } finally {
    b.dispose();
  }
}

function configDiagnostic(configPath: string, message: string): Diagnostic {
  return { severity: 'error', path: '', message, location: { file: configPath, line: 1, column: 1 } };
}

/** Read the config file: bundle it alone (it may import helpers) and validate its default export. */
async function readConfig(configPath: string, projectDir: string): Promise<ResolvedConfig> {
  let b: Bundle;
  try {
    // A namespace import, so that a config without a default export is our diagnostic, not a bundling error.
    b = await bundle(
      `import * as config from ${JSON.stringify(configPath)};\nexport { config };`,
      projectDir,
    );
  } catch (e) {
    if (e instanceof BundleError) throw new ProjectLoadError(e.message, e.diagnostics);
    throw e;
  }
  createSession();
  let mod: Record<string, unknown>;
  try {
    const entry = await importBundle(b, projectDir, relative(projectDir, configPath));
    mod = entry.config as Record<string, unknown>;
  } finally {
    closeSession();
  }
  const name = relative(projectDir, configPath);
  const hint = "export default defineConfig({ projectName: 'my-project' }) from monitor.config.ts";
  if (mod.default === undefined || mod.default === null) {
    throw new ProjectLoadError(
      `${name} exports nothing: it needs a default export`,
      [configDiagnostic(configPath, `${name} has no default export`)],
      hint,
    );
  }
  const parsed = configSchema.safeParse(mod.default);
  if (!parsed.success) {
    const diagnostics = parsed.error.issues.map((issue) =>
      configDiagnostic(configPath, `config ${formatIssuePath(issue.path) || '(root)'}: ${issue.message}`),
    );
    throw new ProjectLoadError(`${name} is not a valid config`, diagnostics, hint);
  }
  return resolveConfig(parsed.data, projectDir);
}

/**
 * Load a project: find and read its config, bundle every included construct file in one esbuild
 * build, run it in a fresh session, and synthesize the desired resources with all diagnostics.
 */
export async function load(options: LoadOptions = {}): Promise<LoadedProject> {
  const cwd = options.cwd ?? process.cwd();
  const configPath = findConfig(cwd, options.config);
  const projectDir = dirname(configPath);
  try {
    return await loadFrom(configPath, projectDir);
  } catch (e) {
    if (e instanceof ProjectLoadError) e.configPath = configPath;
    throw e;
  }
}

async function loadFrom(configPath: string, projectDir: string): Promise<LoadedProject> {
  const config = await readConfig(configPath, projectDir);

  const files = (
    await glob(config.include, {
      cwd: projectDir,
      ignore: [...config.exclude, '**/node_modules/**', '**/.monitor/**'],
      absolute: true,
      dot: false,
    })
  )
    .filter((f) => f !== configPath)
    .sort();

  const started = performance.now();
  let b: Bundle;
  try {
    b = await bundle(files.map((f) => `import ${JSON.stringify(f)};`).join('\n'), projectDir);
  } catch (e) {
    if (e instanceof BundleError) throw new ProjectLoadError(e.message, e.diagnostics);
    throw e;
  }
  const bundled = performance.now();
  const session = createSession();
  const mapLocation = locationMapper(b);
  try {
    await importBundle(b, projectDir, 'a construct file');
  } finally {
    closeSession();
  }
  const imported = performance.now();
  const { resources, diagnostics } = synth(
    { defaults: config.defaults as SynthOptions['defaults'], mapLocation },
    session,
  );
  const done = performance.now();
  return {
    configPath,
    projectDir,
    config,
    files,
    resources,
    diagnostics,
    timings: { bundleMs: bundled - started, importMs: imported - bundled, synthMs: done - imported },
  };
}
