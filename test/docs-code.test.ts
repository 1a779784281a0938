import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DEV_ACCOUNT_ID, DEV_API_KEY } from '@monitor/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileInTest, stopWhenTestEnds } from './support/children.js';
import { BIN, cleanup, emulatorForTests, monitor } from './support/harness.js';

/**
 * The TypeScript of the docs is code that runs. Every ```ts block of docs/*.md and the README is a
 * file a reader pastes, compiled under `strict` in a project `monitor init` scaffolded, all in one
 * `tsc` run. The info string after `ts` says where a block goes (docs/README.md, "Code in these
 * docs"):
 *
 * - nothing: a file of its own;
 * - `file=PATH`: the file PATH of the doc's project (blocks of one doc import each other by it); a
 *   doc whose blocks include `file=monitor.config.ts` is a project that `monitor validate` loads;
 * - `in=PATH`: a fragment of the doc's file PATH, compiled at the end of a copy of it;
 * - `output` (what monitor writes, tested where it writes it) and `signature` (a generated
 *   reference's signatures): shown, not compiled.
 *
 * And docs/pull.md's edit "in the UI" runs as written, curl and all, against an emulator.
 */

const REPO = fileURLToPath(new URL('..', import.meta.url));
const TSC = join(REPO, 'node_modules/typescript/bin/tsc');
// Inside the repository, so that the @monitor packages resolve to the built ones, as installed.
const TMP = fileURLToPath(new URL('./.tmp/', import.meta.url));

interface Block {
  doc: string;
  /** The doc's line of the block's first line of code (1-based). */
  line: number;
  file?: string;
  in?: string;
  shownOnly: boolean;
  text: string;
}

