import { describe, expect, it } from 'vitest';
import { placeResources } from './place.js';
import type { ResourcePull } from './types.js';

const pull = (logicalId: string, file: string | undefined): ResourcePull => ({
  key: `CheckGroup:${logicalId}`,
  kind: 'CheckGroup',
  logicalId,
  construct: 'CheckGroup',
  ...(file === undefined ? {} : { location: { file, line: 4, column: 1 } }),
  edits: [
    {
      path: 'name',
      steps: [{ field: 'name' }],
      value: 'N',
      valuesAlong: ['N'],
      listsAlong: [undefined],
      changes: ['name'],
      references: false,
    },
  ],
});

describe('placeResources', () => {
  it('groups constructs by the project file that makes them, files in order', () => {
    const placed = placeResources(
      [pull('b', '/p/b.monitor.ts'), pull('a', '/p/a.monitor.ts'), pull('a2', '/p/a.monitor.ts')],
      ['/p/a.monitor.ts', '/p/b.monitor.ts'],
      (v) => v,
    );
    expect([...placed.byFile].map(([file, rs]) => [file, rs.map((r) => r.logicalId)])).toEqual([
      ['/p/a.monitor.ts', ['a', 'a2']],
      ['/p/b.monitor.ts', ['b']],
    ]);
    expect(placed.manual).toEqual([]);
  });

  it('leaves a construct made outside the project’s files (a library) to people, with the account’s value', () => {
    const placed = placeResources(
      [pull('lib', '/p/node_modules/lib/index.js'), pull('elsewhere', '/q/x.ts'), pull('nowhere', undefined)],
      ['/p/a.monitor.ts'],
      (v) => `shown ${String(v)}`,
    );
    expect(placed.byFile.size).toBe(0);
    expect(placed.manual.map((m) => [m.key, m.file, m.line, m.value])).toEqual([
      ['CheckGroup:lib', '/p/node_modules/lib/index.js', 4, 'shown N'],
      ['CheckGroup:elsewhere', '/q/x.ts', 4, 'shown N'],
      ['CheckGroup:nowhere', '', 0, 'shown N'],
    ]);
    expect(placed.manual[0]?.reason).toBe('the construct is made outside the project’s files (a library)');
  });
});
