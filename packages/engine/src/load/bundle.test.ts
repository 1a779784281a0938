import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  BARE_EXCEPT_CONSTRUCTS,
  BundleError,
  configEntry,
  constructsEntry,
  EarlyBuilds,
  positionMap,
} from './bundle.js';

describe('positionMap', () => {
  it('maps generated positions back to the TypeScript source, as esbuild wrote them', async () => {
    const source = [
      'interface A {', // 1: vanishes
      '  x: number;',
      '}',
      'type B = string;', // 4: vanishes
      'export const first: A = { x: 1 };', // 5
      '',
      'export function second(b: B): B {', // 7
      '  return b.toUpperCase();', // 8
      '}',
    ].join('\n');
    const out = await transform(source, {
      loader: 'ts',
      sourcemap: 'external',
      sourcefile: 'input.ts',
      format: 'esm',
    });
    const map = positionMap(JSON.parse(out.map) as object, (s) => `/abs/${s}`);
    const lines = out.code.split('\n');
    const find = (needle: string) => {
      const line = lines.findIndex((l) => l.includes(needle));
      return { line: line + 1, column: (lines[line]?.indexOf(needle) ?? 0) + 1 };
    };
    const first = find('const first');
    expect(map.lookup(first.line, first.column)).toEqual({ source: '/abs/input.ts', line: 5, column: 8 });
    const upper = find('b.toUpperCase');
    expect(map.lookup(upper.line, upper.column)).toEqual({ source: '/abs/input.ts', line: 8, column: 10 });
  });

  it('maps nothing where the map has no entries', () => {
    expect(positionMap({ version: 3, sources: [], names: [], mappings: '' }).lookup(1, 1)).toBeUndefined();
  });
});

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
