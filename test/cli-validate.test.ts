import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cleanup, monitor, writeFiles, writeProject } from './support/harness.js';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

describe('monitor validate', () => {
  it('exits 0 on a valid project with a one-line summary', async () => {
    const r = await monitor(['validate'], { cwd: join(fixtures, 'valid') });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('✓ valid: 2 constructs valid in 1 file\n');
    expect(r.code).toBe(0);
  });

  it('examples/basic, the example that ships, follows its own built-in policies: no finding, none waived', async () => {
    const basic = fileURLToPath(new URL('../examples/basic/', import.meta.url));
    const r = await monitor(['validate'], { cwd: basic });
    expect(r.stdout).toBe('✓ acme-basic: 16 constructs valid in 3 files\n');
    expect(r.code).toBe(0);
    expect(JSON.parse((await monitor(['validate', '--json'], { cwd: basic })).stdout).diagnostics).toEqual(
      [],
    );
  });

  it('exits 3 and prints file:line:col  error  Construct "id"  path: message', async () => {
    const cwd = join(fixtures, 'invalid-constructs');
    const r = await monitor(['validate'], { cwd: cwd });
    expect(r.code).toBe(3);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^groups\.monitor\.ts:14:3 {2}error {2}CheckGroup "payments" {2}concurrency: /);
    expect(lines[1]).toMatch(
      /^groups\.monitor\.ts:13:33 {2}error {2}CheckGroup "payments" {2}locations\[2\]: /,
    );
    expect(lines[2]).toMatch(/^groups\.monitor\.ts:17:\d+ {2}error {2}EmailAlertChannel "mail" {2}address: /);
    expect(lines.at(-1)).toBe('✗ 4 errors, 0 warnings: 3 constructs in 1 files');
  });

  it('prints the same diagnostics as JSON with --json', async () => {
    const r = await monitor(['validate', '--json'], { cwd: join(fixtures, 'invalid-constructs') });
    expect(r.code).toBe(3);
    const out = JSON.parse(r.stdout) as {
      formatVersion: number;
      command: string;
      ok: boolean;
      result: { valid: boolean; summary: unknown };
      diagnostics: unknown[];
      error: { code: string };
    };
    expect(out).toMatchObject({ formatVersion: 2, command: 'validate', ok: false, exitCode: 3 });
    expect(out.result.valid).toBe(false);
    expect(out.result.summary).toEqual({ errors: 4, warnings: 0, waived: 0 });
    expect(out.error.code).toBe('invalid_project');
    expect(out.diagnostics[0]).toMatchObject({
      severity: 'error',
      construct: 'CheckGroup',
      logicalId: 'payments',
      path: 'concurrency',
      file: 'groups.monitor.ts',
      line: 14,
      column: 3,
    });
  });

  it('takes --config', async () => {
    const r = await monitor(['validate', '--config', join(fixtures, 'mts-config', 'monitor.config.mts')], {
      cwd: tmpdir(),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('mts: 2 constructs valid');
  });

  it('exits 3 on a project that does not load, with the reason', async () => {
    const syntax = await monitor(['validate'], { cwd: join(fixtures, 'syntax-error') });
    expect(syntax.code).toBe(3);
    expect(syntax.stdout).toMatch(/^broken\.monitor\.ts:7:\d+ {2}error {2}Expected "}" but found "\)"/);
    const throws = await monitor(['validate'], { cwd: join(fixtures, 'throws') });
    expect(throws.code).toBe(3);
    expect(throws.stdout).toMatch(/^throws\.monitor\.ts:7:\d+ {2}error {2}.*unknown region "mars"/);
    const missing = await monitor(['validate'], { cwd: join(fixtures, 'missing-package') });
    expect(missing.stdout).toContain('Cannot find package "monitor-package-that-does-not-exist"');
  });

  it('exits 1 with a hint when there is no config', async () => {
    const none = mkdtempSync(join(tmpdir(), 'monitor-none-'));
    const r = await monitor(['validate'], { cwd: none });
    rmSync(none, { recursive: true, force: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: no monitor\.config\.ts found in /);
    expect(r.stderr).toMatch(
      /\nhint: run monitor init to scaffold a project here .*, or create monitor\.config\.ts yourself/,
    );
  });

  it('answers --help and --version, and rejects an unknown command', async () => {
    const help = await monitor(['--help'], { cwd: tmpdir() });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('monitor validate');
    expect(help.stdout).toContain('Exit codes');
    const version = await monitor(['--version'], { cwd: tmpdir() });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const unknown = await monitor(['frobnicate'], { cwd: tmpdir() });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('hint: run monitor --help');
  });

  // Each run builds the files the last one included while the CLI loads (a head start); the
  // files a run loads must still be exactly those the include patterns match now.
  it('loads the files there are now, not those of the last run', async () => {
    const mail = (id: string) =>
      `import { EmailAlertChannel } from '@monitor/constructs';\nnew EmailAlertChannel('${id}', { address: '${id}@example.com' });\n`;
    const dir = writeProject({ 'monitors/a.monitor.ts': mail('a') });
    try {
      expect((await monitor(['validate'], { cwd: dir })).stdout).toContain('1 construct valid in 1 file');
      writeFiles(dir, {
        'monitors/b.monitor.ts': `import { CheckGroup } from '@monitor/constructs';\nnew CheckGroup('b', { name: 'B', concurrency: 0 });\n`,
      });
      const added = await monitor(['validate'], { cwd: dir });
      expect(added.code).toBe(3);
      expect(added.stdout).toMatch(
        /^monitors\/b\.monitor\.ts:2:\d+ {2}error {2}CheckGroup "b" {2}concurrency: /,
      );
      rmSync(join(dir, 'monitors', 'b.monitor.ts'));
      writeFiles(dir, { 'monitors/a.monitor.ts': mail('renamed') });
      const changed = await monitor(['validate', '--json'], { cwd: dir });
      expect(changed.code).toBe(0);
      expect(JSON.parse(changed.stdout).result).toMatchObject({ files: 1, constructs: 1 });
    } finally {
      cleanup(dir);
    }
  });

  it('reports each problem at its own prop: at the line and column of the prop, of the element for list items', async () => {
    const dir = writeProject({
      'a.monitor.ts': `import { CheckGroup } from '@monitor/constructs';
const region = 'mars-1';

// The group of the issue: two problems, two lines.
new CheckGroup('payments', {
  name: '',
  locations: ['eu-west-1', 'moon-2'],
});
new CheckGroup('computed', { name: 'C', locations: [region as never] });
`,
    });
    try {
      const r = await monitor(['validate'], { cwd: dir });
      expect(r.code).toBe(3);
      const lines = r.stdout.split('\n');
      expect(lines).toContainEqual(
        expect.stringMatching(/^a\.monitor\.ts:6:3 {2}error {2}CheckGroup "payments" {2}name: /),
      );
      expect(lines).toContainEqual(
        expect.stringMatching(/^a\.monitor\.ts:7:28 {2}error {2}CheckGroup "payments" {2}locations\[1\]: /),
      );
      // A value from a variable: the element is still written in the construct.
      expect(lines).toContainEqual(
        expect.stringMatching(/^a\.monitor\.ts:9:53 {2}error {2}CheckGroup "computed" {2}locations\[0\]: /),
      );
    } finally {
      cleanup(dir);
    }
  });

  it('an option written among the props is an error at its line that says where it goes; it is not taken', async () => {
    const dir = writeProject({
      'a.monitor.ts': `import { CheckGroup } from '@monitor/constructs';

const legacy = { protect: true };
new CheckGroup('payments', {
  name: 'Payments',
  ignoreChanges: ['muted'] as never,
  ...legacy,
});
new CheckGroup('search', { name: 'Search' }, { protect: true, mutd: true } as never);
`,
    });
    try {
      const r = await monitor(['validate', '--json'], { cwd: dir });
      expect(r.code).toBe(3);
      const found = (JSON.parse(r.stdout).diagnostics as Record<string, unknown>[]).map((d) => [
        `${d.file}:${d.line}:${d.column}`,
        d.logicalId,
        d.path,
        d.message,
        d.hint,
      ]);
      const hint =
        "move it to the third argument: new CheckGroup('payments', { … }, { protect: true, ignoreChanges: ['muted'] })";
      const moved = 'is an option of the construct, not a prop: options are the third argument of new';
      expect(found).toEqual([
        // Written in the props: at its line; from a spread, at the construct.
        ['a.monitor.ts:6:3', 'payments', 'ignoreChanges', `ignoreChanges ${moved}`, hint],
        ['a.monitor.ts:4:1', 'payments', 'protect', `protect ${moved}`, hint],
        // In the options, the third argument.
        [
          'a.monitor.ts:9:63',
          'search',
          'mutd',
          'unknown option "mutd": the options are protect, aliases, adopt, ignoreChanges and policyExceptions (props go in the second argument)',
          undefined,
        ],
      ]);
    } finally {
      cleanup(dir);
    }
  });

  it('never answers from its caches for a file that changed, even one written back with its old time', async () => {
    const group = (concurrency: number) =>
      `import { CheckGroup } from '@monitor/constructs';\nnew CheckGroup('g', { name: 'G', concurrency: ${concurrency} });\n`;
    const dir = writeProject({ 'monitors/g.monitor.ts': group(2) });
    const file = join(dir, 'monitors', 'g.monitor.ts');
    // Written a minute ago: a build is kept only of files that cannot be changing under it.
    const past = new Date(Date.now() - 60_000);
    for (const path of [file, join(dir, 'monitors'), join(dir, 'monitor.config.ts'), dir])
      utimesSync(path, past, past);
    try {
      expect((await monitor(['validate'], { cwd: dir })).code).toBe(0);
      expect((await monitor(['validate'], { cwd: dir })).code).toBe(0);
      for (const kept of ['constructs.bundle', 'validated.json'])
        expect(existsSync(join(dir, '.monitor', 'cache', kept)), kept).toBe(true);
      // The kept builds were imported from places named by their content (config, constructs),
      // which the second run took as they were: Node ≥ 22 finds their compiled code by path.
      const cache = join(dir, '.monitor', 'cache');
      const places = () =>
        readdirSync(cache)
          .filter((entry) => entry.startsWith('bundle-'))
          .map((entry) => `${entry} ${statSync(join(cache, entry)).ino}`)
          .sort();
      const first = places();
      expect(first).toHaveLength(2);
      for (const place of first) expect(place).toMatch(/^bundle-[\w-]{24}\.mjs \d+$/);
      expect((await monitor(['validate'], { cwd: dir })).code).toBe(0);
      expect(places()).toEqual(first);

      writeFiles(dir, { 'monitors/g.monitor.ts': group(0) });
      utimesSync(file, past, past);
      const invalid = await monitor(['validate'], { cwd: dir });
      expect(invalid.code).toBe(3);
      expect(invalid.stdout).toMatch(
        /^monitors\/g\.monitor\.ts:2:\d+ {2}error {2}CheckGroup "g" {2}concurrency: /,
      );

      writeFiles(dir, { 'monitors/g.monitor.ts': group(2) });
      expect((await monitor(['validate'], { cwd: dir })).code).toBe(0);
    } finally {
      cleanup(dir);
    }
  });
});