const FENCE = /^( *)```ts(?:[ \t]+(.*))?$/;

/** The ```ts blocks of a markdown text, with what their info strings say. */
function tsBlocks(doc: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] as string);
    if (open === null) continue;
    const indent = (open[1] as string).length;
    const block: Block = { doc, line: i + 2, shownOnly: false, text: '' };
    for (const word of (open[2] ?? '').split(/\s+/).filter((w) => w !== '')) {
      const [key, value] = word.split('=', 2) as [string, string | undefined];
      if (key === 'file' && value !== undefined) block.file = value;
      else if (key === 'in' && value !== undefined) block.in = value;
      else if ((key === 'output' || key === 'signature') && value === undefined) block.shownOnly = true;
      else throw new Error(`${doc}:${i + 1}: unknown word "${word}" after \`\`\`ts`);
    }
    const code: string[] = [];
    for (i++; i < lines.length && !/^ *```\s*$/.test(lines[i] as string); i++)
      code.push((lines[i] as string).slice(indent));
    block.text = `${code.join('\n')}\n`;
    blocks.push(block);
  }
  return blocks;
}

/** Where each written file's lines come from: its doc, and the doc line of its first line. */
type Origins = Map<string, { doc: string; line: number; after: number }>;

/** A doc's blocks as files of its own directory under `root`. */
function writeDoc(root: string, docDir: string, blocks: Block[], origins: Origins): void {
  const write = (path: string, text: string, block: Block, after = 0) => {
    const full = join(root, docDir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    origins.set(relative(root, full), { doc: block.doc, line: block.line, after });
  };
  const files = new Map<string, string>();
  for (const b of blocks) {
    if (b.shownOnly || b.in !== undefined) continue;
    if (b.file === undefined) {
      // `export {}`: a module of its own, whatever it declares.
      write(`L${b.line}.ts`, `${b.text}export {};\n`, b);
      continue;
    }
    files.set(b.file, b.text);
    write(b.file, b.text, b);
    const pkg = /^(node_modules\/(?:@[^/]+\/)?[^/]+)\/(.+)$/.exec(b.file);
    if (pkg !== null) {
      const [, dir, entry] = pkg as unknown as [string, string, string];
      const manifest = { name: dir.slice('node_modules/'.length), type: 'module', exports: `./${entry}` };
      writeFileSync(join(root, docDir, dir, 'package.json'), JSON.stringify(manifest));
    }
  }
  for (const b of blocks.filter((x) => x.in !== undefined)) {
    const base = files.get(b.in as string);
    if (base === undefined) throw new Error(`${b.doc}:${b.line - 1}: in=${b.in}, a file no block of it is`);
    const name = (b.in as string).replace(/\.ts$/, `.L${b.line}.ts`).replace(/\.monitor\./, '.fragment.');
    write(name, `${base}${b.text}`, b, base.split('\n').length - 1);
  }
}

/** A tsc diagnostic, named by the doc line it is about. */
function atDoc(line: string, origins: Origins): string {
  const m = /^(.+?)\((\d+),(\d+)\): (.*)$/.exec(line);
  const origin = m === null ? undefined : origins.get(m[1] as string);
  if (m === null || origin === undefined) return line;
  const row = Number(m[2]) - 1 - origin.after;
  return `${origin.doc}:${origin.line + row}:${m[3]}  ${m[4]}`;
}

const run = promisify(execFile);

let root: string;
let origins: Origins;
let blocks: Block[];
let compiled: { docs: string[]; errors: string[] };

beforeAll(async () => {
  mkdirSync(TMP, { recursive: true });
  root = mkdtempSync(join(TMP, 'docs-code-'));
  const init = await monitor(['init', 'docs-project', '--no-vendor'], { cwd: root });
  expect(init.code, init.stderr).toBe(0);
  root = join(root, 'docs-project');
  const docs = [
    ...readdirSync(join(REPO, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
    'README.md',
  ];
  blocks = docs.flatMap((doc) => tsBlocks(doc, readFileSync(join(REPO, doc), 'utf8')));
  // One block that does not compile, to show that a failure is found and told at its line.
  const canary = tsBlocks('canary.md', '# x\n\n```ts\nconst port: number = "4010";\n```\n');
  origins = new Map();
  for (const doc of [...docs, 'canary.md']) {
    const dir = join('docs', doc.replace(/^docs\//, '').replace(/\.md$/, ''));
    writeDoc(
      root,
      dir,
      [...blocks, ...canary].filter((b) => b.doc === doc),
      origins,
    );
  }
  writeFileSync(
    join(root, 'tsconfig.docs.json'),
    JSON.stringify({
      extends: './tsconfig.json',
      include: ['docs/**/*.ts'],
      exclude: ['**/.monitor'],
    }),
  );
  // One tsc for every block.
  const started = run(process.execPath, [TSC, '-p', 'tsconfig.docs.json', '--pretty', 'false'], {
    cwd: root,
  });
  stopWhenTestEnds(started.child);
  const out = await started.then(
    (r) => r.stdout,
    (e: { stdout?: string }) => e.stdout ?? String(e),
  );
  const errors = out
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith(' '))
    .map((l) => atDoc(l, origins));
  compiled = { docs, errors };
});

afterAll(() => {
  if (root !== undefined) cleanup(dirname(root));
});

/** The docs' projects: the directories with a monitor.config.ts block. */
const projects = () =>
  [...new Set(blocks.filter((b) => b.file === 'monitor.config.ts').map((b) => b.doc))].sort();

describe('the TypeScript in the docs', () => {
  it('every block meant to be pasted compiles under strict, as in a project monitor init made', () => {
    expect(compiled.errors).toEqual([
      `canary.md:4:7  error TS2322: Type 'string' is not assignable to type 'number'.`,
    ]);
    const pasted = blocks.filter((b) => !b.shownOnly);
    // What the docs hold: a check that the blocks were found, not that they compiled.
    expect(pasted.length).toBeGreaterThanOrEqual(17);
    expect([...new Set(pasted.map((b) => b.doc))].sort()).toEqual(
      expect.arrayContaining(['docs/constructs.md', 'docs/policies.md', 'docs/environments.md', 'README.md']),
    );
    expect(
      blocks.filter((b) => b.shownOnly && b.doc === 'docs/constructs-reference.md').length,
    ).toBeGreaterThan(10);
  });

  it('each doc project loads with monitor validate: every construct synthesizes, and what it finds is its policies', async () => {
    expect(projects()).toEqual(['docs/constructs.md', 'docs/policies.md']);
    for (const doc of projects()) {
      const cwd = join(root, 'docs', doc.replace(/^docs\//, '').replace(/\.md$/, ''));
      expect(existsSync(join(cwd, 'monitor.config.ts'))).toBe(true);
      const r = await monitor(['validate', '--json'], {
        cwd,
        env: { MONITOR_API_KEY: '', MONITOR_ACCOUNT_ID: '' },
      });
      const envelope = JSON.parse(r.stdout) as {
        diagnostics: { policy?: string; severity: string; message: string }[];
        result: { summary: { constructs?: number } } | null;
      };
      const notPolicies = envelope.diagnostics.filter((d) => d.policy === undefined);
      expect(notPolicies, `${doc}: ${r.stderr}`).toEqual([]);
      expect([0, 3], `${doc}: ${r.stdout}`).toContain(r.code);
    }
  });

  it("a doc's `$ monitor validate` shows what monitor validate prints for its project", async () => {
    for (const doc of projects()) {
      const text = readFileSync(join(REPO, doc), 'utf8');
      const shown = /^```text\n\$ monitor validate\n([\s\S]*?)^```$/m.exec(text);
      if (shown === null) continue;
      const cwd = join(root, 'docs', doc.replace(/^docs\//, '').replace(/\.md$/, ''));
      const r = await monitor(['validate'], { cwd, env: { MONITOR_API_KEY: '', MONITOR_ACCOUNT_ID: '' } });
      expect(r.stdout, doc).toBe(shown[1]);
    }
  });
});

/** The `$ ` commands of a section's ```console blocks (`\\` continues one), each with the lines shown after it. */
function consoleCommands(section: string): { command: string; shown: string[] }[] {
  const out: { command: string; shown: string[] }[] = [];
  for (const block of section.matchAll(/^```console\n([\s\S]*?)^```$/gm)) {
    const lines = (block[1] as string).replace(/\n$/, '').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!(lines[i] as string).startsWith('$ ')) continue;
      let command = (lines[i] as string).slice(2);
      while (command.endsWith('\\')) command = `${command.slice(0, -1)} ${(lines[++i] as string).trim()}`;
      const shown: string[] = [];
      for (i++; i < lines.length && !(lines[i] as string).startsWith('$ '); i++)
        shown.push(lines[i] as string);
      i--;
      out.push({ command, shown });
    }
  }
  return out;
}

