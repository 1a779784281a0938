import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Metafile } from 'esbuild';
import { describe, expect, it, onTestFinished } from 'vitest';
import { mapStack } from '../positions/stack.js';
import { metafile } from '../test-support/metafile.js';
import { type Bundle, bundle, cacheDirectory, constructsEntry } from './bundle.js';
import { cacheFile, splitRefused } from './bundle-cache.js';
import { BundleError } from './errors.js';
import { mainModule, PART_BYTES, SPLIT_FROM_BYTES, splitOrder, splitParts } from './split.js';

describe('splitParts', () => {
  it('leaves a project of less than SPLIT_FROM_BYTES whole', () => {
    const files = ['a', 'b', 'c'];
    expect(splitParts(files, () => SPLIT_FROM_BYTES / 4)).toBeUndefined();
  });

  it('cuts the files, in order, into runs of about PART_BYTES', () => {
    // Four files to a part, and enough of them to be split.
    const count = 4 * Math.ceil(SPLIT_FROM_BYTES / PART_BYTES) + 4;
    const files = Array.from({ length: count }, (_, i) => `f${i}`);
    const parts = splitParts(files, () => PART_BYTES / 4) as string[][];
    expect(parts.flat()).toEqual(files);
    expect(parts.map((p) => p.length)).toEqual(Array(count / 4).fill(4));
  });

  it('starts the next part after a file that fills one by itself', () => {
    const files = ['small', 'large', 'next', 'last'];
    const sizes: Record<string, number> = { small: 1, large: SPLIT_FROM_BYTES, next: 1, last: 1 };
    expect(splitParts(files, (f) => sizes[f] ?? 0)).toEqual([
      ['small', 'large'],
      ['next', 'last'],
    ]);
  });
});

const PARTS = ['monitor-part:0', 'monitor-part:1'];

describe('splitOrder', () => {
  it('gives the externals in the order one bundle runs them when the parts keep the order', () => {
    const meta = metafile(
      {
        'monitor-part:0': ['a.ts', 'b.ts'],
        'monitor-part:1': ['c.ts'],
        'shared.ts': ['!ext-shared'],
        'a.ts': ['shared.ts', '!ext-a'],
        'b.ts': [],
        'c.ts': ['!ext-c', 'shared.ts', '!ext-a'],
      },
      {
        'p0.mjs': { entry: 'monitor-part:0', imports: ['chunk.mjs', '!ext-a'], inputs: ['a.ts', 'b.ts'] },
        'p1.mjs': { entry: 'monitor-part:1', imports: ['chunk.mjs', '!ext-c', '!ext-a'], inputs: ['c.ts'] },
        'chunk.mjs': { imports: ['!ext-shared'], inputs: ['shared.ts'] },
      },
    );
    expect(splitOrder(meta, PARTS)).toEqual(['ext-shared', 'ext-a', 'ext-c']);
  });

  it('refuses a split that would run a shared module before code that ran before it', () => {
    const meta = metafile(
      {
        'monitor-part:0': ['a.ts', 'b.ts'],
        'monitor-part:1': ['c.ts'],
        'shared.ts': [],
        'a.ts': [],
        'b.ts': ['shared.ts'],
        'c.ts': ['shared.ts'],
      },
      {
        'p0.mjs': { entry: 'monitor-part:0', imports: ['chunk.mjs'], inputs: ['a.ts', 'b.ts'] },
        'p1.mjs': { entry: 'monitor-part:1', imports: ['chunk.mjs'], inputs: ['c.ts'] },
        'chunk.mjs': { inputs: ['shared.ts'] },
      },
    );
    expect(splitOrder(meta, PARTS)).toBeUndefined();
  });

  it('refuses modules that import each other, and imports other than static ones', () => {
    const outputs = {
      'p0.mjs': { entry: 'monitor-part:0', inputs: ['b.ts', 'a.ts'] },
      'p1.mjs': { entry: 'monitor-part:1', inputs: ['c.ts'] },
    };
    const graph = { 'monitor-part:0': ['a.ts'], 'monitor-part:1': ['c.ts'], 'a.ts': ['b.ts'] };
    expect(splitOrder(metafile({ ...graph, 'b.ts': [], 'c.ts': [] }, outputs), PARTS)).toEqual([]);
    expect(splitOrder(metafile({ ...graph, 'b.ts': ['a.ts'], 'c.ts': [] }, outputs), PARTS)).toBeUndefined();
    const dynamic = metafile({ ...graph, 'b.ts': [], 'c.ts': [] }, outputs);
    (dynamic.inputs['c.ts'] as Metafile['inputs'][string]).imports.push({
      path: 'b.ts',
      kind: 'dynamic-import',
    });
    expect(splitOrder(dynamic, PARTS)).toBeUndefined();
  });
});

