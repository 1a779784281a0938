import { jsonPieces, SENSITIVE_VALUE } from '@monitor/api';
import { describe, expect, it } from 'vitest';
import type { Operation, UpdateOperation } from '../plan/plan.js';
import { planToJson, planToPrintedJson } from '../plan/plan-json.js';
import { planOf } from '../test-support/doubles.js';
import { renderPlanText } from './render.js';
import { PLAIN } from './style.js';

const desired = { dependsOn: [], desiredHash: 'h', protect: false, construct: 'CheckGroup' };

const secretGroup: Operation = {
  ...desired,
  kind: 'CheckGroup',
  logicalId: 'g',
  action: 'create',
  recreate: false,
  payload: { name: 'G', environmentVariables: [{ key: 'TOKEN', value: 'hunter2', secret: true }] },
};

describe('renderPlanText', () => {
  it('lists deletes first under a warning, code changes, then drift apart, and ends with the summary', () => {
    const text = renderPlanText(
      planOf([
        secretGroup,
        {
          ...desired,
          kind: 'CheckGroup',
          logicalId: 'drifted',
          action: 'update',
          physicalId: 7,
          drift: true,
          unchangedAttributes: 12,
          payload: {},
          changes: [{ path: 'muted', before: true, after: false }],
        },
        {
          ...desired,
          kind: 'CheckGroup',
          logicalId: 'edited',
          action: 'update',
          physicalId: 8,
          drift: false,
          unchangedAttributes: 1,
          payload: {},
          changes: [
            {
              path: 'environmentVariables[TOKEN].value',
              before: SENSITIVE_VALUE,
              after: SENSITIVE_VALUE,
              sensitive: true,
            },
            { path: 'tags', before: ['a'], after: ['a', 'b'] },
          ],
        },
        { kind: 'Dashboard', logicalId: 'old', action: 'delete', physicalId: 'd-1', dependsOn: [] },
      ]),
      PLAIN,
    );
    expect(text).toBe(
      [
        '! 1 resource will be DELETED from the account:',
        '  - Dashboard old (id d-1)',
        '',
        'Changes from the code:',
        '  + CheckGroup g',
        '  ~ CheckGroup edited (id 8)',
        '      environmentVariables[TOKEN].value: (sensitive value changed)',
        '      tags: ["a"] → ["a","b"]',
        '      (1 unchanged attribute hidden)',
        '',
        "Drift: changed outside monitor since the last deploy (deploy restores the code's values):",
        '  ~ CheckGroup drifted (id 7)',
        '      muted: true → false',
        '      (12 unchanged attributes hidden)',
        '',
        'Plan: 1 to create, 2 to update, 1 to delete, 0 to adopt, 3 unchanged.',
        '',
      ].join('\n'),
    );
    expect(text).not.toContain('hunter2');
  });

  it('shows multi-line strings as a unified diff with 3 lines of context', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].join('\n');
    const after = before.replace('e', 'E');
    const text = renderPlanText(
      planOf([
        {
          ...desired,
          kind: 'StatusPage',
          logicalId: 'p',
          action: 'update',
          physicalId: 'x',
          drift: false,
          unchangedAttributes: 0,
          payload: {},
          changes: [{ path: 'description', before, after }],
        },
      ]),
      PLAIN,
    );
    expect(text).toContain(
      [
        '      description:',
        '        @@ -2,7 +2,7 @@',
        '         b',
        '         c',
        '         d',
        '        -e',
        '        +E',
        '         f',
      ].join('\n'),
    );
  });

  it('lists the routing tests apart from the policy findings, and counts each in the summary', () => {
    const at = { file: '/p/monitor.config.ts', line: 7, column: 5 };
    const plan = planOf([], 3, {
      findings: [
        {
          severity: 'error',
          construct: 'CheckGroup',
          logicalId: 'g',
          path: 'muted',
          message: 'muted with no comment',
          policy: 'muted-group',
        },
        {
          severity: 'error',
          construct: 'CheckGroup',
          logicalId: 'payments-api',
          path: 'failure',
          message: 'failure pages slack-ops, expected pagerduty-oncall',
          location: at,
          policy: 'routing-test',
        },
      ],
    });
    const text = renderPlanText(plan, PLAIN, { cwd: '/p' });
    const [policies, routing] = text.split('Routing tests (1 error)');
    expect(policies).toContain('Policy findings (1 error): deploy refuses while an error stands:');
    expect(policies).toContain('[muted-group]');
    expect(policies).not.toContain('payments-api');
    expect(routing).toContain('CheckGroup payments-api  monitor.config.ts:7:5');
    expect(routing).toContain('failure: failure pages slack-ops, expected pagerduty-oncall');
    expect(routing).not.toContain('[routing-test]');
    expect(text).toContain('1 policy error, 1 routing test failed.');
  });

  it('says No changes when there is nothing to do, and paints with the painter it is given', () => {
    expect(renderPlanText(planOf([], 40), PLAIN)).toBe('No changes. 40 resources match the code.\n');
    const marked = { ...PLAIN, green: (s: string) => `<g>${s}</g>` };
    expect(renderPlanText(planOf([secretGroup]), marked)).toContain('<g>+</g>');
    expect(renderPlanText(planOf([secretGroup]), PLAIN)).not.toContain('<g>');
  });

  it('says which interrupted creates are dropped, and that is a change to state', () => {
    const text = renderPlanText({ ...planOf([], 2), abandonedCreates: ['AlertChannel:old'] }, PLAIN);
    expect(text).toContain(
      'Dropped from state: interrupted create of AlertChannel:old, gone from the code. If the service made it, it is in the account, not managed by monitor.',
    );
    expect(text).not.toContain('No changes');
  });
});

