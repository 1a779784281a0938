import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, monitor, writeProject } from './support/harness.js';

const BASIC = fileURLToPath(new URL('../examples/basic/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'monitor-modules-'));
/** Each run's own log file. */
let runs = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Run the CLI with a module hook that lists every module it loads; returns the URLs. */
async function modulesLoadedBy(args: string[], cwd = BASIC): Promise<string[]> {
  const log = join(dir, `loaded-${args.join('-')}-${++runs}.txt`);
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(log)}, url + '\\n');
  return next(url, context);
}
`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const r = await monitor(args, { cwd, env: { NODE_OPTIONS: `--import=${register}` } });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return readFileSync(log, 'utf8').trim().split('\n');
}

/**
 * Run the CLI with a preload that says, when the process ends, whether zod was loaded and whether
 * the kinds' schemas were (`@monitor/api`'s kind-schemas.js, which its definitions load with
 * `require` on the first schema asked for: no module hook sees that).
 */
async function schemasLoadedBy(args: string[], cwd: string): Promise<{ zod: boolean; kindSchemas: boolean }> {
  const report = join(dir, `schemas-${args.join('-')}-${++runs}.json`);
  const probe = join(dir, 'schemas-probe.mjs');
  writeFileSync(
    probe,
    `import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
process.on('exit', () => {
  writeFileSync(process.env.MONITOR_TEST_SCHEMAS_REPORT, JSON.stringify({
    zod: globalThis.__zod_globalConfig !== undefined,
    kindSchemas: Object.keys(require.cache).some((k) => k.endsWith('/api/dist/kind-schemas.js')),
  }));
});
`,
  );
  const r = await monitor(args, {
    cwd,
    env: { NODE_OPTIONS: `--import=${pathToFileURL(probe).href}`, MONITOR_TEST_SCHEMAS_REPORT: report },
  });
  expect(r.stderr).toBe('');
  return JSON.parse(readFileSync(report, 'utf8'));
}

// zod (95 modules) and yargs (20-odd) cost a module load each; the build bundles each into one
// file (scripts/vendor.mjs). One direct `import 'zod'` anywhere would load all of zod a second time.
describe('module loading', () => {
  it('validate loads yargs once, as the vendored file, and zod never from its package', async () => {
    const urls = await modulesLoadedBy(['validate']);
    expect(urls.filter((u) => u.includes('/node_modules/zod/'))).toEqual([]);
    expect(urls.filter((u) => u.includes('/node_modules/yargs'))).toEqual([]);
    expect(urls.filter((u) => u.endsWith('/packages/cli/dist/yargs.js'))).toHaveLength(1);
  });

  it('a validate whose payloads passed before loads neither zod nor a schema; a new payload loads them', async () => {
    const project = writeProject({
      'a.monitor.ts':
        "import { CheckGroup } from '@monitor/constructs';\nnew CheckGroup('g', { name: 'G' });\n",
    });
    try {
      // The first run checks the payload against its schema, and keeps that it passed.
      expect(await schemasLoadedBy(['validate'], project)).toEqual({ zod: true, kindSchemas: true });
      expect(await schemasLoadedBy(['validate'], project)).toEqual({ zod: false, kindSchemas: false });
      // A payload not seen before is checked: an invalid one is reported as before.
      writeFileSync(
        join(project, 'a.monitor.ts'),
        "import { CheckGroup } from '@monitor/constructs';\nnew CheckGroup('g', { name: 'G', frequency: -1 } as never);\n",
      );
      const r = await monitor(['validate'], { cwd: project });
      expect(r.code).toBe(3);
      expect(r.stdout).toMatch(/a\.monitor\.ts:2:\d+ +error +CheckGroup "g" +frequency:/);
    } finally {
      cleanup(project);
    }
  });

  it('validate loads what loading a project takes: not the API client, nor the rest of the engine', async () => {
    const urls = await modulesLoadedBy(['validate']);
    // The entries `@monitor/engine/validate` and `@monitor/api/definitions`, not the packages' index.
    expect(urls.filter((u) => /\/packages\/(api|engine)\/dist\/index\.js$/.test(u))).toEqual([]);
    expect(urls.filter((u) => /\/undici\.js$|\/node_modules\/(diff|pg|undici)\//.test(u))).toEqual([]);
  });

  it('checks new payloads on a Node that cannot require an ES module (22.0 to 22.11)', async () => {
    const project = writeProject({
      'a.monitor.ts':
        "import { CheckGroup } from '@monitor/constructs';\nnew CheckGroup('g', { name: 'G', frequency: -1 } as never);\n",
    });
    try {
      // As those versions are: require(esm) off. The schemas are imported before synthesis instead.
      const env = { NODE_OPTIONS: '--no-experimental-require-module' };
      const r = await monitor(['validate'], { cwd: project, env });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(3);
      expect(r.stdout).toMatch(/a\.monitor\.ts:2:\d+ +error +CheckGroup "g" +frequency:/);
    } finally {
      cleanup(project);
    }
  });

  it('validate searches for construct files with the vendored tinyglobby, and not again while nothing changed', async () => {
    const project = writeProject({
      'a.monitor.ts':
        "import { CheckGroup } from '@monitor/constructs';\nnew CheckGroup('g', { name: 'G' });\n",
    });
    try {
      const vendored = (urls: string[]) =>
        urls.filter((u) => u.endsWith('/packages/engine/dist/tinyglobby.js'));
      const first = await modulesLoadedBy(['validate'], project);
      expect(first.filter((u) => /\/node_modules\/(tinyglobby|fdir|picomatch)\//.test(u))).toEqual([]);
      expect(vendored(first)).toHaveLength(1);
      expect(vendored(await modulesLoadedBy(['validate'], project))).toEqual([]);
      // A new construct file is found: its directory changed.
      writeFileSync(
        join(project, 'b.monitor.ts'),
        "import { Dashboard } from '@monitor/constructs';\nnew Dashboard('d', { header: 'D' });\n",
      );
      expect(vendored(await modulesLoadedBy(['validate'], project))).toHaveLength(1);
      const r = await monitor(['validate'], { cwd: project });
      expect(r.stdout).toContain('2 constructs valid in 2 files');
    } finally {
      cleanup(project);
    }
  });

  it('--help loads neither zod nor the engine', async () => {
    const urls = await modulesLoadedBy(['--help']);
    expect(urls.some((u) => u.endsWith('/cli/dist/yargs.js'))).toBe(true);
    expect(urls.filter((u) => /zod|\/engine\/|\/emulator\/|esbuild/.test(u))).toEqual([]);
  });
});

// string-width (under yargs) makes Intl segmenters and Unicode-property regular expressions when
// it loads, ~30 ms of every command, for text it measures only when help is printed; the vendored
// file makes them on first use (scripts/vendor.mjs).
describe('the vendored yargs', () => {
  it('makes no segmenter and no Unicode-property expression until it renders help', async () => {
    const script = join(dir, 'yargs-lazy.mjs');
    const yargsUrl = import.meta
      .resolve('@monitor/cli/package.json')
      .replace(/package\.json$/, 'dist/yargs.js');
    writeFileSync(
      script,
      `let segmenters = 0;
