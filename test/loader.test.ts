import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineError, load, validateProject } from '@monitor/engine';
import { describe, expect, it } from 'vitest';
import { cleanup, writeProject } from './support/harness.js';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const examples = fileURLToPath(new URL('../examples/', import.meta.url));
const at = (name: string) => join(fixtures, name);
const rel = (file: string | undefined) => (file === undefined ? undefined : relative(fixtures, file));

describe('load', () => {
  it('loads a valid project: one bundle, constructs with their TypeScript locations', async () => {
    const project = await load({ cwd: join(at('valid'), 'monitors') });
    expect(project.configPath).toBe(join(at('valid'), 'monitor.config.ts'));
    expect(project.config.projectName).toBe('valid');
    expect(project.files.map(rel)).toEqual(['valid/monitors/web.monitor.ts']);
    expect(project.diagnostics).toEqual([]);
    expect(
      project.resources.map((r) => [r.kind, r.logicalId, rel(r.location?.file), r.location?.line]),
    ).toEqual([
      ['AlertChannel', 'mail', 'valid/monitors/web.monitor.ts', 3],
      ['CheckGroup', 'web', 'valid/monitors/web.monitor.ts', 4],
    ]);
    expect(project.resources[1]?.dependsOn).toEqual(['AlertChannel:mail']);
  });

  it('loads a .mts config and both .ts and .mts construct files', async () => {
    const project = await load({ cwd: at('mts-config') });
    expect(project.configPath.endsWith('monitor.config.mts')).toBe(true);
    expect(project.resources.map((r) => r.logicalId).sort()).toEqual(['from-mts', 'from-ts']);
  });

  it('includes a file outside the config directory through a glob', async () => {
    const project = await load({ cwd: join(at('outside'), 'project') });
    expect(project.files.map(rel)).toEqual([
      'outside/project/local.monitor.ts',
      'outside/shared/shared.monitor.ts',
    ]);
    expect(project.resources.map((r) => r.logicalId)).toEqual(['local', 'shared']);
  });

  it('loads a project that uses a construct library from a workspace package and tsconfig paths', async () => {
    const project = await load({ config: join(examples, 'basic', 'monitor.config.ts') });
    expect(project.diagnostics).toEqual([]);
    const kinds = new Set(project.resources.map((r) => r.construct));
    for (const construct of [
      'CheckGroup',
      'Dashboard',
      'StatusPage',
      'StatusPageService',
      'MaintenanceWindow',
      'EmailAlertChannel',
      'SlackAlertChannel',
      'SlackAppAlertChannel',
      'WebhookAlertChannel',
      'SmsAlertChannel',
      'PagerdutyAlertChannel',
      'OpsgenieAlertChannel',
      'PhoneCallAlertChannel',
    ]) {
      expect(kinds).toContain(construct);
    }
    const fromLibrary = project.resources.find((r) => r.logicalId === 'payments-api');
    expect(relative(examples, fromLibrary?.location?.file ?? '')).toBe('acme-constructs/src/index.ts');
    expect(fromLibrary?.payload.runtimeId).toBe('2026.04'); // from the config's defaults
    // File props resolve against the file that made the construct.
    const dashboard = project.resources.find((r) => r.logicalId === 'ops-dashboard');
    expect(dashboard?.payload.customCSS).toContain('.header');
    // ... also when the construct is made inside the library: the library's own theme file.
    const branded = project.resources.find((r) => r.logicalId === 'acme-branded');
    expect(branded?.payload.customCSS).toContain('.acme-brand');
    const checkout = project.resources.find((r) => r.logicalId === 'checkout');
    expect(checkout?.payload.localSetupScript).toContain('x-request-id');
    expect(checkout?.options.protect).toBe(true);
  });

  it('keeps no construct alive once synthesized: a resource keeps its location, not the construct and its props', () => {
    // A construct's captured stack (10 frames) holds the loader's frames, as it is made while the
    // loader awaits the import. The loader's session was reachable from them: one resource whose
    // location was never read kept every construct alive, props and all, as long as the project.
    // The construct is made in a block, not at the module's top level, which would keep it as long
    // as the module; with no diagnostic nor finding, nothing reads its location before the check.
    const dir = writeProject({
      'monitors/ops.monitor.ts': [
        "import { Dashboard } from '@monitor/constructs';",
        '{',
        "  const board = new Dashboard('ops', { header: 'Ops', customCSS: '.a {}'.repeat(10_000) });", // line 3
        '  (globalThis as Record<string, unknown>).made = new WeakRef(board);',
        '}',
      ].join('\n'),
    });
    try {
      const script = join(dir, 'check.mjs');
      writeFileSync(
        script,
        [
          `const { load } = await import(${JSON.stringify(import.meta.resolve('@monitor/engine'))});`,
          `const project = await load({ cwd: ${JSON.stringify(dir)} });`,
          'await new Promise((r) => setTimeout(r, 0));',
          'globalThis.gc();',
          'const [resource] = project.resources;',
          'const freed = globalThis.made.deref() === undefined;',
          'const read = { diagnostics: project.diagnostics.length, findings: project.findings.length };',
          'console.log(JSON.stringify({ freed, ...read, line: resource.location?.line }));',
        ].join('\n'),
      );
      // Nothing of the caller's Node options or colour settings, which could add warnings.
      const { NODE_OPTIONS: _options, FORCE_COLOR: _force, NO_COLOR: _no, ...env } = process.env;
      const run = spawnSync(process.execPath, ['--expose-gc', script], { cwd: dir, encoding: 'utf8', env });
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
      // Freed before its location was read, which the stack alone still gives.
      expect(JSON.parse(run.stdout)).toEqual({ freed: true, diagnostics: 0, findings: 0, line: 3 });
    } finally {
      cleanup(dir);
    }
  });

  it('names the missing config file to create', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'monitor-empty-'));
    const error = await load({ cwd: empty }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('config_not_found');
    expect((error as EngineError).message).toContain(empty);
    expect((error as EngineError).hint).toMatch(/create monitor\.config\.ts/);
    rmSync(empty, { recursive: true, force: true });
  });
});

