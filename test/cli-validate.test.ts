import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../packages/cli/dist/bin.js', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** The built CLI as a subprocess, as users and CI run it. */
function monitor(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', CI: 'true' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('monitor validate', () => {
  it('exits 0 on a valid project with a one-line summary', () => {
    const r = monitor(['validate'], join(fixtures, 'valid'));
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('✓ valid: 2 constructs valid in 1 file\n');
    expect(r.code).toBe(0);
  });

  it('exits 3 and prints file:line:col  error  Construct "id"  path: message', () => {
    const cwd = join(fixtures, 'invalid-constructs');
    const r = monitor(['validate'], cwd);
    expect(r.code).toBe(3);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^groups\.monitor\.ts:11:\d+ {2}error {2}CheckGroup "payments" {2}concurrency: /,
    );
    expect(lines[1]).toMatch(
      /^groups\.monitor\.ts:11:\d+ {2}error {2}CheckGroup "payments" {2}locations\[2\]: /,
    );
    expect(lines[2]).toMatch(/^groups\.monitor\.ts:17:\d+ {2}error {2}EmailAlertChannel "mail" {2}address: /);
    expect(lines.at(-1)).toBe('✗ 4 errors, 0 warnings: 3 constructs in 1 files');
  });

  it('prints the same diagnostics as JSON with --json', () => {
    const r = monitor(['validate', '--json'], join(fixtures, 'invalid-constructs'));
    expect(r.code).toBe(3);
    const out = JSON.parse(r.stdout) as {
      formatVersion: number;
      valid: boolean;
      summary: unknown;
      diagnostics: unknown[];
    };
    expect(out.formatVersion).toBe(1);
    expect(out.valid).toBe(false);
    expect(out.summary).toEqual({ errors: 4, warnings: 0 });
    expect(out.diagnostics[0]).toMatchObject({
      severity: 'error',
      construct: 'CheckGroup',
      logicalId: 'payments',
      path: 'concurrency',
      file: 'groups.monitor.ts',
      line: 11,
    });
  });

  it('takes --config', () => {
    const r = monitor(['validate', '--config', join(fixtures, 'mts-config', 'monitor.config.mts')], tmpdir());
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('mts: 2 constructs valid');
  });

  it('exits 3 on a project that does not load, with the reason', () => {
    const syntax = monitor(['validate'], join(fixtures, 'syntax-error'));
    expect(syntax.code).toBe(3);
    expect(syntax.stdout).toMatch(/^broken\.monitor\.ts:7:\d+ {2}error {2}Expected "}" but found "\)"/);
    const throws = monitor(['validate'], join(fixtures, 'throws'));
    expect(throws.code).toBe(3);
    expect(throws.stdout).toMatch(/^throws\.monitor\.ts:7:\d+ {2}error {2}.*unknown region "mars"/);
    const missing = monitor(['validate'], join(fixtures, 'missing-package'));
    expect(missing.stdout).toContain('Cannot find package "monitor-package-that-does-not-exist"');
  });

  it('exits 1 with a hint when there is no config', () => {
    const r = monitor(['validate'], mkdtempSync(join(tmpdir(), 'monitor-none-')));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: no monitor\.config\.ts found in /);
    expect(r.stderr).toMatch(/\nhint: create monitor\.config\.ts there/);
  });

  it('answers --help and --version, and rejects an unknown command', () => {
    const help = monitor(['--help'], tmpdir());
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('monitor validate');
    expect(help.stdout).toContain('Exit codes');
    const version = monitor(['--version'], tmpdir());
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const unknown = monitor(['frobnicate'], tmpdir());
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('hint: run monitor --help');
  });
});
