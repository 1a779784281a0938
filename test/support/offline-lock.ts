import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  bin?: Record<string, string> | string;
  [field: string]: unknown;
}

interface Lock {
  packages: Record<string, LockEntry>;
}

export interface OfflineLockOptions {
  /** The project's folder of tarballs, as package.json names them (`file:<dir>/…`). @default 'tarballs' */
  dir?: string;
  /** Dev dependencies from a registry (name → range), pinned as the repository's lock pins them. */
  devDependencies?: Record<string, string>;
}

/**
 * A package-lock.json for a project that depends on the packed tarballs (and registry dev
 * dependencies such as TypeScript), with every other package pinned as the repository's own lock
 * pins it: `npm ci --offline` then installs from the npm cache that `npm ci` filled, asking no
 * registry for anything. It is how the install tests cut the network; users with a registry run
 * `npm install` (docs/install.md).
 */
export function offlineLock(
  repoRoot: string,
  tarballs: Record<string, string>,
  name: string,
  { dir = 'tarballs', devDependencies = {} }: OfflineLockOptions = {},
): object {
  const repo = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as Lock;
  const out: Record<string, LockEntry> = {};
  /** The entry node's resolution finds for `dep` required from `from` (a lock path). */
  const resolve = (from: string, dep: string): string | undefined => {
    let at = from;
    for (;;) {
      const candidate = at === '' ? `node_modules/${dep}` : `${at}/node_modules/${dep}`;
      if (repo.packages[candidate] !== undefined) return candidate;
      if (at === '') return undefined;
      const cut = at.lastIndexOf('/node_modules/');
      at = cut === -1 ? '' : at.slice(0, cut);
    }
  };
  const visit = (repoPath: string, consumerPath: string, entry: LockEntry) => {
    if (out[consumerPath] !== undefined) return;
    out[consumerPath] = entry;
    const deps = { ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies };
    for (const dep of Object.keys(deps)) {
      if (dep.startsWith('@monitor/')) continue;
      const found = resolve(repoPath, dep);
      if (found === undefined) continue; // an optional or peer dependency nothing installed
      const target = repo.packages[found] as LockEntry;
      // A workspace package's own nested copies go under the package in the project.
      const consumerFound = found.startsWith(`${repoPath}/`)
        ? `${consumerPath}${found.slice(repoPath.length)}`
        : found;
      visit(found, consumerFound, target);
    }
  };
  for (const [pkg, tarball] of Object.entries(tarballs)) {
    const workspace = `packages/${pkg.replace('@monitor/', '')}`;
    const manifest = repo.packages[workspace] as LockEntry;
    const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
    const {
      name: _,
      license: __,
      devDependencies: ___,
      ...fields
    } = manifest as LockEntry & {
      name?: string;
      license?: string;
      devDependencies?: unknown;
    };
    visit(workspace, `node_modules/${pkg}`, {
      ...fields,
      version: manifest.version,
      resolved: `file:${dir}/${basename(tarball)}`,
      integrity,
    });
  }
  for (const dep of Object.keys(devDependencies)) {
    const found = `node_modules/${dep}`;
    const entry = repo.packages[found];
    if (entry === undefined) throw new Error(`the repository's lock has no ${dep} to pin`);
    visit(found, found, { ...entry });
  }
  // Drop dev markers: the repository's dev tools never get here, and what is here is the project's.
  for (const entry of Object.values(out)) {
    delete entry.dev;
    delete entry.devOptional;
  }
  return {
    name,
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': {
        name,
        dependencies: Object.fromEntries(
          Object.entries(tarballs).map(([pkg, tarball]) => [pkg, `file:${dir}/${basename(tarball)}`]),
        ),
        ...(Object.keys(devDependencies).length > 0 ? { devDependencies } : {}),
      },
      ...out,
    },
  };
}
