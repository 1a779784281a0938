#!/usr/bin/env node
// Usage: node ../../scripts/vendor.mjs dist/zod.js   (from a package directory, after tsc)
//
// Rewrites a compiled re-export module (`export * from 'zod';`) into one file holding the package
// and everything it imports. Node pays per module it loads (resolve, read, compile, link): zod is
// 95 modules (64 of them locales) and loads in ~65 ms; as one file it loads in ~39 ms. yargs with
// its helpers: ~85 ms as 20-odd modules, ~52 ms as one. Our own packages are bundled by
// scripts/bundle-package.mjs, before this runs.
//
// Two things a module does when it loads are put off until they are used: string-width, under
// yargs, does both for text it measures only to print help, and they cost ~30 ms of every command.
// - `Intl.Segmenter` is made on first use (vendor-shims/lazy-segmenter.mjs, injected);
// - a top-level regular expression with Unicode property escapes (`/^\p{RGI_Emoji}$/v`) is
//   made on first use (vendor-shims/lazy-regexp.mjs): V8 builds its character sets when the
//   expression is made, or, for a literal, when the module is compiled.
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const shim = (name) => fileURLToPath(new URL(`./vendor-shims/${name}`, import.meta.url));
const LAZY_SEGMENTER = shim('lazy-segmenter.mjs');
const LAZY_REGEXP = shim('lazy-regexp.mjs');

// `const name = /pattern/flags;` on a line of its own, the pattern with a Unicode property escape.
const PROPERTY_REGEXP = /^const (\w+) = \/((?:[^/\\\n]|\\.)*\\p\{(?:[^/\\\n]|\\.)*)\/([a-z]*);$/gm;

const lazyRegExps = {
  name: 'lazy-regexps',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8');
      const contents = source.replace(
        PROPERTY_REGEXP,
        (_, name, pattern, flags) => `const ${name} = lazyRegExp(${JSON.stringify(pattern)}, '${flags}');`,
      );
      if (contents === source) return undefined;
      return {
        contents: `import { lazyRegExp } from ${JSON.stringify(LAZY_REGEXP)};\n${contents}`,
        loader: 'js',
      };
    });
  },
};

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
    inject: [LAZY_SEGMENTER],
    plugins: [lazyRegExps],
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
