import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { MONITOR_PACKAGES, packCheckout, type Tarballs, tarballName } from './pack.js';
import { CLI_VERSION } from './version.js';

/** Where the running monitor was installed from. */
export type InstallSource =
  | { kind: 'checkout'; describe: string; checkout: string }
  | { kind: 'tarballs'; describe: string; tarballs: Tarballs }
  | { kind: 'registry'; describe: string };

/** The packages a project of its own depends on: what `monitor init` writes into package.json. */
export interface ProjectDependencies {
  /** Where the @monitor packages come from. */
  source: InstallSource['kind'];
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  /** The tarballs the project carries, by their path in it (`vendor/monitor-cli-0.1.0.tgz`) → package. */
  vendored: Record<string, string>;
}

/** Where a project keeps the tarballs of monitor's packages (`init --vendor`). */
export const VENDOR_DIR = 'vendor';
/** The TypeScript the packages are built and tested with (design.md). */
const TYPESCRIPT_RANGE = '~5.9.3';

/** `file:` and a path from `projectDir`, with forward slashes, as npm writes it. */
function fileSpec(projectDir: string, target: string): string {
  const path = relative(projectDir, target).split(sep).join('/');
  return `file:${path.startsWith('.') ? path : `./${path}`}`;
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * Where this monitor runs from: a checkout of the repository (its packages linked into its own
 * node_modules), the tarballs of `npm run pack` installed into a project, or a registry.
 */
export function installSource(): InstallSource {
  const cliRoot = realpathSync(dirname(createRequire(import.meta.url).resolve('@monitor/cli/package.json')));
  const checkout = dirname(dirname(cliRoot));
  const inNodeModules = cliRoot.split(sep).includes('node_modules');
  if (
    !inNodeModules &&
    readJson(join(checkout, 'packages', 'constructs', 'package.json'))?.name === '@monitor/constructs'
  ) {
    return { kind: 'checkout', describe: `the monitor checkout at ${checkout}`, checkout };
  }
  const tarballs = inNodeModules ? installedTarballs(cliRoot) : undefined;
  if (tarballs !== undefined) {
    const where = dirname(Object.values(tarballs)[0] as string);
    return { kind: 'tarballs', describe: `the tarballs monitor was installed from, in ${where}`, tarballs };
  }
  return { kind: 'registry', describe: `the registry, version ${CLI_VERSION}` };
}

/**
 * The dependencies of a project in `projectDir` on the monitor that runs:
 * - from a registry: that version;
 * - `vendor`, off a registry: `file:vendor/…` paths to a tarball of each package, all five (so
 *   that npm finds the packages they need from each other among them), which the project carries,
 *   and TypeScript from the registry: it installs wherever it is copied, a CI runner included;
 * - otherwise, run from a checkout: `file:` links to its packages, and its TypeScript, so that
 *   `npm install` needs no registry at all, on this machine only;
 * - otherwise, installed from the tarballs of `npm run pack`: `file:` paths to those tarballs.
 */
export function projectDependencies(
  projectDir: string,
  source: InstallSource,
  vendor: boolean,
): ProjectDependencies {
  const typescript = { typescript: TYPESCRIPT_RANGE };
  if (source.kind === 'registry') {
    const range = `^${CLI_VERSION}`;
    return {
      source: source.kind,
      dependencies: { '@monitor/cli': range, '@monitor/constructs': range },
      devDependencies: typescript,
      vendored: {},
    };
  }
  if (vendor) {
    const files =
      source.kind === 'checkout'
        ? MONITOR_PACKAGES.map((p) => tarballName(source.checkout, p))
        : Object.entries(source.tarballs).map(([name, path]) => ({ name, file: basename(path) }));
    const vendored = Object.fromEntries(files.map(({ name, file }) => [`${VENDOR_DIR}/${file}`, name]));
    const dependencies = Object.fromEntries(
      Object.entries(vendored).map(([path, name]) => [name, `file:${path}`]),
    );
    return { source: source.kind, dependencies, devDependencies: typescript, vendored };
  }
  return { source: source.kind, ...linkedDependencies(projectDir, source), vendored: {} };
}

/**
 * The dependencies (name → spec, as package.json has them) whose `file:` path leaves the project
 * in `projectDir`: a copy of the project elsewhere, a CI checkout say, cannot install them.
 */
export function outsideDependencies(projectDir: string, dependencies: Record<string, string>): string[] {
  return Object.entries(dependencies)
    .filter(([, spec]) => {
      if (!spec.startsWith('file:')) return false;
      const from = relative(projectDir, resolve(projectDir, spec.slice('file:'.length)));
      return from === '..' || from.startsWith(`..${sep}`) || isAbsolute(from);
    })
    .map(([name]) => name)
    .sort();
}

/** The checkout's packages or the installed tarballs, where they are. */
function linkedDependencies(
  projectDir: string,
  source: Exclude<InstallSource, { kind: 'registry' }>,
): Pick<ProjectDependencies, 'dependencies' | 'devDependencies'> {
  if (source.kind === 'tarballs') {
    return {
      dependencies: Object.fromEntries(
        Object.entries(source.tarballs).map(([name, tarball]) => [name, fileSpec(projectDir, tarball)]),
      ),
      devDependencies: { typescript: TYPESCRIPT_RANGE },
    };
  }
  const { checkout } = source;
  const typescript = typescriptNear(checkout);
  return {
    dependencies: {
      '@monitor/cli': fileSpec(projectDir, join(checkout, 'packages', 'cli')),
      '@monitor/constructs': fileSpec(projectDir, join(checkout, 'packages', 'constructs')),
    },
    devDependencies: {
      typescript: typescript === undefined ? TYPESCRIPT_RANGE : fileSpec(projectDir, typescript),
    },
  };
}

/** The directory of the TypeScript package the checkout's own build uses, if it has one. */
function typescriptNear(checkout: string): string | undefined {
  try {
    return dirname(createRequire(join(checkout, 'package.json')).resolve('typescript/package.json'));
  } catch {
    return undefined;
  }
}

/**
 * The tarball of each @monitor package, when the project that installed this monitor got them
 * from `file:` tarballs: read from that project's lockfile (else its package.json), whose paths
 * are relative to it. Undefined when any package came from elsewhere.
 */
function installedTarballs(cliRoot: string): Tarballs | undefined {
  const parts = cliRoot.split(sep);
  const root = parts.slice(0, parts.lastIndexOf('node_modules')).join(sep) || sep;
  const lock = readJson(join(root, 'package-lock.json'))?.packages as
    | Record<string, { resolved?: string }>
    | undefined;
  const manifest = readJson(join(root, 'package.json'));
  const declared = {
    ...(manifest?.dependencies as Record<string, string> | undefined),
    ...(manifest?.devDependencies as Record<string, string> | undefined),
  };
  const out: Record<string, string> = {};
  for (const name of MONITOR_PACKAGES.map((p) => `@monitor/${p}`)) {
    const spec = lock?.[`node_modules/${name}`]?.resolved ?? declared[name];
    if (spec === undefined || !spec.startsWith('file:') || !spec.endsWith('.tgz')) return undefined;
    const path = spec.slice('file:'.length);
    const tarball = isAbsolute(path) ? path : resolve(root, path);
    if (!existsSync(tarball)) return undefined;
    out[name] = tarball;
  }
  return out;
}

/**
 * The tarball of each package for a project to carry: packed from the checkout into `scratch`, or
 * the ones this monitor was installed from.
 */
export function tarballsToVendor(
  source: Exclude<InstallSource, { kind: 'registry' }>,
  scratch: string,
): Tarballs {
  return source.kind === 'checkout' ? packCheckout(source.checkout, scratch) : source.tarballs;
}