let propertyRegExps = 0;
const Segmenter = Intl.Segmenter;
Intl.Segmenter = class extends Segmenter {
  constructor(...args) {
    super(...args);
    segmenters++;
  }
};
globalThis.RegExp = new Proxy(RegExp, {
  construct(target, args) {
    if (String(args[0]).includes('\\\\p{')) propertyRegExps++;
    return Reflect.construct(target, args);
  },
});
const { default: yargs } = await import(${JSON.stringify(yargsUrl)});
const atLoad = { segmenters, propertyRegExps };
const help = await yargs([]).scriptName('t').command('wide', 'a command 👍 with 漢字 in its description').getHelp();
console.log(JSON.stringify({ atLoad, afterHelp: { segmenters, propertyRegExps }, help }));
`,
    );
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const { atLoad, afterHelp, help } = JSON.parse(run.stdout) as {
      atLoad: { segmenters: number; propertyRegExps: number };
      afterHelp: { segmenters: number; propertyRegExps: number };
      help: string;
    };
    expect(atLoad).toEqual({ segmenters: 0, propertyRegExps: 0 });
    expect(afterHelp.segmenters).toBeGreaterThan(0);
    expect(afterHelp.propertyRegExps).toBeGreaterThan(0);
    expect(help).toContain('a command 👍 with 漢字 in its description');
  });
});
