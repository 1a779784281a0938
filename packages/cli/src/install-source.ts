import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CLI_VERSION } from './version.js';

/** The packages a project of its own depends on: what `monitor init` writes into package.json. */
export interface ProjectDependencies {
  /** Where the @monitor packages come from. */
  source: 'checkout' | 'tarballs' | 'registry';
  /** A line for people: where that is. */
  describe: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

const PACKAGES = ['api', 'constructs', 'engine', 'emulator', 'cli'] as const;
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
 * The dependencies that install where this monitor runs, for a project in `projectDir`:
 * - run from a checkout of the repository: `file:` links to its packages, and its TypeScript, so
 *   that `npm install` needs no registry at all;
 * - installed from the tarballs of `npm run pack`: `file:` paths to those tarballs, all five, so
 *   that npm finds the packages they need from each other among them (docs/install.md);
 * - installed from a registry: that version.
 */
export function projectDependencies(projectDir: string): ProjectDependencies {
  const cliRoot = realpathSync(dirname(createRequire(import.meta.url).resolve('@monitor/cli/package.json')));
  const checkout = dirname(dirname(cliRoot));
  const inNodeModules = cliRoot.split(sep).includes('node_modules');
  if (
    !inNodeModules &&
    readJson(join(checkout, 'packages', 'constructs', 'package.json'))?.name === '@monitor/constructs'
  ) {
    const typescript = typescriptNear(checkout);
    return {
      source: 'checkout',
      describe: `the monitor checkout at ${checkout}`,
      dependencies: {
        '@monitor/cli': fileSpec(projectDir, join(checkout, 'packages', 'cli')),
        '@monitor/constructs': fileSpec(projectDir, join(checkout, 'packages', 'constructs')),
      },
      devDependencies: {
        typescript: typescript === undefined ? TYPESCRIPT_RANGE : fileSpec(projectDir, typescript),
      },
    };
  }
  const tarballs = inNodeModules ? installedTarballs(cliRoot) : undefined;
  if (tarballs !== undefined) {
    return {
      source: 'tarballs',
      describe: `the tarballs monitor was installed from, in ${dirname(Object.values(tarballs)[0] as string)}`,
      dependencies: Object.fromEntries(
        Object.entries(tarballs).map(([name, tarball]) => [name, fileSpec(projectDir, tarball)]),
      ),
      devDependencies: { typescript: TYPESCRIPT_RANGE },
    };
  }
  return {
    source: 'registry',
    describe: `the registry, version ${CLI_VERSION}`,
    dependencies: { '@monitor/cli': `^${CLI_VERSION}`, '@monitor/constructs': `^${CLI_VERSION}` },
    devDependencies: { typescript: TYPESCRIPT_RANGE },
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
function installedTarballs(cliRoot: string): Record<string, string> | undefined {
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
  for (const name of PACKAGES.map((p) => `@monitor/${p}`)) {
    const spec = lock?.[`node_modules/${name}`]?.resolved ?? declared[name];
    if (spec === undefined || !spec.startsWith('file:') || !spec.endsWith('.tgz')) return undefined;
    const path = spec.slice('file:'.length);
    const tarball = isAbsolute(path) ? path : resolve(root, path);
    if (!existsSync(tarball)) return undefined;
    out[name] = tarball;
  }
  return out;
}
