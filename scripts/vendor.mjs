#!/usr/bin/env node
// Usage: node ../../scripts/vendor.mjs dist/zod.js   (from a package directory, after tsc)
//
// Rewrites a compiled re-export module (`export * from 'zod';`) into one file holding the package
// and everything it imports. Node pays per module it loads (resolve, read, compile, link): zod is
// 95 modules (64 of them locales) and loads in ~65 ms; as one file it loads in ~39 ms. With English
// as its only locale (the others were half its code) it loads in 21 ms where the whole file took
// 29 ms, measured side by side. yargs with its helpers: ~85 ms as 20-odd modules, ~52 ms as one.
// Our own packages are bundled by scripts/bundle-package.mjs, before this runs.
//
// string-width, under yargs, measures the text of help for its layout, and is patched here:
// - what it makes when it loads is made on first use (~30 ms of every command otherwise):
//   `Intl.Segmenter` (vendor-shims/lazy-segmenter.mjs, injected), and its top-level regular
//   expressions with Unicode property escapes (`/^\p{RGI_Emoji}$/v`: V8 builds their character
//   sets when the expression is made, or, for a literal, when the module is compiled;
//   vendor-shims/lazy-regexp.mjs);
// - the older copies (under cliui and wrap-ansi) get the newest one's fast path: printable ASCII
//   is as wide as it is long, with no segmenting (half the time of `monitor --help`).
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const shim = (name) => fileURLToPath(new URL(`./vendor-shims/${name}`, import.meta.url));
const LAZY_SEGMENTER = shim('lazy-segmenter.mjs');
const LAZY_REGEXP = shim('lazy-regexp.mjs');

// `const name = /pattern/flags;` on a line of its own, the pattern with a Unicode property escape.
const PROPERTY_REGEXP = /^const (\w+) = \/((?:[^/\\\n]|\\.)*\\p\{(?:[^/\\\n]|\\.)*)\/([a-z]*);$/gm;

// The end of the checks before measuring, in the copies without the fast path (after `stripAnsi`).
const BEFORE_MEASURING = /(\n\tif \(string\.length === 0\) \{\n\t\treturn 0;\n\t\}\n)/;
const ASCII_FAST_PATH =
  '\n\t// Fast path (added by scripts/vendor.mjs): printable ASCII is as wide as it is long.\n\tif (/^[\\u0020-\\u007E]*$/.test(string)) {\n\t\treturn string.length;\n\t}\n';

const stringWidthPatches = {
  name: 'string-width',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8');
      let contents = source.replace(
        PROPERTY_REGEXP,
        (_, name, pattern, flags) => `const ${name} = lazyRegExp(${JSON.stringify(pattern)}, '${flags}');`,
      );
      if (!source.includes('Fast path'))
        contents = contents.replace(BEFORE_MEASURING, `$1${ASCII_FAST_PATH}`);
      if (contents === source) return undefined;
      return {
        contents: `import { lazyRegExp } from ${JSON.stringify(LAZY_REGEXP)};\n${contents}`,
        loader: 'js',
      };
    });
  },
};

// zod re-exports its 60-odd locales (`z.locales`, `z.core.locales`): half of its code, which every
// command would read and compile. monitor's messages are English, the default zod registers itself.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer, resolveDir }) => {
      if (!/[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(importer)) return undefined;
      return { path: join(resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-english-only' };
    });
    b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, ({ path }) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(path), 'en.js'))};\n`,
      loader: 'js',
      resolveDir: dirname(path),
    }));
  },
};

// fdir (under tinyglobby) loads picomatch with `require` when it is installed, for a glob API of
// its own that tinyglobby never calls (it brings picomatch bundled, and passes fdir its filters):
// a second copy, through the CommonJS loader, ~4 ms of every project load.
const FDIR_OPTIONAL_PICOMATCH =
  /\ntry \{\n\t__require\.resolve\("picomatch"\);\n\tpm = __require\("picomatch"\);\n\} catch \{\}\n/;
const fdirWithoutPicomatch = {
  name: 'fdir-without-picomatch',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]fdir[\\/]dist[\\/]index\.mjs$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8');
      // A newer fdir that loads it otherwise must be looked at again, not bundled as it is.
      if (!FDIR_OPTIONAL_PICOMATCH.test(source))
        throw new Error(`${path}: fdir no longer loads picomatch as vendor.mjs expects`);
      return { contents: source.replace(FDIR_OPTIONAL_PICOMATCH, '\n'), loader: 'js' };
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
    plugins: [stringWidthPatches, zodEnglishOnly, fdirWithoutPicomatch],
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
