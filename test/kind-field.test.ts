import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { constructReference } from '@monitor/cli';
import { build, type Plugin } from 'esbuild';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestBodyArb } from './support/account-arbitraries.js';

/**
 * What adding a field to a kind takes, shown by doing it: the edit below is applied to the
 * packages' sources, which are bundled as they are (api, constructs, engine, emulator), and synth,
 * plan, the emulator, import, the property tests' random accounts and the construct reference
 * are run with the result. Nothing else is edited: every other place that knows the kind's fields
 * derives them (the response schema, the documented defaults, the inverse of synthesis, the
 * arbitraries). Two edits in two files: the field with its default, beside its type, and the
 * construct's documented prop (held against the schema by constructs' schemas.test-d.ts).
 */
const NEW_FIELD = [
  {
    file: 'packages/api/src/schemas/dashboards.ts',
    before: '  keys: z.array(dashboardKeySchema),\n',
    insert: '  footerText: withDefault(z.string().max(200).nullable(), null),\n',
  },
  {
    file: 'packages/constructs/src/dashboard.ts',
    before: '  /** Sort checks by status. @default false */\n',
    insert:
      '  /** Text at the foot of the page, at most 200 characters. @default null */\n  footerText?: string | null;\n',
  },
];

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TMP = join(ROOT, 'test', '.tmp');
const ENTRIES = {
  api: 'packages/api/src/index.ts',
  constructs: 'packages/constructs/src/index.ts',
  engine: 'packages/engine/src/index.ts',
  emulator: 'packages/emulator/src/index.ts',
};
/** The packages' own imports of each other, to their sources. */
const SOURCES: Record<string, string> = {
  '@monitor/api': ENTRIES.api,
  '@monitor/api/zod': 'packages/api/src/zod.ts',
  '@monitor/api/definitions': 'packages/api/src/definitions.ts',
  '@monitor/api/nearest': 'packages/api/src/nearest.ts',
  '@monitor/api/json-pieces': 'packages/api/src/json-pieces.ts',
  '@monitor/constructs': ENTRIES.constructs,
  '@monitor/engine': ENTRIES.engine,
  '@monitor/engine/escape': 'packages/engine/src/escape.ts',
  '@monitor/engine/config-location': 'packages/engine/src/config-location.ts',
  '@monitor/emulator': ENTRIES.emulator,
};

/** `text` of the file at `file` (relative to the repository) with the new field in it. */
function edited(file: string, text: string): string {
  let out = text;
  for (const edit of NEW_FIELD.filter((e) => e.file === file)) {
    // An anchor that moved must fail the test, not leave the field out.
    expect(out.split(edit.before).length - 1, `${file}: "${edit.before.trim()}" once`).toBe(1);
    out = out.replace(edit.before, `${edit.insert}${edit.before}`);
  }
  return out;
}

const withNewField: Plugin = {
  name: 'with-new-field',
  setup(b) {
    b.onResolve({ filter: /^@monitor\// }, (args) => {
      const source = SOURCES[args.path];
      if (source === undefined) throw new Error(`no source for ${args.path}`);
      return { path: join(ROOT, source) };
    });
    const files = new Set(NEW_FIELD.map((e) => join(ROOT, e.file)));
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      if (!files.has(args.path)) return undefined;
      return {
        contents: edited(args.path.slice(ROOT.length), readFileSync(args.path, 'utf8')),
        loader: 'ts',
      };
    });
  },
};

interface Packages {
  api: typeof import('@monitor/api');
  constructs: typeof import('@monitor/constructs');
  engine: typeof import('@monitor/engine');
  emulator: typeof import('@monitor/emulator');
}

/** The four packages built from their sources with the field added, one module each, sharing their code. */
async function bundle(outdir: string): Promise<Packages> {
  await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, path]) => [name, join(ROOT, path)])),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    packages: 'external',
    plugins: [withNewField],
    logLevel: 'error',
  });
  const load = (name: string) => import(pathToFileURL(join(outdir, `${name}.mjs`)).href);
  const [api, constructs, engine, emulator] = await Promise.all(Object.keys(ENTRIES).map(load));
  return { api, constructs, engine, emulator };
}

