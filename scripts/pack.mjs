#!/usr/bin/env node
// `npm run pack`: one tarball per published package in dist/packages/, installable into any
// project without a registry for them (docs/install.md). Run after `npm run build`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist', 'packages');
// In dependency order: what each needs is listed before it.
const packages = ['api', 'constructs', 'engine', 'emulator', 'cli'];

for (const name of packages) {
  if (!existsSync(join(root, 'packages', name, 'dist', 'index.js'))) {
    console.error(`packages/${name} is not built: run npm run build first`);
    process.exit(1);
  }
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
execFileSync(
  npm,
  [
    'pack',
    '--silent',
    '--pack-destination',
    out,
    ...packages.flatMap((name) => ['--workspace', `packages/${name}`]),
  ],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
);
const tarballs = readdirSync(out)
  .filter((f) => f.endsWith('.tgz'))
  .sort();
console.log(`${tarballs.length} packages in ${relative(process.cwd(), out) || '.'}:`);
for (const t of tarballs) console.log(`  ${t}`);
console.log(`\nIn your project:\n  npm install ${tarballs.map((t) => join(out, t)).join(' ')}`);
