import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { mappingsIndex } from '../positions/position-map.js';
import { type Bundle, bundle, cacheDirectory, configEntry, constructsEntry } from './bundle.js';
import { cacheFile, readCachedBuild, storeBuild, withoutComments } from './bundle-cache.js';

/** A project directory with `files` (path → text), removed when the test finishes. */
function project(files: Record<string, string>): { dir: string; path: (p: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'monitor-bundle-cache-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  for (const [path, text] of Object.entries(files)) write(join(dir, path), text);
  cacheDirectory(dir);
  age(dir);
  return { dir, path: (p) => join(dir, p) };
}

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

/**
 * Date a tree back a minute: a build keeps only what was last written before it started (a file
 * written just now may be changing under it), and the files of a test were.
 */
function age(dir: string): void {
  const past = new Date(Date.now() - 60_000);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    utimesSync(join(entry.parentPath, entry.name), past, past);
  }
  utimesSync(dir, past, past);
}

const MAIN = 'main.monitor.ts';

/** A kept build's module or map as text (the cache hands out their bytes). */
const textOf = (data: string | Uint8Array | undefined) =>
  data === undefined ? undefined : Buffer.from(data).toString('utf8');

/** Bundle the project's construct files (`MAIN` unless named); the bundle is disposed at the end of the test. */
async function build(dir: string, files = [join(dir, MAIN)]): Promise<Bundle & { text: string }> {
  const b = await bundle(constructsEntry(files), dir, 'constructs');
  onTestFinished(() => b.dispose());
  return { ...b, text: readFileSync(b.file, 'utf8') };
}