describe('planToJson', () => {
  it('is versioned, carries creates with secrets redacted, and holds no secret value', () => {
    const json = planToJson(planOf([secretGroup]));
    expect(json.formatVersion).toBe(1);
    expect(json.changes).toBe(true);
    expect(json.operations[0]).toMatchObject({
      action: 'create',
      after: { environmentVariables: [{ key: 'TOKEN', value: SENSITIVE_VALUE, secret: true }] },
    });
    expect(JSON.stringify(json)).not.toContain('hunter2');
  });
});

describe("an operation's JSON", () => {
  /** Each operation's fields as the JSON text has them, in order. */
  const fieldsOf = (ops: Operation[]) =>
    (
      JSON.parse(JSON.stringify(planToJson(planOf(ops)))) as { operations: Record<string, unknown>[] }
    ).operations.map((op) => [
      Object.keys(op),
      ...((op.changes as Record<string, unknown>[] | undefined) ?? []).map(Object.keys),
    ]);
  /** A check group's update of `changes`, with `fields` over the usual ones. */
  const updateOf = (
    changes: UpdateOperation['changes'],
    fields: Partial<UpdateOperation> = {},
  ): Operation => ({
    ...desired,
    kind: 'CheckGroup',
    logicalId: 'edited',
    action: 'update',
    physicalId: 9,
    drift: false,
    unchangedAttributes: 0,
    payload: {},
    changes,
    ...fields,
  });
  /** A sensitive value with no state secret to compare it with: the update only sends it again. */
  const resent = updateOf(
    [{ path: 'environmentVariables[TOKEN].value', before: undefined, after: 'x', unverified: true }],
    { logicalId: 'resent', unchangedAttributes: 2 },
  );

  it('has the fields of its action in their order, and none that does not apply', () => {
    const update = updateOf(
      [{ path: 'muted', before: true, after: false, sensitive: false, unverified: false }],
      { resumed: false },
    );
    expect(
      fieldsOf([
        secretGroup,
        { ...secretGroup, logicalId: 'again', action: 'replace', physicalId: 4 },
        update,
        { kind: 'Dashboard', logicalId: 'old', action: 'delete', physicalId: 'd-1', dependsOn: [] },
      ]),
    ).toEqual([
      [['action', 'kind', 'logicalId', 'construct', 'dependsOn', 'protect', 'recreate', 'after']],
      [['action', 'kind', 'logicalId', 'physicalId', 'construct', 'dependsOn', 'protect', 'after']],
      [
        [
          'action',
          'kind',
          'logicalId',
          'physicalId',
          'construct',
          'dependsOn',
          'protect',
          'drift',
          'changes',
          'unchangedAttributes',
        ],
        ['path', 'before', 'after'],
      ],
      [['action', 'kind', 'logicalId', 'physicalId']],
    ]);
  });

  it('has the optional fields where they apply, in their places', () => {
    expect(
      fieldsOf([
        {
          ...desired,
          kind: 'CheckGroup',
          logicalId: 'moved',
          name: 'Moved',
          action: 'move',
          from: 'old-id',
          resumed: true,
          physicalId: 8,
          drift: false,
          unchangedAttributes: 0,
          payload: {},
          changes: [
            { path: 'name', before: 'a', after: 'b', sensitive: true, unverified: true, cause: 'code' },
          ],
        },
        resent,
        {
          kind: 'Dashboard',
          logicalId: 'old',
          name: 'Old',
          action: 'delete',
          physicalId: 'd-1',
          dependsOn: [],
        },
      ]),
    ).toEqual([
      [
        [
          'action',
          'kind',
          'logicalId',
          'name',
          'physicalId',
          'construct',
          'dependsOn',
          'protect',
          'from',
          'resumed',
          'drift',
          'changes',
          'unchangedAttributes',
        ],
        ['path', 'before', 'after', 'sensitive', 'unverified', 'cause'],
      ],
      [
        [
          'action',
          'kind',
          'logicalId',
          'physicalId',
          'construct',
          'dependsOn',
          'protect',
          'resendOnly',
          'drift',
          'changes',
          'unchangedAttributes',
        ],
        ['path', 'before', 'after', 'unverified'],
      ],
      [['action', 'kind', 'logicalId', 'name', 'physicalId']],
    ]);
  });

  it('is written with its values: a side a change does not have is null, a flag that applies is true', () => {
    expect(JSON.stringify(planToJson(planOf([resent])).operations[0])).toBe(
      '{"action":"update","kind":"CheckGroup","logicalId":"resent","physicalId":9,"construct":"CheckGroup",' +
        '"dependsOn":[],"protect":false,"resendOnly":true,"drift":false,' +
        '"changes":[{"path":"environmentVariables[TOKEN].value","before":null,"after":"x","unverified":true}],' +
        '"unchangedAttributes":2}',
    );
  });
});

