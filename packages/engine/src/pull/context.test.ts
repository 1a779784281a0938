import { sourceRef } from '@monitor/constructs';
import { describe, expect, it } from 'vitest';
import { construct, entry, stateOf } from '../test-support/planning.js';
import { displayer, rewriteContext, variablesByLogicalId } from './context.js';

const FILES: Record<string, string> = {
  '/p/channels.monitor.ts': `export const oncall = new EmailAlertChannel('oncall', { address: 'a@b.co' });
const pager = new PagerdutyAlertChannel("pager", { serviceKey: requiredEnv('PD') });
let twice = new EmailAlertChannel('twice', { address: 'c@d.co' });
`,
  '/p/groups.monitor.ts': `const again = new EmailAlertChannel('twice', { address: 'c@d.co' });
new CheckGroup('g', { name: 'G' });
`,
};
const read = (file: string) => FILES[file] as string;

describe('the rewriting context', () => {
  it('finds the variables that hold each logical id’s construct, in every file', () => {
    const found = variablesByLogicalId(Object.keys(FILES), read);
    expect(Object.fromEntries([...found].map(([id, names]) => [id, [...names]]))).toEqual({
      oncall: ['oncall'],
      pager: ['pager'],
      twice: ['twice', 'again'],
    });
  });

  it('shows the account’s values by logical id, and secrets never', () => {
    const display = displayer((kind, id) => (kind === 'AlertChannel' && id === 7 ? 'oncall' : undefined));
    expect(
      display({
        channels: [sourceRef('AlertChannel', 7), sourceRef('AlertChannel', 8)],
        token: { $import: 'secret', path: 'token', value: 'x', masked: false },
        n: 1,
      }),
    ).toEqual({ channels: ['AlertChannel:oncall', 'AlertChannel:8'], token: '(secret)', n: 1 });
    expect(display(undefined)).toBeUndefined();
  });

  it('names a referenced construct by the one variable the file can see, and tells constructs made at one place', () => {
    const at = (line: number) => ({ location: { file: '/p/groups.monitor.ts', line, column: 1 } });
    const ctx = rewriteContext(
      {
        files: Object.keys(FILES),
        resources: [
          { ...construct('CheckGroup', 'a', {}), ...at(5) },
          { ...construct('CheckGroup', 'b', {}), ...at(5) },
          { ...construct('CheckGroup', 'g', {}), ...at(2) },
        ],
      },
      stateOf([entry('AlertChannel', 'oncall', 7), entry('AlertChannel', 'twice', 9)]),
      read,
    );
    expect(ctx.variableOf({ names: new Set(['oncall']) }, 'AlertChannel', 7)).toBe('oncall');
    // Not imported into this file, or unknown to state, or held by two variables it sees: none.
    expect(ctx.variableOf({ names: new Set() }, 'AlertChannel', 7)).toBeUndefined();
    expect(ctx.variableOf({ names: new Set(['oncall']) }, 'AlertChannel', 8)).toBeUndefined();
    expect(ctx.variableOf({ names: new Set(['twice', 'again']) }, 'AlertChannel', 9)).toBeUndefined();
    expect(ctx.variableOf({ names: new Set(['again']) }, 'AlertChannel', 9)).toBe('again');
    const pull = (logicalId: string, line: number) => ({
      key: `CheckGroup:${logicalId}`,
      kind: 'CheckGroup' as const,
      logicalId,
      construct: 'CheckGroup',
      edits: [],
      ...at(line),
    });
    expect(ctx.shared(pull('a', 5))).toBe(true);
    expect(ctx.shared(pull('g', 2))).toBe(false);
  });
});