describe('the build cache', () => {
  it('hands a load the kept build while nothing changed, and builds anew after an edit', async () => {
    const { dir, path } = project({
      [MAIN]: "import { value } from './helper';\nconsole.log(value);\n",
      'helper.ts': "export const value: string = 'first';\n",
    });
    const first = await build(dir);
    expect(first.fromCache).toBe(false);
    expect(first.text).toContain("'first'".replace(/'/g, '"'));

    const again = await build(dir);
    expect(again.fromCache).toBe(true);
    expect(again.text).toBe(first.text);
    expect(again.file).not.toBe(first.file);

    // Same size, and the modification time put back: the content still decides.
    const before = statSync(path('helper.ts'));
    writeFileSync(path('helper.ts'), "export const value: string = 'other';\n");
    utimesSync(path('helper.ts'), before.atime, before.mtime);
    const edited = await build(dir);
    expect(edited.fromCache).toBe(false);
    expect(edited.text).toContain('"other"');
  });

  it('takes a build whose files were only touched, not changed', async () => {
    const { dir, path } = project({ [MAIN]: 'console.log(1);\n' });
    await build(dir);
    writeFileSync(path(MAIN), 'console.log(1);\n');
    age(dir);
    expect((await build(dir)).fromCache).toBe(true);
  });

  it('builds anew when another file would now be what an import resolves to', async () => {
    const { dir, path } = project({
      [MAIN]: "import { value } from './helper';\nconsole.log(value);\n",
      'helper.ts': "export const value = 'from ts';\n",
    });
    await build(dir);
    // esbuild tries .tsx before .ts.
    write(path('helper.tsx'), "export const value = 'from tsx';\n");
    age(dir);
    const b = await build(dir);
    expect(b.fromCache).toBe(false);
    expect(b.text).toContain('"from tsx"');
  });

  it('builds anew when a tsconfig.json appears or one it extends changes', async () => {
    const { dir, path } = project({
      [MAIN]: "import { value } from '@lib/value';\nconsole.log(value);\n",
      'lib/value.ts': "export const value = 'lib';\n",
      'other/value.ts': "export const value = 'other';\n",
      'base.json': '{ "compilerOptions": { "paths": { "@lib/*": ["./lib/*"] } } }\n',
    });
    // Without a tsconfig the alias does not resolve.
    await expect(build(dir)).rejects.toThrow();
    write(path('tsconfig.json'), '{\n  // the shared settings\n  "extends": "./base.json",\n}\n');
    age(dir);
    expect((await build(dir)).text).toContain('"lib"');
    expect((await build(dir)).fromCache).toBe(true);

    write(path('base.json'), '{ "compilerOptions": { "paths": { "@lib/*": ["./other/*"] } } }\n');
    age(dir);
    const b = await build(dir);
    expect(b.fromCache).toBe(false);
    expect(b.text).toContain('"other"');
  });

  it('builds anew when a package an import names changes', async () => {
    const { dir, path } = project({
      [MAIN]: "import { value } from 'acme-lib';\nconsole.log(value);\n",
      'node_modules/acme-lib/package.json': '{ "name": "acme-lib", "main": "a.ts" }\n',
      'node_modules/acme-lib/a.ts': "export const value = 'a';\n",
      'node_modules/acme-lib/b.ts': "export const value = 'b';\n",
    });
    expect((await build(dir)).text).toContain('"a"');
    write(path('node_modules/acme-lib/package.json'), '{ "name": "acme-lib", "main": "b.ts" }\n');
    age(dir);
    const b = await build(dir);
    expect(b.fromCache).toBe(false);
    expect(b.text).toContain('"b"');
  });

  it('builds anew when a package it left external now resolves to TypeScript', async () => {
    const { dir, path } = project({
      [MAIN]: "import { value } from 'acme-ext';\nconsole.log(value);\n",
      'node_modules/acme-ext/package.json': '{ "name": "acme-ext", "main": "index.js" }\n',
      'node_modules/acme-ext/index.js': "export const value = 'js';\n",
      'node_modules/acme-ext/index.ts': "export const value: string = 'ts';\n",
    });
    expect((await build(dir)).text).toContain('from "acme-ext"');
    write(path('node_modules/acme-ext/package.json'), '{ "name": "acme-ext", "main": "index.ts" }\n');
    age(dir);
    const b = await build(dir);
    expect(b.fromCache).toBe(false);
    expect(b.text).toContain('"ts"');
  });

  it("builds anew when the project's package.json changes what a file means", async () => {
    const { dir, path } = project({
      [MAIN]: "import './effect';\n",
      'effect.ts': "console.log('side effect');\n",
      'package.json': '{ "name": "p" }\n',
    });
    expect((await build(dir)).text).toContain('side effect');
    // Modules of a package without side effects are left out when nothing of them is used.
    write(path('package.json'), '{ "name": "p", "sideEffects": false }\n');
    age(dir);
    const b = await build(dir);
    expect(b.fromCache).toBe(false);
    expect(b.text).not.toContain('side effect');
  });

  it('follows a construct file that is a link to where it points now', async () => {
    const { dir, path } = project({
      'one.ts': "console.log('one');\n",
      'two.ts': "console.log('two');\n",
    });
    symlinkSync(path('one.ts'), path('linked.monitor.ts'));
    age(dir);
    expect((await build(dir, [path('linked.monitor.ts')])).text).toContain('"one"');
    rmSync(path('linked.monitor.ts'));
    symlinkSync(path('two.ts'), path('linked.monitor.ts'));
    age(dir);
    const b = await build(dir, [path('linked.monitor.ts')]);
    expect(b.fromCache).toBe(false);
    expect(b.text).toContain('"two"');
  });

  it('keeps one build per purpose and entry', async () => {
    const { dir, path } = project({
      [MAIN]: "console.log('main');\n",
      'other.monitor.ts': "console.log('other');\n",
      'monitor.config.ts': 'export default { projectName: "p" };\n',
    });
    await build(dir);
    expect((await build(dir, [path(MAIN), path('other.monitor.ts')])).fromCache).toBe(false);
    const config = await bundle(configEntry(path('monitor.config.ts')), dir, 'config');
    config.dispose();
    expect(config.fromCache).toBe(false);
    expect((await bundle(configEntry(path('monitor.config.ts')), dir, 'config')).fromCache).toBe(true);
  });

  it('ignores a cache file that is damaged, truncated or not one', async () => {
    const { dir } = project({ [MAIN]: "console.log('whole');\n" });
    const first = await build(dir);
    const file = cacheFile(join(dir, '.monitor', 'cache'), 'constructs');
    const good = readFileSync(file);
    const inMap = good.indexOf('"mappings"');
    expect(inMap).toBeGreaterThan(good.indexOf('whole'));
    const flipped = (at: number) => {
      const copy = Buffer.from(good);
      copy[at] = (copy[at] ?? 0) ^ 1;
      return copy;
    };
    const damaged = [
      // In the module, in its source map, and in the map's index (the last section).
      Buffer.from(good.toString('latin1').replace('whole', 'w0ole'), 'latin1'),
      flipped(inMap + 14),
      flipped(good.length - 1),
      good.subarray(0, good.length - 10),
      Buffer.concat([good, Buffer.from('x')]),
      Buffer.from('not a cache file'),
      Buffer.from('{"format":1}\n'),
      Buffer.alloc(0),
    ];
    for (const bytes of damaged) {
      writeFileSync(file, bytes);
      const b = await build(dir);
      expect(b.fromCache).toBe(false);
      expect(b.text).toBe(first.text);
    }
  });

  it('is not taken by another build of monitor, nor for another project directory', async () => {
    const { dir } = project({ [MAIN]: 'console.log(1);\n' });
    const entry = constructsEntry([join(dir, MAIN)]);
    const b = await build(dir);
    const file = cacheFile(join(dir, '.monitor', 'cache'), 'constructs');
    const header = JSON.parse(readFileSync(file, 'utf8').split('\n')[0] ?? '') as { monitor: string };
    expect(textOf((await readCachedBuild(file, entry, dir, header.monitor))?.files[0]?.js)).toBe(b.text);
    expect(await readCachedBuild(file, entry, dir, 'another monitor')).toBeUndefined();
    expect(await readCachedBuild(file, entry, `${dir}-moved`, header.monitor)).toBeUndefined();
    expect(await readCachedBuild(file, `${entry}\n`, dir, header.monitor)).toBeUndefined();
  });

  it("keeps each map's index with the build: the kept build looks positions up as the new one did", async () => {
    const { dir } = project({
      [MAIN]: "import { twice } from './helper';\n\nconsole.log(twice(2));\nconsole.log('end');\n",
      'helper.ts': '// a helper\nexport function twice(n: number): number {\n  return n * 2;\n}\n',
    });
    const positions = (b: Bundle & { text: string }) =>
      b.text.split('\n').map((line, i) => b.lookup(b.file, i + 1, line.length > 2 ? 3 : 1));
    const first = await build(dir);
    const again = await build(dir);
    expect(again.fromCache).toBe(true);
    expect(positions(first).filter((p) => p !== undefined).length).toBeGreaterThan(3);
    expect(positions(again)).toEqual(positions(first));
    const file = cacheFile(join(dir, '.monitor', 'cache'), 'constructs');
    const header = JSON.parse(readFileSync(file, 'utf8').split('\n')[0] ?? '') as { monitor: string };
    const kept = (await readCachedBuild(file, constructsEntry([join(dir, MAIN)]), dir, header.monitor))
      ?.files[0];
    expect(kept?.index).toEqual(mappingsIndex(kept?.map ?? ''));
  });

  it('keeps no build of files that may have changed while it ran', async () => {
    const { dir, path } = project({ [MAIN]: 'console.log(1);\n' });
    const file = join(dir, '.monitor', 'cache', 'kept.bundle');
    const record = (started: number) => ({
      entryNames: ['monitor-entry.mjs'],
      entryFiles: [path(MAIN)],
      metafile: { inputs: { [MAIN]: { bytes: 16, imports: [] } }, outputs: {} },
      started,
    });
    const built = {
      files: [
        { name: 'bundle.mjs', js: 'console.log(1);\n', map: '{}', index: new Int32Array([1, 0, 0, 0, 0]) },
      ],
    };
    // Written a minute before: kept.
    storeBuild(file, 'entry', dir, 'm', built, record(Date.now()));
    const kept = await readCachedBuild(file, 'entry', dir, 'm');
    expect(kept?.files.map((f) => ({ ...f, js: textOf(f.js), map: textOf(f.map) }))).toEqual(built.files);
    rmSync(file);
    // Written after the build started: esbuild may have read the content before.
    storeBuild(file, 'entry', dir, 'm', built, record(Date.now() - 120_000));
    expect(await readCachedBuild(file, 'entry', dir, 'm')).toBeUndefined();
  });
});

describe('withoutComments', () => {
  it('reads tsconfig files as TypeScript writes them', () => {
    const text = `{
  // a comment
  "extends": "./base.json", /* another, with "quotes" */
  "compilerOptions": { "paths": { "@x/*": ["./src/*"], }, },
  "url": "http://example.com/a//b",
}`;
    expect(JSON.parse(withoutComments(text))).toEqual({
      extends: './base.json',
      compilerOptions: { paths: { '@x/*': ['./src/*'] } },
      url: 'http://example.com/a//b',
    });
  });
});