describe('a field added to a kind definition', () => {
  let dir: string;
  let p: Packages;
  let running: Awaited<ReturnType<Packages['emulator']['startEmulator']>>;
  let client: ReturnType<Packages['api']['createClient']>;

  beforeAll(async () => {
    mkdirSync(TMP, { recursive: true });
    dir = mkdtempSync(join(TMP, 'kind-field-'));
    p = await bundle(join(dir, 'lib'));
    running = await p.emulator.startEmulator({
      port: 0,
      fixture: {},
      rateLimits: false,
      agentHealthPort: false,
    });
    const { DEV_ACCOUNT_ID, DEV_API_KEY } = p.emulator;
    client = p.api.createClient({
      apiKey: DEV_API_KEY,
      accountId: DEV_ACCOUNT_ID,
      baseUrl: running.url,
      rateLimit: false,
      routeRateLimits: false,
    });
    // Bundling four packages from their sources takes seconds on a busy machine: a guard against a hang only.
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A project whose `@monitor/constructs` is the one with the field, holding `files`. */
  function project(name: string, files: Record<string, string>): string {
    const at = join(dir, name);
    const shim = join(at, 'node_modules', '@monitor', 'constructs');
    mkdirSync(shim, { recursive: true });
    writeFileSync(
      join(shim, 'package.json'),
      JSON.stringify({ name: '@monitor/constructs', type: 'module', exports: './index.mjs' }),
    );
    writeFileSync(
      join(shim, 'index.mjs'),
      `export * from ${JSON.stringify(join(dir, 'lib', 'constructs.mjs'))};\n`,
    );
    const all = {
      'monitor.config.ts': `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${name}', include: ['monitors/**/*.monitor.ts'] });\n`,
      ...files,
    };
    for (const [path, text] of Object.entries(all)) {
      mkdirSync(join(at, path, '..'), { recursive: true });
      writeFileSync(join(at, path), text);
    }
    return at;
  }

  async function target(at: string) {
    const loaded = await p.engine.load({ cwd: at, allowUnmatchedIncludes: true });
    expect(loaded.diagnostics).toEqual([]);
    const { DEV_ACCOUNT_ID } = p.emulator;
    const backend = p.engine.openStateBackend(loaded, DEV_ACCOUNT_ID);
    return { project: loaded, client, accountId: DEV_ACCOUNT_ID, backend, secretKey: 'kind-field' };
  }

  const dashboard = (footer: string) =>
    `import { Dashboard } from '@monitor/constructs';\nexport const ops = new Dashboard('ops', { header: 'Ops', customUrl: 'ops-footer', footerText: ${JSON.stringify(footer)} });\n`;

  it('takes two edits in two files: the field with its default, and the construct’s documented prop', () => {
    expect(NEW_FIELD).toHaveLength(2);
    expect(new Set(NEW_FIELD.map((e) => e.file)).size).toBe(2);
  });

  it('synth: the construct takes it, fills its default, and checks it against the field’s rules', () => {
    const { constructs } = p;
    constructs.createSession();
    new constructs.Dashboard('plain', { header: 'Plain' });
    new constructs.Dashboard('long', { header: 'Long', footerText: 'x'.repeat(201) } as never);
    const { resources, diagnostics } = constructs.synth();
    expect(resources[0]?.payload).toMatchObject({ footerText: null });
    expect(diagnostics).toEqual([
      expect.objectContaining({
        logicalId: 'long',
        path: 'footerText',
        message: expect.stringMatching(/200/),
      }),
    ]);
  });

  it('property tests: the random accounts set it, to values and to null', () => {
    const bodies = fc.sample(requestBodyArb(p.api.KINDS.Dashboard), { numRuns: 100, seed: 28 });
    const values = new Set(bodies.map((b) => (b.footerText === null ? 'null' : typeof b.footerText)));
    expect([...values].sort()).toEqual(['null', 'string', 'undefined']);
  });

  it('emulator: requests take it, resources keep it, and /openapi.json documents it both ways', async () => {
    const made = await client.managed('Dashboard').create({ header: 'Default', customUrl: 'footer-default' });
    expect(made.footerText).toBeNull();
    const updated = await client.managed('Dashboard').update(made.id, { footerText: 'Hi' });
    expect(updated.footerText).toBe('Hi');
    const doc = (await (await fetch(`${running.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const post = JSON.stringify(doc.paths['/v1/dashboards']?.post);
    expect(post.match(/"footerText"/g)).toHaveLength(2);
    await client.managed('Dashboard').delete(made.id);
  });

  it('plan and deploy: a change of it is an update of that field alone, and a deploy converges', async () => {
    const at = project('code', { 'monitors/ops.monitor.ts': dashboard('Thanks\r\nfor visiting') });
    const deployed = await p.engine.deploy(await target(at), {
      command: 'test',
      confirm: async () => ({ approved: true }),
    });
    expect(deployed.status).toBe('applied');
    const live = await p.engine.readLive(client);
    expect(live.Dashboard.find((d) => d.customUrl === 'ops-footer')?.footerText).toBe(
      'Thanks\r\nfor visiting',
    );

    writeFileSync(join(at, 'monitors/ops.monitor.ts'), dashboard('Bye'));
    const changed = await p.engine.diff(await target(at));
    expect(changed.plan.operations).toEqual([
      expect.objectContaining({
        action: 'update',
        changes: [
          expect.objectContaining({ path: 'footerText', before: 'Thanks\r\nfor visiting', after: 'Bye' }),
        ],
      }),
    ]);
    await p.engine.deploy(await target(at), { command: 'test', confirm: async () => ({ approved: true }) });
    expect((await p.engine.diff(await target(at))).plan.operations).toEqual([]);
  });

  it('import: the generated code sets it, and the next diff shows no changes', async () => {
    const at = project('imported', {});
    const outcome = await p.engine.importResources(await target(at), {
      command: 'test',
      filters: { kinds: ['Dashboard'] },
      confirm: async () => ({ approved: true }),
      env: {},
    });
    expect(outcome.status).toBe('imported');
    const code = readFileSync(join(at, 'monitors/dashboards.monitor.ts'), 'utf8');
    expect(code).toContain("footerText: 'Bye',");
    expect((await p.engine.diff(await target(at))).plan.operations).toEqual([]);
  });

  it('docs: the construct reference has a row for it, and nothing else changes', () => {
    const sources = join(dir, 'constructs-src');
    cpSync(join(ROOT, 'packages/constructs/src'), sources, { recursive: true });
    const file = 'packages/constructs/src/dashboard.ts';
    writeFileSync(join(sources, 'dashboard.ts'), edited(file, readFileSync(join(ROOT, file), 'utf8')));
    const before = constructReference(join(ROOT, 'packages/constructs/src/index.ts')).split('\n');
    const after = constructReference(join(sources, 'index.ts')).split('\n');
    expect(after.filter((line) => !before.includes(line))).toEqual([
      '| `footerText?` | `string \\| null` | null | Text at the foot of the page, at most 200 characters. |',
    ]);
    expect(after).toHaveLength(before.length + 1);
  });
});
