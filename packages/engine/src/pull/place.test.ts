import { describe, expect, it } from 'vitest';
import { SourceText } from '../positions/prop-location.js';
import { placeNotPulled, placeResources } from './place.js';
import type { NotPulled, ResourcePull } from './types.js';

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

describe('placeNotPulled', () => {
  const FILE = '/p/alerts.monitor.ts';
  const TEXT = `const slack = new SlackAlertChannel('ops-slack', {
  url: requiredEnv('SLACK_URL'),
});
new CheckGroup('g', {
  name: 'G',
  environmentVariables: [
    { key: 'TOKEN', value: requiredEnv('T'), secret: true },
  ],
});
`;
  const sourceOf = (file: string) => (file === FILE ? new SourceText(TEXT) : undefined);
  const left = (
    kind: NotPulled['kind'],
    logicalId: string,
    line: number | undefined,
    path: string,
  ): NotPulled => ({
    key: `${kind}:${logicalId}`,
    kind,
    logicalId,
    ...(line === undefined ? {} : { location: { file: FILE, line, column: 15 } }),
    path,
    reason: 'secret',
  });

  it('gives each change left to people the line of its prop: a channel’s config field, a keyed list', () => {
    expect(
      placeNotPulled(
        [
          left('AlertChannel', 'ops-slack', 1, 'config.url'),
          left('CheckGroup', 'g', 4, 'environmentVariables[TOKEN].value'),
          left('CheckGroup', 'g', 4, 'muted'),
        ],
        sourceOf,
      ).map((n) => [n.path, n.file, n.line]),
    ).toEqual([
      ['config.url', FILE, 2],
      ['environmentVariables[TOKEN].value', FILE, 6],
      // Not written: the construct's own line.
      ['muted', FILE, 4],
    ]);
  });

  it('a construct with no place has none', () => {
    expect(placeNotPulled([left('CheckGroup', 'g', undefined, 'name')], sourceOf)[0]).toMatchObject({
      file: '',
      line: 0,
    });
  });
});