describe('planToPrintedJson', () => {
  const plan = planOf([
    secretGroup,
    { ...secretGroup, logicalId: 'again', action: 'replace', physicalId: 4 },
    {
      ...desired,
      kind: 'CheckGroup',
      logicalId: 'edited',
      action: 'update',
      physicalId: 8,
      drift: false,
      unchangedAttributes: 1,
      payload: {},
      changes: [{ path: 'environmentVariables[TOKEN].value', before: 'a', after: 'b', sensitive: true }],
    },
    { kind: 'Dashboard', logicalId: 'old', action: 'delete', physicalId: 'd-1', dependsOn: [] },
  ]);

  it("is written as planToJson is, each operation's JSON made only as it is written", () => {
    const printed = planToPrintedJson(plan);
    expect(JSON.stringify(printed, null, 2)).toBe(JSON.stringify(planToJson(plan), null, 2));
    expect([...jsonPieces({ plan: printed })].join('')).toBe(
      JSON.stringify({ plan: planToJson(plan) }, null, 2),
    );
    expect(JSON.stringify(printed)).not.toContain('hunter2');
  });

  it("reads an operation's payload only when its JSON is written", () => {
    let reads = 0;
    const watched = planOf([
      {
        ...secretGroup,
        payload: {
          get name() {
            reads++;
            return 'G';
          },
        },
      },
    ]);
    const printed = planToPrintedJson(watched);
    expect(reads).toBe(0);
    expect(JSON.stringify(printed)).toContain('"name":"G"');
    expect(reads).toBe(1);
  });
});

