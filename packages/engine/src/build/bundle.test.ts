import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BARE_EXCEPT_CONSTRUCTS, configEntry, constructsEntry, EarlyBuilds } from './bundle.js';
import { BundleError } from './errors.js';

describe('the filter of the externals plugin', () => {
  it('sends every bare specifier to the plugin but exactly @monitor/constructs', () => {
    const matched = (s: string) => BARE_EXCEPT_CONSTRUCTS.test(s);
    for (const bare of [
      'zod',
      'node:fs',
      '@acme/monitor-constructs',
      '@monitor/api',
      '@monitor/construct',
      '@monitor/constructs-x',
      '@monitor/constructs/sub',
      '@m',
      'monitor',
    ])
      expect(matched(bare), bare).toBe(true);
    for (const other of ['@monitor/constructs', './a.ts', '../b', '/abs/c.ts'])
      expect(matched(other), other).toBe(false);
  });
});

describe('early builds', () => {
  /** A project directory, removed when the test finishes. */
  const project = () => {
    const dir = mkdtempSync(join(tmpdir(), 'monitor-early-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'a.monitor.ts');
    writeFileSync(file, 'console.log("version 1" as string);\n');
    return { dir, file };
  };
  const text = (b: { file: string }) => readFileSync(b.file, 'utf8');

  it('hands the first load the build started early when its entry is the same', async () => {
    const { dir, file } = project();
    const builds = new EarlyBuilds();
    await builds.start('constructs', constructsEntry([file]), dir);
    // The early build read the file before this change: taking it shows.
    writeFileSync(file, 'console.log("version 2" as string);\n');
    const b = await builds.bundle('constructs', constructsEntry([file]), dir);
    expect(text(b)).toContain('version 1');
    b.dispose();
    // Any later load builds anew, and a later early start is ignored.
    await builds.start('constructs', constructsEntry([file]), dir);
    const again = await builds.bundle('constructs', constructsEntry([file]), dir);
    expect(text(again)).toContain('version 2');
    again.dispose();
  });

  it('builds anew when the files differ from the early guess', async () => {
    const { dir, file } = project();
    const other = join(dir, 'b.monitor.ts');
    writeFileSync(other, 'console.log("other" as string);\n');
    const builds = new EarlyBuilds();
    builds.start('constructs', constructsEntry([file]), dir);
    const b = await builds.bundle('constructs', constructsEntry([file, other]), dir);
    expect(text(b)).toContain('"other"');
    b.dispose();
  });

  it('reports the failure of an early build to the load that takes it, as diagnostics', async () => {
    const { dir, file } = project();
    writeFileSync(file, 'export const broken = ;\n');
    const builds = new EarlyBuilds();
    builds.start('constructs', constructsEntry([file]), dir);
    // One that is never taken fails quietly (no unhandled rejection fails this test file).
    builds.start('config', configEntry(join(dir, 'missing.config.ts')), dir);
    const error = await builds.bundle('constructs', constructsEntry([file]), dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BundleError);
    expect((error as BundleError).diagnostics[0]?.location?.file).toBe(file);
  });
});