describe('bad projects come back as diagnostics', () => {
  it("a TypeScript syntax error: esbuild's message at the user's file:line", async () => {
    const report = await validateProject({ cwd: at('syntax-error') });
    expect(report.valid).toBe(false);
    expect(report.diagnostics).toHaveLength(1);
    const [d] = report.diagnostics;
    expect(rel(d?.location?.file)).toBe('syntax-error/broken.monitor.ts');
    expect(d?.location?.line).toBe(7);
    expect(d?.message).toMatch(/Expected "}" but found "\)"/);
  });

  it('a file that throws at import: the stack mapped to the TypeScript source', async () => {
    const report = await validateProject({ cwd: at('throws') });
    expect(report.valid).toBe(false);
    const [d] = report.diagnostics;
    expect(d?.message).toContain('unknown region "mars"');
    expect(rel(d?.location?.file)).toBe('throws/throws.monitor.ts');
    expect(d?.location?.line).toBe(7);
    expect(d?.detail).toMatch(/throws\.monitor\.ts:7:\d+/);
    expect(d?.detail).toMatch(/throws\.monitor\.ts:12:\d+/);
    expect(d?.detail).not.toContain('.monitor/cache');
  });

  it('an import of a missing package: which package, which file', async () => {
    const report = await validateProject({ cwd: at('missing-package') });
    const [d] = report.diagnostics;
    expect(d?.message).toContain(
      'Cannot find package "monitor-package-that-does-not-exist" imported from uses-missing.monitor.ts',
    );
    expect(rel(d?.location?.file)).toBe('missing-package/uses-missing.monitor.ts');
    expect(d?.location?.line).toBe(2);
  });

  it('a config exporting nothing', async () => {
    const report = await validateProject({ cwd: at('no-default') });
    expect(report.valid).toBe(false);
    expect(report.diagnostics[0]?.message).toBe('monitor.config.ts has no default export');
    expect(rel(report.diagnostics[0]?.location?.file)).toBe('no-default/monitor.config.ts');
  });

  it('a config of the wrong shape', async () => {
    const report = await validateProject({ cwd: at('bad-config') });
    expect(report.diagnostics.map((d) => d.message)).toEqual([
      expect.stringMatching(/^config projectName: /),
      expect.stringMatching(/^config include: /),
    ]);
  });

  it('invalid constructs: every problem at once, each at the line of its own prop (the new call when it has none)', async () => {
    const report = await validateProject({ cwd: at('invalid-constructs') });
    expect(report.valid).toBe(false);
    expect(report.diagnostics.map((d) => [d.location?.line, d.construct, d.logicalId, d.path])).toEqual([
      [14, 'CheckGroup', 'payments', 'concurrency'],
      [13, 'CheckGroup', 'payments', 'locations[2]'],
      [17, 'EmailAlertChannel', 'mail', 'address'],
      [18, 'CheckGroup', 'payments', ''],
    ]);
    expect(report.diagnostics[3]?.message).toMatch(/duplicate logical id "payments".*groups\.monitor\.ts:11/);
  });
});
