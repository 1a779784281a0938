#!/usr/bin/env node
// `npm run pack`: one tarball per published package in dist/packages/, installable into any
// project without a registry for them (docs/install.md). Run after `npm run build`. The packing is
// @monitor/cli's packCheckout, which `monitor init` also runs to vendor the packages into a project.
import { existsSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist', 'packages');
const cli = join(root, 'packages', 'cli', 'dist', 'index.js');

if (!existsSync(cli)) {
  console.error('packages/cli is not built: run npm run build first');
  process.exit(1);
}
const { packCheckout } = await import(cli);
rmSync(out, { recursive: true, force: true });
let tarballs;
try {
  tarballs = Object.values(packCheckout(root, out)).sort();
} catch (e) {
  console.error(`${e.message}${e.hint ? `\nhint: ${e.hint}` : ''}`);
  process.exit(1);
}
console.log(`${tarballs.length} packages in ${relative(process.cwd(), out) || '.'}:`);
for (const t of tarballs) console.log(`  ${basename(t)}`);
console.log(`\nIn your project:\n  npm install ${tarballs.join(' ')}`);
