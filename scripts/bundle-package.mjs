// Bundle a package's compiled modules into its entry points, in place, at build time:
//
//   node ../../scripts/bundle-package.mjs dist/index.js dist/other-entry.js [--own dist/zod.js ...]
//
// Run in the package's directory after tsc. Each entry point (what package.json exports, a bin, a
// worker's file) becomes one module, and code that several entries or lazy `import()`s share
// becomes a chunk beside them (`dist/chunk-*.js`), so every module is still loaded once and lazy
// imports stay lazy. Node resolves, reads and links each module of a program one by one (~1 ms a
// module here): `monitor validate` loads 20 of monitor's modules, `diff --local` 35 in its two
// threads (162 before).
//
// Other packages (bare imports) stay imports. `--own` files stay files of their own: the ones
// scripts/vendor.mjs bundles afterwards. tsc's declarations (.d.ts) are left as they are: the
// types still describe the modules as written. Stack traces name the bundled files and the
// functions as written (nothing is minified); the source maps lead back to the TypeScript.
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';

const args = process.argv.slice(2);
const own = new Set();
const entries = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--own') own.add(resolve(args[++i]));
  else entries.push(resolve(args[i]));
}
const dist = resolve('dist');
for (const entry of [...entries, ...own]) {
  if (relative(dist, entry).includes('/') || !entry.endsWith('.js')) {
    throw new Error(`${relative('.', entry)}: entries and --own files must be .js files directly in dist/`);
  }
}

/** Every compiled module of dist/ (not the declarations). */
function modules(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return modules(path);
    return name.endsWith('.js') || name.endsWith('.js.map') ? [path] : [];
  });
}

// A relative import of an --own file stays an import, of the file beside the bundled outputs.
const ownFiles = {
  name: 'own-files',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const path = resolve(args.resolveDir, args.path);
      return own.has(path) ? { path: `./${relative(dist, path)}`, external: true } : undefined;
    });
  },
};

const { outputFiles } = await build({
  entryPoints: entries,
  outdir: dist,
  write: false,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  chunkNames: 'chunk-[hash]',
  plugins: [ownFiles],
  logLevel: 'warning',
});

// tsc's modules go (they are all in the bundles now); the --own files and the declarations stay.
const keep = new Set([...own, ...[...own].map((f) => `${f}.map`)]);
for (const file of modules(dist)) if (!keep.has(file)) rmSync(file);
for (const { path, contents } of outputFiles) writeFileSync(path, contents);