/** Durations differ from run to run. */
const normal = (line: string) => line.trimEnd().replace(/\d+(\.\d+)? m?s\b/g, 'T');

describe("docs/pull.md's UI edit, made with the emulator", () => {
  it('runs as written: the edit through the API is drift, and the pull that follows writes it into the code', async () => {
    const doc = readFileSync(join(REPO, 'docs/pull.md'), 'utf8');
    const start = doc.indexOf('## Try it:');
    expect(start).toBeGreaterThan(0);
    const commands = consoleCommands(doc.slice(start, doc.indexOf('\n## ', start + 1)));
    // The emulator `monitor emulator` is, with its shipped data: on a port of its own here.
    const h = await emulatorForTests({ fixture: undefined });
    const dir = mkdtempSync(join(TMP, 'pull-doc-'));
    try {
      expect((await monitor(['init', 'acme-monitoring', '--no-vendor'], { cwd: dir })).code).toBe(0);
      const cwd = join(dir, 'acme-monitoring');
      const env = {
        ...process.env,
        NO_COLOR: '1',
        CI: 'true',
        MONITOR_BASE_URL: h.emulator.url,
        MONITOR_API_KEY: DEV_API_KEY,
        MONITOR_ACCOUNT_ID: DEV_ACCOUNT_ID,
        GIT_AUTHOR_NAME: 'You',
        GIT_AUTHOR_EMAIL: 'you@example.com',
        GIT_COMMITTER_NAME: 'You',
        GIT_COMMITTER_EMAIL: 'you@example.com',
      };
      let ran = 0;
      for (const { command, shown } of commands) {
        if (command === 'npx monitor emulator') {
          // What it prints to export is this emulator's account and key.
          expect(shown).toContain(`  export MONITOR_API_KEY=${DEV_API_KEY}`);
          expect(shown).toContain(`  export MONITOR_ACCOUNT_ID=${DEV_ACCOUNT_ID}`);
          continue;
        }
        const line = command
          .replaceAll('http://127.0.0.1:4010', h.emulator.url)
          .replace(/^npx monitor /, `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} `);
        const result = await execFileInTest('bash', ['-e', '-c', line], { cwd, env }).catch(
          (e: { code: number; stdout: string; stderr: string }) => e,
        );
        const output = `${result.stdout}\n${result.stderr}`;
        expect('code' in result ? result.code : 0, `${command}\n${output}`).toBe(0);
        const printed = output.split('\n').map(normal);
        for (const want of shown.map(normal).filter((l) => l !== ''))
          expect(printed, `${command} prints "${want}"`).toContain(want);
        ran++;
      }
      expect(ran).toBe(8);
      expect(readFileSync(join(cwd, 'monitors/example.monitor.ts'), 'utf8')).toContain(
        "locations: ['eu-west-1', 'us-east-1', 'ap-southeast-2'],",
      );
    } finally {
      await h.close();
      cleanup(dir);
    }
  });
});
