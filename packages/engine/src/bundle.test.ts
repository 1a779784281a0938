import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { BARE_EXCEPT_CONSTRUCTS, positionMap } from './bundle.js';

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
