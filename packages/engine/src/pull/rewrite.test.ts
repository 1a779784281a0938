import { sourceRef } from '@monitor/constructs';
import { describe, expect, it } from 'vitest';
import type { PropValue } from '../import/values.js';
import { rewriteFile, syntaxErrors } from './rewrite.js';
import type { PropEdit, PropStep, ResourcePull, RewriteContext } from './types.js';

/** An edit of `path` (fields and `list[KEY]` entries keyed by `key`) to the account's `value`. */
function edit(path: string, values: (PropValue | undefined)[], options: Partial<PropEdit> = {}): PropEdit {
  const steps: PropStep[] = path.split('.').map((part) => {
    const m = /^([^[]+)\[(.*)\]$/.exec(part);
    return m === null
      ? { field: part }
      : { field: m[1] as string, entry: { key: m[2] as string, keyField: 'key' } };
  });
  return {
    path,
    steps,
    value: values[values.length - 1],
    valuesAlong: values,
    listsAlong: steps.map(() => undefined),
    changes: [path],
    references: false,
    ...options,
  };
}

function resource(line: number, edits: PropEdit[], logicalId = 'g'): ResourcePull {
  return {
    key: `CheckGroup:${logicalId}`,
    kind: 'CheckGroup',
    logicalId,
    construct: 'CheckGroup',
    location: { file: '/p/a.monitor.ts', line, column: 1 },
    edits,
  };
}

const ctx: RewriteContext = {
  variableOf: (finder, _kind, id) => (id === 7 && finder.names.has('oncall') ? 'oncall' : undefined),
  display: (v) => v,
  shared: () => false,
};

const rewrite = (text: string, resources: ResourcePull[], c: RewriteContext = ctx) =>
  rewriteFile('/p/a.monitor.ts', text, resources, c);

const GROUP = `import { CheckGroup } from '@monitor/constructs';

// Payments: owned by the payments team.
new CheckGroup('g', {
  name: 'Payments', // shown in the UI
  locations: ['eu-west-1'],
  alertSettings: { reminders: { amount: 0, interval: 5 } },
  environmentVariables: [
    { key: 'API_URL', value: 'https://a.example' },
    { key: 'MODE', value: 'live' },
  ],
});
`;

describe('rewriteFile', () => {
  it('replaces literal values in place, keeping comments, formatting and every other line', () => {
    const r = rewrite(GROUP, [
      resource(4, [
        edit('name', ['Payments (prod)']),
        edit('locations', [['eu-west-1', 'us-east-1']]),
        edit('alertSettings.reminders.amount', [{}, {}, 2]),
        edit('environmentVariables[API_URL].value', [
          { key: 'API_URL', value: 'https://b.example' },
          'https://b.example',
        ]),
      ]),
    ]);
    expect(r.manual).toEqual([]);
    expect(r.pulled.map((p) => [p.path, p.line])).toEqual([
      ['name', 5],
      ['locations', 6],
      ['alertSettings.reminders.amount', 7],
      ['environmentVariables[API_URL].value', 9],
    ]);
    expect(r.text).toBe(
      GROUP.replace("'Payments',", "'Payments (prod)',")
        .replace("['eu-west-1'],", "['eu-west-1', 'us-east-1'],")
        .replace('amount: 0', 'amount: 2')
        .replace("'https://a.example'", "'https://b.example'"),
    );
  });

  it('adds a prop the code does not write, in the style of the object (one line or one per line)', () => {
    const oneLine = `new CheckGroup('g', { name: 'G' });\n`;
    expect(rewrite(oneLine, [resource(1, [edit('concurrency', [3])])]).text).toBe(
      `new CheckGroup('g', { name: 'G', concurrency: 3 });\n`,
    );
    const trailing = `new CheckGroup('g', {\n  name: 'G',\n});\n`;
    expect(rewrite(trailing, [resource(1, [edit('muted', [true]), edit('concurrency', [3])])]).text).toBe(
      `new CheckGroup('g', {\n  name: 'G',\n  muted: true,\n  concurrency: 3,\n});\n`,
    );
    const nested = `new CheckGroup('g', {\n  name: 'G',\n  alertSettings: { escalationType: 'RUN_BASED' },\n});\n`;
    expect(
      rewrite(nested, [resource(1, [edit('alertSettings.reminders', [{}, { amount: 1, interval: 5 }])])])
        .text,
    ).toBe(
      `new CheckGroup('g', {\n  name: 'G',\n  alertSettings: { escalationType: 'RUN_BASED', reminders: { amount: 1, interval: 5 } },\n});\n`,
    );
  });

  it('edits the props, never the options after them (new’s third argument)', () => {
    const text = [
      "new CheckGroup('g', { name: 'G', tags: ['a'] }, {",
      '  protect: true,',
      "  ignoreChanges: ['muted'],",
      '});',
      '',
    ].join('\n');
    const r = rewrite(text, [resource(1, [edit('name', ['G2']), edit('concurrency', [3])])]);
    expect(r.manual).toEqual([]);
    expect(r.text).toBe(
      text.replace("{ name: 'G', tags: ['a'] }", "{ name: 'G2', tags: ['a'], concurrency: 3 }"),
    );
  });

  it('adds, changes and removes entries of a keyed list by their key', () => {
    const r = rewrite(GROUP, [
      resource(4, [
        edit('environmentVariables[MODE]', [undefined]),
        edit('environmentVariables[NEW]', [{ key: 'NEW', value: 'n' }]),
      ]),
    ]);
    expect(r.manual).toEqual([]);
    expect(r.text).toContain(
      `  environmentVariables: [\n    { key: 'API_URL', value: 'https://a.example' },\n    { key: 'NEW', value: 'n' },\n  ],`,
    );
    expect(r.text).not.toContain('MODE');
  });

  it('leaves computed values to people, with their line and the account’s value', () => {
    const text = `const REGIONS = ['eu-west-1'];
const base = { muted: false };
new CheckGroup('g', {
  ...base,
  name: groupName(),
  locations: REGIONS,
});
`;
    const r = rewrite(text, [
      resource(3, [edit('name', ['N']), edit('locations', [['us-east-1']]), edit('concurrency', [2])]),
    ]);
    expect(r.text).toBe(text);
    expect(r.pulled).toEqual([]);
    expect(r.manual.map((m) => [m.path, m.line, m.reason, m.value])).toEqual([
      ['name', 5, 'its value is computed, not written as a literal', 'N'],
      ['locations', 6, 'its value is computed, not written as a literal', ['us-east-1']],
      ['concurrency', 3, 'it may come from a spread', 2],
    ]);
  });

  it('props not written as an object, or a construct made by shared code, are left to people', () => {
    const text = `new CheckGroup('g', props);\n`;
    expect(rewrite(text, [resource(1, [edit('name', ['N'])])]).manual[0]?.reason).toBe(
      'the props are not written as an object here',
    );
    const shared = rewrite(`new CheckGroup('g', { name: 'G' });\n`, [resource(1, [edit('name', ['N'])])], {
      ...ctx,
      shared: () => true,
    });
    expect(shared.manual[0]?.reason).toBe('the construct is made by code that makes others too');
    expect(shared.text).toBe(`new CheckGroup('g', { name: 'G' });\n`);
  });

  it('writes references as the variables that hold them, and leaves one with no variable here', () => {
    const text = `const oncall = new EmailAlertChannel('oncall', { address: 'a@b.co' });
new CheckGroup('g', { name: 'G', alertChannels: [] });
`;
    const refs = (id: number) =>
      edit('alertChannels', [[sourceRef('AlertChannel', id)] as PropValue], { references: true });
    expect(rewrite(text, [resource(2, [refs(7)])]).text).toContain('alertChannels: [oncall] });');
    const unknown = rewrite(text, [resource(2, [refs(8)])]);
    expect(unknown.text).toBe(text);
    expect(unknown.manual[0]?.reason).toBe('it refers to a resource with no variable in this file');
    // A list of variables becomes empty when the account unsubscribed them all.
    const subscribed = `const oncall = new EmailAlertChannel('oncall', { address: 'a@b.co' });
new CheckGroup('g', { name: 'G', alertChannels: [oncall] });
`;
    expect(
      rewrite(subscribed, [resource(2, [edit('alertChannels', [[]], { references: true })])]).text,
    ).toContain('alertChannels: [] });');
  });

  it('finds the construct by its line and logical id among others', () => {
    const text = `new CheckGroup('a', { name: 'A' }); new CheckGroup('b', { name: 'B' });\n`;
    const r = rewrite(text, [resource(1, [edit('name', ['B2'])], 'b')]);
    expect(r.text).toBe(`new CheckGroup('a', { name: 'A' }); new CheckGroup('b', { name: 'B2' });\n`);
  });

  it('two constructs made on one line, neither with the logical id: neither is edited', () => {
    const text = `new CheckGroup(idA, { name: 'A' }); new CheckGroup(idB, { name: 'B' });\n`;
    const r = rewrite(text, [resource(1, [edit('name', ['N'])], 'c')]);
    expect(r.text).toBe(text);
    expect(r.pulled).toEqual([]);
    expect(r.manual.map((m) => [m.path, m.line, m.reason])).toEqual([
      ['name', 1, 'the construct is not made here with new'],
    ]);
  });

  it('tells a file that does not parse', () => {
    expect(syntaxErrors('a.ts', `new CheckGroup('g', { name: 'G' );\n`)).toEqual([
      expect.stringMatching(/^1:\d+ /),
    ]);
    expect(syntaxErrors('a.ts', GROUP)).toEqual([]);
  });
});

/** The lines of `after` that are not in `before`, and those of `before` gone from it, as a reviewer reads a diff. */
function changedLines(before: string, after: string): { added: string[]; removed: string[] } {
  const a = before.split('\n');
  const b = after.split('\n');
  return { added: b.filter((l) => !a.includes(l)), removed: a.filter((l) => !b.includes(l)) };
}

describe('rewriteFile keeps the user’s layout', () => {
  it('a set gains the account’s new item at its end, in the user’s order, not the account’s', () => {
    const text = `new CheckGroup('g', { name: 'G', locations: ['eu-west-1', 'us-west-2'] });\n`;
    const r = rewrite(text, [
      resource(1, [edit('locations', [['ap-southeast-2', 'eu-west-1', 'us-west-2']])]),
    ]);
    expect(r.text).toBe(
      `new CheckGroup('g', { name: 'G', locations: ['eu-west-1', 'us-west-2', 'ap-southeast-2'] });\n`,
    );
    const dropped = rewrite(text, [resource(1, [edit('locations', [['us-west-2']])])]);
    expect(dropped.text).toBe(`new CheckGroup('g', { name: 'G', locations: ['us-west-2'] });\n`);
  });

  it('a list written one item per line changes by one line for one item', () => {
    const text = `new CheckGroup('g', {
  name: 'G',
  locations: [
    'us-west-2',
    'eu-west-1',
  ],
});
`;
    const added = rewrite(text, [
      resource(1, [edit('locations', [['ap-southeast-2', 'eu-west-1', 'us-west-2']])]),
    ]);
    expect(changedLines(text, added.text)).toEqual({ added: ["    'ap-southeast-2',"], removed: [] });
    const swapped = rewrite(text, [resource(1, [edit('locations', [['ap-southeast-2', 'us-west-2']])])]);
    expect(swapped.text).toBe(text.replace("'eu-west-1'", "'ap-southeast-2'"));
    const removed = rewrite(text, [resource(1, [edit('locations', [['us-west-2']])])]);
    expect(changedLines(text, removed.text)).toEqual({ added: [], removed: ["    'eu-west-1',"] });
  });

  it('a renamed status-page card is one line changed, where it was, in a list of one card per line', () => {
    const text = `const api = new StatusPageService('api', { name: 'API' });
const web = new StatusPageService('web', { name: 'Web' });
new StatusPage('status', {
  name: 'Status',
  cards: [
    { name: 'Core', services: [api] },
    { name: 'Frontend', services: [web] },
  ],
});
`;
    const refs: RewriteContext = {
      ...ctx,
      variableOf: (finder, _kind, id) => {
        const name = id === 'svc-api' ? 'api' : id === 'svc-web' ? 'web' : undefined;
        return name !== undefined && finder.names.has(name) ? name : undefined;
      },
    };
    const cards = [
      { name: 'Core services', services: [sourceRef('StatusPageService', 'svc-api')] },
      { name: 'Frontend', services: [sourceRef('StatusPageService', 'svc-web')] },
    ] as PropValue;
    const r = rewrite(
      text,
      [
        {
          ...resource(3, [edit('cards', [cards], { entries: { keyField: 'name', changed: [] } })], 'status'),
          key: 'StatusPage:status',
          kind: 'StatusPage',
          construct: 'StatusPage',
        },
      ],
      refs,
    );
    expect(r.manual).toEqual([]);
    expect(r.text).toBe(
      text.replace("{ name: 'Core', services: [api] }", "{ name: 'Core services', services: [api] }"),
    );
  });

  it('an entry changed inside is written where it is, an entry added goes at the end', () => {
    const list = [
      { key: 'MODE', value: 'live' },
      { key: 'API_URL', value: 'https://b.example' },
      { key: 'NEW', value: 'n' },
    ] as PropValue;
    const r = rewrite(GROUP, [
      resource(4, [
        edit('environmentVariables', [list], { entries: { keyField: 'key', changed: ['API_URL'] } }),
      ]),
    ]);
    // In the code's order, the entry added after the others: not the account's order.
    expect(r.text).toBe(
      GROUP.replace("'https://a.example' },", "'https://b.example' },").replace(
        "    { key: 'MODE', value: 'live' },\n",
        "    { key: 'MODE', value: 'live' },\n    { key: 'NEW', value: 'n' },\n",
      ),
    );
  });

  it('a value written over several lines is written again over several lines', () => {
    const text = `new CheckGroup('g', {
  name: 'G',
  alertSettings: {
    escalationType: 'RUN_BASED',
  },
});
`;
    const r = rewrite(text, [resource(1, [edit('alertSettings', [{ escalationType: 'TIME_BASED' }])])]);
    expect(r.text).toBe(text.replace('RUN_BASED', 'TIME_BASED'));
  });
});