describe('mainModule', () => {
  it('imports the externals, then each part after the one before has finished', () => {
    expect(mainModule(['zod', 'node:fs'], ['part-0.mjs', 'part-1.mjs'])).toBe(
      'import "zod";\nimport "node:fs";\nawait import("./part-0.mjs");\nawait import("./part-1.mjs");\n',
    );
  });
});

describe('a large project bundled in parts', () => {
  /** A project whose construct files each hold `pad` bytes of comment; every module logs as it runs. */
  function project(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'monitor-split-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    // Written a minute ago, so that the build is kept in the cache (see bundle-cache.test.ts).
    cacheDirectory(dir);
    const past = new Date(Date.now() - 60_000);
    for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
      utimesSync(join(entry.parentPath, entry.name), past, past);
    utimesSync(dir, past, past);
    return dir;
  }
  const log = (name: string) => `(globalThis.splitLog ??= []).push(${JSON.stringify(name)});\n`;
  const pad = `// ${'x'.repeat(Math.ceil(SPLIT_FROM_BYTES / 3))}\n`;

  /** Bundle and run the construct files; the order the modules ran in, and the bundle. */
  async function runBundle(dir: string, files: string[]) {
    const b = await bundle(constructsEntry(files.map((f) => join(dir, f))), dir, 'constructs');
    onTestFinished(() => b.dispose());
    const holder = globalThis as { splitLog?: string[] };
    holder.splitLog = [];
    await import(pathToFileURL(b.file).href);
    return { order: holder.splitLog, b };
  }

  const files = ['a.monitor.ts', 'b.monitor.ts', 'c.monitor.ts', 'd.monitor.ts'];
  const outputDirectories = (dir: string) =>
    readdirSync(join(dir, '.monitor', 'cache')).filter((entry) => entry.startsWith('output-'));

  it('runs every module once, in the order one bundle would, externals first', async () => {
    const dir = project({
      'node_modules/ext-x/package.json': '{ "name": "ext-x", "type": "module", "main": "index.js" }\n',
      'node_modules/ext-x/index.js': log('ext-x'),
      'shared.ts': `${log('shared')}export const shared = 1;\n`,
      'a.monitor.ts': `import { shared } from './shared';\n${log(`a`)}export const a = shared;\n${pad}`,
      'b.monitor.ts': `import type { Unused } from 'ext-types-only';\n${log('b')}${pad}`,
      'c.monitor.ts': `import 'ext-x';\nimport { shared } from './shared';\n${log('c')}export const c = shared;\n${pad}`,
      'd.monitor.ts': `${log('d')}await Promise.resolve();\n${log('d after await')}`,
    });
    const { order, b } = await runBundle(dir, files);
    expect(b.files.length).toBeGreaterThan(2);
    expect(order).toEqual(['ext-x', 'shared', 'a', 'b', 'c', 'd', 'd after await']);
    expect(await splitRefused(cacheFile(join(dir, '.monitor', 'cache'), 'constructs'))).toBe(false);
    // esbuild wrote the parts into a directory of the build's own, which is gone once they are read.
    expect(outputDirectories(dir)).toEqual([]);
  });

  it('leaves no output behind when a part fails to build', async () => {
    const dir = project({
      'a.monitor.ts': log('a') + pad,
      'b.monitor.ts': log('b') + pad,
      'c.monitor.ts': `${pad}\nconst broken = ;\n`,
      'd.monitor.ts': log('d'),
    });
    const failure = await bundle(constructsEntry(files.map((f) => join(dir, f))), dir, 'constructs').catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(BundleError);
    expect((failure as BundleError).diagnostics[0]?.location?.file).toBe(join(dir, 'c.monitor.ts'));
    expect(outputDirectories(dir)).toEqual([]);
  });

  it('is bundled whole when a shared module would run earlier in parts than it does in one bundle', async () => {
    const dir = project({
      'shared.ts': `${log('shared')}export const shared = 1;\n`,
      // a and b in one part (a is small), c and d in parts of their own.
      'a.monitor.ts': log('a'),
      'b.monitor.ts': `import './shared';\n${log('b')}${pad}`,
      'c.monitor.ts': `import './shared';\n${log('c')}${pad}`,
      'd.monitor.ts': log('d') + pad,
    });
    const { order, b } = await runBundle(dir, files);
    expect(b.files).toHaveLength(1);
    expect(order).toEqual(['a', 'shared', 'b', 'c', 'd']);
    // Remembered for the next build of the project, which goes straight to one bundle.
    expect(await splitRefused(cacheFile(join(dir, '.monitor', 'cache'), 'constructs'))).toBe(true);
  });

  describe('after an edit', () => {
    const sixFiles = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `${n}.monitor.ts`);
    /** Six construct files, a part each; a and c share a module, and d imports an external. */
    const sources = (): Record<string, string> => ({
      'package.json': '{ "type": "module" }\n',
      'node_modules/ext-x/package.json': '{ "name": "ext-x", "type": "module", "main": "index.js" }\n',
      // No log: a module runs once per process, and a test loads the same project more than once.
      'node_modules/ext-x/index.js': 'export {};\n',
      'shared.ts': `${log('shared')}export const shared = 1;\n`,
      'a.monitor.ts': `import { shared } from './shared';\n${log('a')}export const a = shared;\n${pad}`,
      'b.monitor.ts': log('b') + pad,
      'c.monitor.ts': `import { shared } from './shared';\n${log('c')}export const c = shared;\n${pad}`,
      'd.monitor.ts': `import 'ext-x';\n${log('d')}${pad}`,
      'e.monitor.ts': log('e') + pad,
      'f.monitor.ts': log('f'),
    });
    /**
     * The bundle's files by name (the main module's named by its build), the project's directory
     * (which each file's loading marker names) left out: what a load imports.
     */
    const contents = (b: Bundle, dir: string) =>
      Object.fromEntries(
        b.files.map((f) => [
          basename(f).replace(/^main(-.*)?\.mjs$/, 'main'),
          readFileSync(f, 'utf8').replaceAll(dir, '<project>'),
        ]),
      );
    /** Date the project's files back, as `project` does: a build is kept only when its files were written before it. */
    const dateBack = (dir: string, files: string[]) => {
      const past = new Date(Date.now() - 30_000);
      for (const file of files) utimesSync(join(dir, file), past, past);
    };
    /**
     * Edit the files (path → new text from old) and build the project; also the same files built
     * with no cache, in a project of their own.
     */
    async function editAndBuild(
      dir: string,
      edits: Record<string, (text: string) => string>,
      base: Record<string, string> = sources(),
    ) {
      for (const [file, edit] of Object.entries(edits))
        writeFileSync(join(dir, file), edit(readFileSync(join(dir, file), 'utf8')));
      dateBack(dir, Object.keys(base));
      const edited = await runBundle(dir, sixFiles);
      const whole = project({
        ...base,
        ...Object.fromEntries(Object.keys(edits).map((f) => [f, readFileSync(join(dir, f), 'utf8')])),
      });
      const reference = { ...(await runBundle(whole, sixFiles)), dir: whole };
      expect(reference.b.rebuilt).toBeUndefined();
      return { edited, reference };
    }

    it('builds again only the parts that reach an edited file, into what one build of every part makes', async () => {
      const dir = project(sources());
      const first = await runBundle(dir, sixFiles);
      expect(first.b.files).toHaveLength(8); // the main module, six parts, the chunk of shared.ts
      expect(first.b.rebuilt).toBeUndefined();

      const { edited, reference } = await editAndBuild(dir, { 'e.monitor.ts': (t) => t + log('e again') });
      expect(edited.b.rebuilt).toEqual({ parts: 1, of: 6 });
      expect(edited.order).toEqual(['shared', 'a', 'b', 'c', 'd', 'e', 'e again', 'f']);
      expect(edited.order).toEqual(reference.order);
      expect(contents(edited.b, dir)).toEqual(contents(reference.b, reference.dir));
      // And what it kept is taken as it is by the next run.
      expect((await runBundle(dir, sixFiles)).b.fromCache).toBe(true);
    });

    it('builds again every part that reaches an edited module they share, and its chunk', async () => {
      const dir = project(sources());
      await runBundle(dir, sixFiles);
      const { edited, reference } = await editAndBuild(dir, { 'shared.ts': (t) => t + log('shared again') });
      expect(edited.b.rebuilt).toEqual({ parts: 2, of: 6 });
      expect(edited.order).toEqual(['shared', 'shared again', 'a', 'b', 'c', 'd', 'e', 'f']);
      expect(contents(edited.b, dir)).toEqual(contents(reference.b, reference.dir));
      const next = await runBundle(dir, sixFiles);
      expect(next.b.fromCache).toBe(true);
      expect(contents(next.b, dir)).toEqual(contents(reference.b, reference.dir));
    });

    it('builds again two parts that share a module, and their chunk as one build makes it', async () => {
      const dir = project(sources());
      await runBundle(dir, sixFiles);
      const { edited, reference } = await editAndBuild(dir, {
        'a.monitor.ts': (t) => t + log('a again'),
        'c.monitor.ts': (t) => t + log('c again'),
      });
      expect(edited.b.rebuilt).toEqual({ parts: 2, of: 6 });
      expect(contents(edited.b, dir)).toEqual(contents(reference.b, reference.dir));
    });

    it('runs what one build runs when esbuild shares its helpers between parts, and maps positions in every part', async () => {
      // Functions and classes: `keepNames` names them with a helper that a build of every part
      // puts in a chunk of its own, and a build of some parts into those parts.
      const named = (n: string) =>
        `export function fn_${n}() { return 1; }\nexport class C_${n} {}\n` +
        `(globalThis.splitNames ??= []).push(fn_${n}.name, C_${n}.name);\n` +
        // By the file's path (its loading marker): the build of the same files with no cache runs too.
        "(globalThis.splitStacks ??= {})[globalThis[Symbol.for('monitor.loadingFile')]] = new Error('here').stack;\n";
      const base = Object.fromEntries(
        Object.entries(sources()).map(([f, t]) => [
          f,
          f.endsWith('.monitor.ts') ? named(f[0] as string) + t : t,
        ]),
      );
      const dir = project(base);
      const first = await runBundle(dir, sixFiles);
      const holder = globalThis as { splitNames?: string[]; splitStacks?: Record<string, string> };
      holder.splitNames = [];
      holder.splitStacks = {};
      // b and e built again, a, c, d and f kept; every part uses the helper, and the build of b and
      // e makes its chunk again as it was: one file, under one name.
      const { edited, reference } = await editAndBuild(
        dir,
        { 'b.monitor.ts': (t) => t + log('b again'), 'e.monitor.ts': (t) => t + log('e again') },
        base,
      );
      expect(edited.b.rebuilt).toEqual({ parts: 2, of: 6 });
      expect(edited.order).toEqual(reference.order);
      expect(holder.splitNames).toEqual(
        ['a', 'b', 'c', 'd', 'e', 'f']
          .flatMap((n) => [`fn_${n}`, `C_${n}`])
          .concat(['a', 'b', 'c', 'd', 'e', 'f'].flatMap((n) => [`fn_${n}`, `C_${n}`])),
      );
      const names = edited.b.files.map((f) => basename(f));
      expect(new Set(names).size).toBe(names.length);
      // Every kept part is the file it was.
      const keptNames = first.b.files.map((f) => basename(f)).filter((n) => n.startsWith('part-'));
      expect(names.filter((n) => keptNames.includes(n))).toHaveLength(4);
      // The positions of a kept part (c) and of one built again (b) map to their files and lines.
      const at = (n: string) =>
        mapStack(holder.splitStacks?.[join(dir, `${n}.monitor.ts`)] ?? '', edited.b, dir).first;
      expect(at('b')).toEqual({ file: join(dir, 'b.monitor.ts'), line: 4, column: 82 });
      expect(at('c')).toEqual({ file: join(dir, 'c.monitor.ts'), line: 4, column: 82 });
    });

    it('builds every part when the edit makes a part share a module with a kept one', async () => {
      const dir = project(sources());
      await runBundle(dir, sixFiles);
      // The part then reaches shared.ts, as a and c do.
      const { edited, reference } = await editAndBuild(dir, {
        'e.monitor.ts': (t) => `import './shared';\n${t}`,
      });
      expect(edited.b.rebuilt).toBeUndefined();
      expect(edited.order.filter((m) => m === 'shared')).toHaveLength(1);
      expect(contents(edited.b, dir)).toEqual(contents(reference.b, reference.dir));
    });

    it('builds every part when the edit moves where parts are cut', async () => {
      const dir = project(sources());
      await runBundle(dir, sixFiles);
      // e no longer fills a part: f joins it.
      const { edited, reference } = await editAndBuild(dir, { 'e.monitor.ts': () => log('e small') });
      expect(edited.b.rebuilt).toBeUndefined();
      expect(edited.b.files).toHaveLength(7);
      expect(contents(edited.b, dir)).toEqual(contents(reference.b, reference.dir));
    });

    it('builds every part when a package.json changed, even one a construct file imports', async () => {
      const withJson = {
        ...sources(),
        'b.monitor.ts': `import pkg from './package.json';\nexport const type = pkg.type;\n${log('b')}${pad}`,
      };
      const dir = project(withJson);
      await runBundle(dir, sixFiles);
      // It steers every file of the project: with `sideEffects: false`, a module imported for what
      // it does when it runs is left out.
      const { edited, reference } = await editAndBuild(
        dir,
        { 'package.json': () => '{ "type": "module", "sideEffects": false }\n' },
        withJson,
      );
      expect(edited.b.rebuilt).toBeUndefined();
      expect(edited.order).toEqual(reference.order);
      expect(contents(edited.b, dir)).toEqual(contents(reference.b, reference.dir));
    });

    it('builds every part when the parts record is damaged, another build’s, or not what a build writes', async () => {
      const dir = project(sources());
      await runBundle(dir, sixFiles);
      const record = `${cacheFile(join(dir, '.monitor', 'cache'), 'constructs')}.parts.json`;
      const first = readFileSync(record, 'utf8');
      const rebuildOnce = async (text: string, damage: (record: string) => string) => {
        appendFileSync(join(dir, 'e.monitor.ts'), log(text));
        dateBack(dir, ['e.monitor.ts']);
        writeFileSync(record, damage(readFileSync(record, 'utf8')));
        return runBundle(dir, sixFiles);
      };
      const cut = await rebuildOnce('e cut', (r) => r.slice(0, 100));
      expect(cut.b.rebuilt).toBeUndefined();
      const older = await rebuildOnce('e older', () => first);
      expect(older.b.rebuilt).toBeUndefined();
      const malformed = await rebuildOnce('e malformed', (r) => {
        const parsed = JSON.parse(r) as { metafile: { inputs: Record<string, unknown> } };
        for (const name of Object.keys(parsed.metafile.inputs)) parsed.metafile.inputs[name] = { imports: 5 };
        return JSON.stringify(parsed);
      });
      expect(malformed.b.rebuilt).toBeUndefined();
      const badOutputs = await rebuildOnce('e bad outputs', (r) => {
        const parsed = JSON.parse(r) as { metafile: { outputs: Record<string, object> } };
        for (const [name, output] of Object.entries(parsed.metafile.outputs))
          parsed.metafile.outputs[name] = { ...output, imports: 5 };
        return JSON.stringify(parsed);
      });
      expect(badOutputs.b.rebuilt).toBeUndefined();
      expect(badOutputs.order).toEqual([
        'shared',
        'a',
        'b',
        'c',
        'd',
        'e',
        'e cut',
        'e older',
        'e malformed',
        'e bad outputs',
        'f',
      ]);
      // Each of them kept a good record again: the next edit builds one part.
      expect((await rebuildOnce('e again', (r) => r)).b.rebuilt).toEqual({ parts: 1, of: 6 });
    });
  });

  it('maps a stack through the part that threw to the file and line', async () => {
    const dir = project({
      'a.monitor.ts': log('a') + pad,
      'b.monitor.ts': log('b') + pad,
      'c.monitor.ts': `${pad}\n\nconst n: number = 1;\nif (n === 1) throw new Error('broken on purpose');\n`,
      'd.monitor.ts': log('d'),
    });
    const b = await bundle(constructsEntry(files.map((f) => join(dir, f))), dir, 'constructs');
    onTestFinished(() => b.dispose());
    expect(b.files.length).toBeGreaterThan(2);
    const error = await import(pathToFileURL(b.file).href).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const stack = (error as Error).stack ?? '';
    const { first, text } = mapStack(stack, b, dir);
    expect(first).toEqual({ file: join(dir, 'c.monitor.ts'), line: 5, column: 20 });
    expect(text).toContain('c.monitor.ts:5:20');
  });
});
