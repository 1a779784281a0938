#!/usr/bin/env node
// Usage: node ../../scripts/vendor.mjs dist/zod.js   (from a package directory, after tsc)
//
// Rewrites a compiled re-export module (`export * from 'zod';`) into one file holding the package
// and everything it imports. Node pays per module it loads (resolve, read, compile, link): zod is
// 95 modules (64 of them locales) and loads in ~65 ms; as one file it loads in ~39 ms. yargs with
// its helpers: ~85 ms as 20-odd modules, ~52 ms as one. Only third-party packages are vendored this
// way; our own code stays one file per module, so stack traces point at our sources.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: vendor.mjs <compiled re-export module>...');
  process.exit(2);
}
for (const file of files) {
  await build({
    entryPoints: [file],
    outfile: file,
    allowOverwrite: true,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    legalComments: 'eof',
    banner: {
      js: [
        '// Bundled by scripts/vendor.mjs at build time: see its header. Do not edit.',
        // CommonJS packages require Node builtins; an ES module has no `require` of its own.
        "import { createRequire as __vendorCreateRequire } from 'node:module';",
        'const require = __vendorCreateRequire(import.meta.url);',
      ].join('\n'),
    },
    logLevel: 'warning',
  });
  // tsc's map described the one-line re-export, not this file.
  rmSync(`${file}.map`, { force: true });
}
