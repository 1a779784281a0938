import { SourceMap } from 'node:module';
import { build, transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { mappingsIndex, positionMap } from './position-map.js';

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

  it('answers every position of a bundle of several files as node:module’s SourceMap does', async () => {
    const files: Record<string, string> = {
      'a.ts': [
        "import { b } from './b';",
        'export const a: number = b * 2;',
        '',
        '',
        'export class Thing { constructor(readonly name: string) {} }',
        "new Thing('x'.repeat(3));",
      ].join('\n'),
      'b.ts': [
        'type Unused = { n: number };',
        'export const b = [1, 2, 3].map((n) => n + 1).length;',
        "export const long = { one: 'one', two: 'two', three: { four: [4, 4, 4, 4] } };",
      ].join('\n'),
    };
    const out = await build({
      stdin: { contents: "import './a'; export * from './b';", resolveDir: '/', loader: 'ts' },
      bundle: true,
      write: false,
      format: 'esm',
      sourcemap: 'external',
      outfile: '/out.js',
      plugins: [
        {
          name: 'memory',
          setup(b) {
            b.onResolve({ filter: /^\.\// }, (args) => ({ path: `/${args.path.slice(2)}.ts` }));
            b.onLoad({ filter: /\.ts$/ }, (args) => ({
              contents: files[args.path.slice(1)] ?? '',
              loader: 'ts',
            }));
          },
        },
      ],
    });
    const code = out.outputFiles.find((f) => f.path.endsWith('.js'))?.text ?? '';
    const mapText = out.outputFiles.find((f) => f.path.endsWith('.map'))?.text ?? '';
    const ours = positionMap(mapText);
    const node = new SourceMap(JSON.parse(mapText));
    const lines = code.split('\n');
    let compared = 0;
    // Every column of every line, one past each end, and lines past the end of the file.
    for (let line = 0; line <= lines.length + 2; line++) {
      for (let column = 0; column <= (lines[line - 1]?.length ?? 3) + 1; column++) {
        const origin = node.findOrigin(line, column) as {
          fileName?: string;
          lineNumber?: number;
          columnNumber?: number;
        };
        const expected =
          origin.fileName === undefined
            ? undefined
            : { source: origin.fileName, line: origin.lineNumber, column: origin.columnNumber };
        expect(ours.lookup(line, column), `${line}:${column}`).toEqual(expected);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(300);
  });

  it('answers alike with an index made ahead, and makes its own when the one given does not fit', () => {
    const map = { version: 3, sources: ['a.ts', 'b.ts'], mappings: 'AAAA,EAAE;ACCA;;ECAA,IAAI;AACA' };
    const positions = [
      [1, 1],
      [1, 4],
      [2, 1],
      [3, 7],
      [4, 1],
      [4, 6],
      [5, 2],
    ] as const;
    const answers = (index?: Int32Array) =>
      positions.map(([l, c]) => positionMap(map, undefined, index).lookup(l, c));
    const expected = answers();
    expect(expected.filter((a) => a !== undefined).length).toBeGreaterThan(4);
    const index = mappingsIndex(JSON.stringify(map));
    expect(answers(index)).toEqual(expected);
    // Another map's index (other lines), and one whose line starts are not where lines start.
    expect(answers(mappingsIndex({ mappings: 'AAAA;AACA' }))).toEqual(expected);
    const shifted = index.slice();
    shifted[2] = (shifted[2] as number) + 1;
    expect(answers(shifted)).toEqual(expected);
    // Each start after a line break, but of another line.
    const swapped = index.slice();
    swapped[2] = index[3] as number;
    swapped[3] = index[2] as number;
    expect(answers(swapped)).toEqual(expected);
  });

  it('reads a map given as its bytes as it reads its text, whatever else is named "mappings"', () => {
    const maps = [
      { version: 3, sources: ['a.ts', 'b.ts'], mappings: 'AAAA,EAAE;ACCA;;ECAA,IAAI;AACA' },
      // A source named "mappings", written before the mappings themselves.
      {
        version: 3,
        sources: ['mappings', 'b.ts'],
        names: ['"mappings": "AAAA"'],
        mappings: 'AAAA;ACCA,EAAE',
      },
      { sources: ['"mappings":"x"'], mappings: 'AAAA;;ACAA' },
    ];
    for (const map of maps) {
      for (const text of [JSON.stringify(map), JSON.stringify(map, null, 2)]) {
        const fromText = positionMap(text);
        const fromBytes = positionMap(Buffer.from(text));
        for (let line = 1; line <= 6; line++)
          for (let column = 1; column <= 8; column++)
            expect(fromBytes.lookup(line, column), `${line}:${column}`).toEqual(
              fromText.lookup(line, column),
            );
      }
    }
    expect(positionMap(Buffer.from(JSON.stringify(maps[1]))).lookup(1, 1)).toEqual({
      source: 'mappings',
      line: 1,
      column: 1,
    });
  });

  it('names sources as node:module does, without the sourceRoot', () => {
    const payload = { version: 3, sourceRoot: 'root/', sources: ['a.ts'], mappings: 'AAAA,EAAE' };
    const node = new SourceMap(payload as ConstructorParameters<typeof SourceMap>[0]).findOrigin(1, 3) as {
      fileName?: string;
    };
    expect(positionMap(payload).lookup(1, 3)).toEqual({ source: node.fileName, line: 1, column: 3 });
    expect(node.fileName).toBe('a.ts');
  });

  it('maps nothing where the map has no entries', () => {
    expect(positionMap({ version: 3, sources: [], names: [], mappings: '' }).lookup(1, 1)).toBeUndefined();
    expect(positionMap({ version: 3, sources: ['a.ts'], mappings: ';;AAAA' }).lookup(1, 5)).toBeUndefined();
  });

  it('reads a damaged map without looping or throwing: what it cannot read maps to nothing', () => {
    const map = positionMap({ version: 3, sources: ['a.ts'], mappings: 'AAAA,!!*;ACAC,E~E;' });
    expect(map.lookup(1, 1)).toEqual({ source: 'a.ts', line: 1, column: 1 });
    for (let line = 1; line < 5; line++)
      for (let column = 1; column < 10; column++) expect(() => map.lookup(line, column)).not.toThrow();
    expect(positionMap({ version: 3, mappings: 'AAAA' }).lookup(1, 1)).toBeUndefined();
  });
});
