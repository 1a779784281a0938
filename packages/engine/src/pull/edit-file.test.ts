import { describe, expect, it } from 'vitest';
import { editProjectFile } from './edit-file.js';
import { PullFailedError, PullSyntaxError } from './errors.js';
import * as rewriter from './rewrite.js';
import type { ResourcePull, RewriteContext } from './types.js';

const ctx: RewriteContext = { variableOf: () => undefined, display: (v) => v, shared: () => false };
const FILE = '/p/monitors/a.monitor.ts';
const TEXT = `new CheckGroup('g', {\n  name: 'G',\n});\n`;

const renamed = (value: string): ResourcePull => ({
  key: 'CheckGroup:g',
  kind: 'CheckGroup',
  logicalId: 'g',
  construct: 'CheckGroup',
  location: { file: FILE, line: 1, column: 1 },
  edits: [
    {
      path: 'name',
      steps: [{ field: 'name' }],
      value,
      valuesAlong: [value],
      listsAlong: [undefined],
      changes: ['name'],
      references: false,
    },
  ],
});

describe('editProjectFile', () => {
  it('rewrites a file and gives the edit as git shows it, paths relative to the project', () => {
    const edit = editProjectFile(rewriter, '/p', FILE, TEXT, [renamed('G2')], ctx);
    expect(edit.pulled).toEqual([{ key: 'CheckGroup:g', path: 'name', line: 2, file: FILE }]);
    expect(edit.edited?.after).toBe(TEXT.replace("'G'", "'G2'"));
    expect(edit.edited?.patch).toBe(
      [
        '--- a/monitors/a.monitor.ts',
        '+++ b/monitors/a.monitor.ts',
        '@@ -1,3 +1,3 @@',
        " new CheckGroup('g', {",
        "-  name: 'G',",
        "+  name: 'G2',",
        ' });',
        '',
      ].join('\n'),
    );
  });

  it('a file where nothing changes is not an edit', () => {
    const edit = editProjectFile(rewriter, '/p', FILE, `new CheckGroup('g', props);\n`, [renamed('G2')], ctx);
    expect(edit.edited).toBeUndefined();
    expect(edit.manual.map((m) => [m.file, m.reason])).toEqual([
      [FILE, 'the props are not written as an object here'],
    ]);
  });

  it('refuses a file that does not parse, before or after the edit', () => {
    expect(() => editProjectFile(rewriter, '/p', FILE, `${TEXT})`, [renamed('G2')], ctx)).toThrow(
      PullSyntaxError,
    );
    const breaking = { ...rewriter, rewriteFile: () => ({ text: `${TEXT}(`, pulled: [], manual: [] }) };
    expect(() => editProjectFile(breaking, '/p', FILE, TEXT, [renamed('G2')], ctx)).toThrow(PullFailedError);
  });
});
