import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommandError } from './account.js';

/** monitor's packages, in dependency order: what each needs is listed before it. */
export const MONITOR_PACKAGES = ['api', 'constructs', 'engine', 'emulator', 'cli'] as const;

/** A tarball of each package, by its name (`@monitor/cli`): a path, or a file name in a folder. */
export type Tarballs = Record<string, string>;

/** The file `npm pack` names the tarball of `packages/<dir>` in a checkout: `monitor-cli-0.1.0.tgz`. */
export function tarballName(checkout: string, dir: string): { name: string; file: string } {
  const { name, version } = JSON.parse(
    readFileSync(join(checkout, 'packages', dir, 'package.json'), 'utf8'),
  ) as {
    name: string;
    version: string;
  };
  return { name, file: `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz` };
}

/**
 * `npm pack` of every package of the checkout at `checkout` into `outDir`: one tarball each,
 * installable into any project without a registry for them (all five at once, so that npm finds
 * the packages they need from each other among them). What `npm run pack` (scripts/pack.mjs)
 * writes to dist/packages/ and `monitor init` vendors into a project. The packages must be built.
 */
export function packCheckout(checkout: string, outDir: string): Tarballs {
  const unbuilt = MONITOR_PACKAGES.filter(
    (p) => !existsSync(join(checkout, 'packages', p, 'dist', 'index.js')),
  );
  if (unbuilt.length > 0) {
    throw new CommandError(
      'not_built',
      `${unbuilt.map((p) => `packages/${p}`).join(', ')} of the monitor checkout at ${checkout} ${unbuilt.length === 1 ? 'is' : 'are'} not built`,
      `run npm run build in ${checkout} first`,
    );
  }
  mkdirSync(outDir, { recursive: true });
  const packed = spawnSync(
    'npm',
    [
      'pack',
      '--silent',
      '--pack-destination',
      outDir,
      ...MONITOR_PACKAGES.flatMap((p) => ['--workspace', `packages/${p}`]),
    ],
    { cwd: checkout, encoding: 'utf8', shell: process.platform === 'win32' },
  );
  const tarballs: Tarballs = {};
  for (const p of MONITOR_PACKAGES) {
    const { name, file } = tarballName(checkout, p);
    tarballs[name] = join(outDir, file);
  }
  const missing = Object.values(tarballs).filter((t) => !existsSync(t));
  if (packed.status !== 0 || missing.length > 0) {
    const why = packed.error?.message ?? (packed.stderr.trim() || `no ${missing.join(', ')}`);
    throw new CommandError(
      'pack_failed',
      `npm pack of monitor's packages in ${checkout} failed: ${why}`,
      `run npm run pack in ${checkout} to see why`,
    );
  }
  return tarballs;
}