/** What a terminal acts on: a control character (C0 but the line break, DEL, C1) or a format character (bidi, zero-width). */
const TERMINAL_CONTROL = /(?!\n)[\p{Cc}\p{Cf}]/u;

describe('renderPlanText with control characters from the account and the code', () => {
  const hostile =
    'x\u001b[2J\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007\r\u009b31m\u202eevil\u200b';
  const plan = planOf(
    [
      { ...secretGroup, logicalId: 'new', name: hostile },
      {
        ...desired,
        kind: 'StatusPage',
        logicalId: 'page',
        name: hostile,
        action: 'move',
        from: hostile,
        physicalId: hostile,
        drift: false,
        unchangedAttributes: 1,
        payload: {},
        changes: [
          { path: `cards[${hostile}].title`, before: hostile, after: 'plain' },
          { path: 'description', before: `one\n${hostile}\nthree`, after: 'one\ntwo\nthree' },
        ],
      },
      {
        kind: 'Dashboard',
        logicalId: 'old',
        name: hostile,
        action: 'delete',
        physicalId: hostile,
        dependsOn: [],
      },
    ],
    3,
    {
      conflicts: [
        {
          reason: 'owned',
          kind: 'CheckGroup',
          logicalId: 'taken',
          construct: 'CheckGroup',
          location: { file: `/repo/${hostile}.monitor.ts`, line: 1, column: 1 },
          field: 'name',
          value: hostile,
          live: { id: hostile, name: hostile },
          holder: hostile,
        },
      ],
      forget: [hostile],
      protectedKept: [hostile],
      abandonedCreates: [hostile],
    },
  );

  it('shows every control character as its escape, in names, ids, paths, values, diffs and conflicts', () => {
    const text = renderPlanText(plan, PLAIN);
    expect(text).not.toMatch(TERMINAL_CONTROL);
    expect(text).toContain(
      '\\x1b[2J\\x1b]8;;https://evil.example\\x07click\\x1b]8;;\\x07\\r\\x9b31m\\u202eevil\\u200b',
    );
    // The multi-line value is still a diff, line by line.
    expect(text).toContain('        -x\\x1b[2J');
    expect(text).toContain('        +two');
  });

  it('keeps the colours the renderer paints with, and only those', () => {
    const red = { ...PLAIN, red: (s: string) => `\u001b[31m${s}\u001b[39m` };
    const text = renderPlanText(plan, red);
    expect(text).toContain('\u001b[31m');
    expect(text.replaceAll('\u001b[31m', '').replaceAll('\u001b[39m', '')).not.toMatch(TERMINAL_CONTROL);
  });
});

describe('conflicts', () => {
  // No kind has a sensitive natural key today; a conflict over one must still never quote it.
  const conflict = {
    reason: 'exists' as const,
    kind: 'AlertChannel' as const,
    logicalId: 'slack',
    construct: 'SlackAlertChannel',
    field: 'config.url',
    value: 'https://hooks.slack.com/services/c4n4ry',
    live: { id: 4 },
  };

  it('are described through the kind definition: a sensitive value is never quoted, in text or JSON', () => {
    const plan = planOf([], 0, { conflicts: [conflict] });
    const text = renderPlanText(plan, PLAIN);
    expect(text).toContain(
      `an alert channel with config.url (sensitive value, ${conflict.value.length} characters)`,
    );
    const json = JSON.stringify(planToJson(plan));
    for (const out of [text, json]) expect(out).not.toContain('c4n4ry');
  });

  it('quote a value that is not sensitive', () => {
    const plan = planOf([], 0, {
      conflicts: [{ ...conflict, kind: 'CheckGroup', field: 'name', value: 'Payments' }],
    });
    expect(renderPlanText(plan, PLAIN)).toContain('with name "Payments" already exists');
    expect(planToJson(plan).conflicts[0]?.value).toBe('Payments');
  });
});
