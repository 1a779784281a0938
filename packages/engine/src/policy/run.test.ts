import { definePolicy, type Policy } from '@monitor/constructs';
import { describe, expect, it } from 'vitest';
import { plan } from '../plan/plan.js';
import { SourceText } from '../positions/prop-location.js';
import { emptyState } from '../state/state.js';
import { construct, liveOf } from '../test-support/planning.js';
import { groupWithoutAlertChannel } from './builtins.js';
import { blockingFindings, inSourceOrder, runConstructPolicies, runPlanPolicies } from './run.js';
import { type PolicySet, selectPolicies } from './select.js';

const options = { environment: 'prod', sourceOf: () => undefined };
const location = { file: '/p/a.monitor.ts', line: 3, column: 1 };

/** Only `policies`, at their own severities: the built-ins are turned off. */
function only(...policies: Policy[]) {
  const builtIns = selectPolicies([], {}).set.active.map((a) => a.policy.name);
  const { set, problems } = selectPolicies(policies, Object.fromEntries(builtIns.map((n) => [n, 'off'])));
  expect(problems).toEqual([]);
  return set;
}

const groups = [
  { ...construct('CheckGroup', 'pay', { name: 'Pay', tags: ['team:pay'] }), location },
  {
    ...construct(
      'CheckGroup',
      'search',
      { name: 'Search', tags: [] },
      { policyExceptions: [{ policy: 'owner-tag', reason: 'owned by everyone' }] },
    ),
    location,
  },
  { ...construct('CheckGroup', 'misc', { name: 'Misc', tags: [] }), location },
];

const ownerTag = definePolicy({
  name: 'owner-tag',
  description: 'Every group names its team.',
  severity: 'error',
  kinds: ['CheckGroup'],
  check: (group) =>
    (group.payload.tags as string[]).some((t) => t.startsWith('team:'))
      ? undefined
      : { path: 'tags', message: `has no team:* tag (${group.environment})` },
});

describe('construct rules', () => {
  it('report each construct at its place, and waive what its policyExceptions name, keeping it listed', () => {
    const found = runConstructPolicies(groups, only(ownerTag), options);
    expect(found).toEqual([
      {
        severity: 'info',
        construct: 'CheckGroup',
        logicalId: 'search',
        location,
        path: 'tags',
        message: 'has no team:* tag (prod)',
        policy: 'owner-tag',
        waived: { severity: 'error', reason: 'owned by everyone' },
      },
      {
        severity: 'error',
        construct: 'CheckGroup',
        logicalId: 'misc',
        location,
        path: 'tags',
        message: 'has no team:* tag (prod)',
        policy: 'owner-tag',
      },
    ]);
    expect(blockingFindings(found).map((f) => f.logicalId)).toEqual(['misc']);
  });

  it('place each finding at its prop, reading each file as its constructs are judged', () => {
    const source = [
      "import { CheckGroup } from '@monitor/constructs';",
      '',
      "new CheckGroup('misc', {",
      "  name: 'Misc',",
      '  tags: [],',
      '});',
    ].join('\n');
    const read: string[] = [];
    const sourceOf = (file: string) => {
      read.push(file);
      return file === location.file ? new SourceText(source) : undefined;
    };
    const found = runConstructPolicies(groups, only(ownerTag), { environment: 'prod', sourceOf });
    expect(found.map((f) => [f.logicalId, f.location?.line, f.location?.column])).toEqual([
      ['search', 5, 3],
      ['misc', 5, 3],
    ]);
    expect(new Set(read)).toEqual(new Set([location.file]));
  });

  it('take the severity the config gives', () => {
    const { set } = selectPolicies([ownerTag], { 'owner-tag': 'info' });
    const found = runConstructPolicies(groups, set, options).filter((f) => f.policy === 'owner-tag');
    expect(found.map((f) => f.severity)).toEqual(['info', 'info']);
    expect(found[0]?.waived).toEqual({ severity: 'info', reason: 'owned by everyone' });
  });

  it('a policy that throws is one error naming it and the construct, not a crash, and is not run on the rest', () => {
    let calls = 0;
    const broken = definePolicy({
      name: 'broken',
      description: 'Throws.',
      severity: 'warning',
      check: () => {
        calls++;
        throw new TypeError('cannot read tags of undefined');
      },
    });
    const found = runConstructPolicies(groups, only(broken, ownerTag), options);
    expect(calls).toBe(1);
    expect(found[0]).toMatchObject({
      severity: 'error',
      policy: 'broken',
      logicalId: 'pay',
      location,
      message:
        'policy "broken" threw while checking CheckGroup "pay": TypeError: cannot read tags of undefined',
    });
    expect(found[0]?.detail).toContain('cannot read tags of undefined');
    // The other policies still ran.
    expect(found.filter((f) => f.policy === 'owner-tag')).toHaveLength(2);
  });

  it.each([
    [42, 'number 42'],
    [{ text: 'no message' }, 'an object with no message'],
    [['fine', 7], 'a list holding something that is not a finding'],
    [Promise.resolve('late'), 'a Promise (checks are synchronous)'],
    ['', 'an empty message'],
    [{ message: 'x', path: 3 }, 'an object with no message'],
  ])('a policy that returns garbage (%s) is one error naming it', (returned, described) => {
    const garbage = definePolicy({
      name: 'garbage',
      description: 'Returns garbage.',
      severity: 'warning',
      check: () => returned as never,
    });
    const found = runConstructPolicies(groups, only(garbage), options).filter((f) => f.policy === 'garbage');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', policy: 'garbage', logicalId: 'pay' });
    expect(found[0]?.message).toContain(`policy "garbage" returned ${described} for CheckGroup "pay"`);
  });

  it('an exception naming no policy is a warning with the nearest name; one naming a policy turned off is not', () => {
    const resources = [
      construct(
        'CheckGroup',
        'a',
        { name: 'A' },
        { policyExceptions: [{ policy: 'owner-tags', reason: 'r' }] },
      ),
      construct(
        'CheckGroup',
        'b',
        { name: 'B' },
        { policyExceptions: [{ policy: 'group-without-alert-channel', reason: 'r' }] },
      ),
    ];
    const found = runConstructPolicies(resources, only(ownerTag), options).filter(
      (f) => f.policy === undefined,
    );
    expect(found).toEqual([
      expect.objectContaining({
        severity: 'warning',
        logicalId: 'a',
        path: 'policyExceptions[0]',
        message: 'there is no policy "owner-tags" to waive; did you mean "owner-tag"?',
      }),
    ]);
  });

  it('place a warning about an exception at the exception itself', () => {
    const source = [
      "new CheckGroup('a', { name: 'A' }, {",
      "  policyExceptions: [{ policy: 'owner-tags', reason: 'r' }],",
      '});',
    ].join('\n');
    const at = { file: '/p/b.monitor.ts', line: 1, column: 1 };
    const resources = [
      {
        ...construct(
          'CheckGroup',
          'a',
          { name: 'A' },
          { policyExceptions: [{ policy: 'owner-tags', reason: 'r' }] },
        ),
        location: at,
      },
    ];
    const sourceOf = (file: string) => (file === at.file ? new SourceText(source) : undefined);
    const found = runConstructPolicies(resources, only(), { environment: 'prod', sourceOf });
    expect(found.map((f) => [f.path, f.location?.line, f.location?.column])).toEqual([
      ['policyExceptions[0]', 2, 22],
    ]);
  });

  it('a rule of several kinds judges them kind by kind as it names them, up to the construct it throws on', () => {
    const judged: string[] = [];
    const picky = definePolicy({
      name: 'picky',
      description: 'Throws on a group.',
      severity: 'warning',
      kinds: ['AlertChannel', 'CheckGroup'],
      check: (r) => {
        judged.push(r.logicalId);
        if (r.kind === 'CheckGroup') throw new Error('no groups');
        return 'a channel';
      },
    });
    const resources = [
      construct('CheckGroup', 'g1', { name: 'G1' }),
      construct('AlertChannel', 'c1', { type: 'EMAIL', config: { address: 'a@b.c' } }),
      construct('CheckGroup', 'g2', { name: 'G2' }),
      construct('AlertChannel', 'c2', { type: 'EMAIL', config: { address: 'd@b.c' } }),
    ];
    const found = runConstructPolicies(resources, only(picky), options).filter((f) => f.policy === 'picky');
    expect(judged).toEqual(['c1', 'c2', 'g1']);
    expect(found.map((f) => [f.logicalId, f.severity])).toEqual([
      ['c1', 'warning'],
      ['c2', 'warning'],
      ['g1', 'error'],
    ]);
  });

  it('keeps secrets out of messages: a policy that quotes one gets it described', () => {
    const quoting = definePolicy({
      name: 'quoting',
      description: 'Quotes the webhook URL.',
      severity: 'warning',
      kinds: ['AlertChannel'],
      check: (channel) => `posts to ${String((channel.payload.config as { url: string }).url)}`,
    });
    const slack = construct('AlertChannel', 'slack', {
      type: 'SLACK',
      config: { url: 'https://hooks.slack.com/services/T000/B000/very-secret' },
    });
    const [found] = runConstructPolicies([slack], only(quoting), options);
    expect(found?.message).not.toContain('very-secret');
  });
});

describe('plan rules', () => {
  const code = [
    {
      ...construct(
        'CheckGroup',
        'pay',
        { name: 'Pay' },
        { policyExceptions: [{ policy: 'creates', reason: 'new team' }] },
      ),
      location,
    },
  ];
  const made = plan(code, liveOf({}), emptyState('acct'), { now: new Date('2026-11-21T00:00:00Z') });

  it('see the operations with before and after, and place what they name at its construct', () => {
    const seen: unknown[] = [];
    const creates = definePolicy({
      name: 'creates',
      description: 'Lists creates.',
      severity: 'warning',
      scope: 'plan',
      check: (p) => {
        seen.push(
          p.operations.map((op) => [
            op.action,
            op.logicalId,
            op.before,
            op.after?.name,
            op.resource?.logicalId,
          ]),
        );
        return [
          ...p.operations.map((op) => ({ kind: op.kind, logicalId: op.logicalId, message: 'is created' })),
          'the plan as a whole',
        ];
      },
    });
    const found = runPlanPolicies(made, liveOf({}), code, only(creates), options);
    expect(seen).toEqual([[['create', 'pay', undefined, 'Pay', 'pay']]]);
    // Placed at the construct: its location, and its waiver of the rule (a warning waived is info).
    expect(
      found.map((f) => [
        f.construct ?? null,
        f.logicalId ?? null,
        f.location ?? null,
        f.message,
        f.severity,
        f.waived ?? null,
      ]),
    ).toEqual([
      ['CheckGroup', 'pay', location, 'is created', 'info', { severity: 'warning', reason: 'new team' }],
      [null, null, null, 'the plan as a whole', 'warning', null],
    ]);
  });

  it('see a plan with no operations, and the project', () => {
    const unchanged = { ...made, operations: [] };
    const seen: unknown[] = [];
    const looks = definePolicy({
      name: 'looks',
      description: 'Counts what it sees.',
      severity: 'info',
      scope: 'plan',
      check: (p) => {
        seen.push([p.operations.length, p.deletions.length, p.project.resources.map((r) => r.logicalId)]);
      },
    });
    expect(runPlanPolicies(unchanged, liveOf({}), code, only(looks), options)).toEqual([]);
    expect(seen).toEqual([[0, 0, ['pay']]]);
  });

  it('a plan rule that throws is one error naming it', () => {
    const broken = definePolicy({
      name: 'broken-plan',
      description: 'Throws.',
      severity: 'info',
      scope: 'plan',
      check: () => {
        throw new Error('boom');
      },
    });
    const found = runPlanPolicies(made, liveOf({}), code, only(broken), options);
    expect(found.map((f) => [f.severity, f.message])).toEqual([
      ['error', 'policy "broken-plan" threw while checking the plan: Error: boom'],
    ]);
  });
});

describe('policies as untrusted code', () => {
  const withTimeLimit = (timeLimitMs: number, ...policies: Policy[]) => ({
    ...only(...policies),
    timeLimitMs,
  });

  it('see every sensitive field as a marker, never its value or hash, in construct and plan rules alike', () => {
    const hook = construct('AlertChannel', 'hook', {
      type: 'WEBHOOK',
      config: {
        name: 'Hook',
        url: 'https://hooks.example/in',
        webhookSecret: 'canary-hmac',
        headers: [{ key: 'Authorization', value: 'canary-header' }],
      },
    });
    const group = construct('CheckGroup', 'g', {
      name: 'G',
      environmentVariables: [{ key: 'T', value: 'canary-env', secret: true }],
    });
    const seen: string[] = [];
    const looks = definePolicy({
      name: 'looks',
      description: 'Remembers what it sees.',
      severity: 'info',
      check: (r, project) => {
        seen.push(JSON.stringify([r.payload, project.resources.map((x) => x.payload)]));
      },
    });
    const live = liveOf({
      AlertChannel: [{ id: 9, type: 'OPSGENIE', config: { name: 'Og', apiKey: 'canary-live-opsgenie' } }],
    });
    const planned = plan([hook, group], live, emptyState('acct'), { now: new Date('2026-11-21T00:00:00Z') });
    const looksAtPlan = definePolicy({
      name: 'plan-looks',
      description: 'Remembers the plan.',
      severity: 'info',
      scope: 'plan',
      check: (p) => {
        seen.push(JSON.stringify([p.operations, p.live]));
      },
    });
    runConstructPolicies([hook, group], only(looks), options);
    runPlanPolicies(planned, live, [hook, group], only(looksAtPlan), options);
    const text = seen.join('\n');
    expect(text).toContain('(sensitive value)');
    expect(text).toContain('Authorization');
    expect(text).not.toContain('canary');
  });

  it('get frozen copies: a rule that changes its construct is an error naming it, and the payload deployed is as it was', () => {
    const group = construct('CheckGroup', 'g', { name: 'G', locations: ['eu-west-1'], tags: [] });
    const pushes = definePolicy({
      name: 'pushes',
      description: 'Adds a location.',
      severity: 'warning',
      check: (r) => {
        (r.payload.locations as string[]).push('us-east-1');
      },
    });
    const found = runConstructPolicies([group], only(pushes), options);
    expect(found).toHaveLength(1);
    expect(found[0]?.severity).toBe('error');
    expect(found[0]?.message).toMatch(
      /^policy "pushes" tried to change what it checks while checking CheckGroup "g": TypeError/,
    );
    expect(group.payload.locations).toEqual(['eu-west-1']);
  });

  it('no way around the copies: a descriptor’s value, a view’s own fields, a plan’s payloads', () => {
    const group = construct('CheckGroup', 'g', { name: 'G', tags: ['team:pay'], locations: [] });
    const sneaky = definePolicy({
      name: 'sneaky',
      description: 'Writes through a descriptor.',
      severity: 'warning',
      check: (r) => {
        const tags = Object.getOwnPropertyDescriptor(r.payload, 'tags')?.value as string[];
        tags.push('injected');
      },
    });
    const renames = definePolicy({
      name: 'renames',
      description: 'Hides the construct from later rules.',
      severity: 'warning',
      check: (r) => {
        (r as { kind: string }).kind = 'Nothing';
      },
    });
    const found = runConstructPolicies([group], only(sneaky, renames), options);
    expect(found.map((f) => [f.policy, f.severity]).sort()).toEqual([
      ['renames', 'error'],
      ['sneaky', 'error'],
    ]);
    expect(group.payload.tags).toEqual(['team:pay']);
    const made = plan([group], liveOf({}), emptyState('acct'), { now: new Date('2026-11-21T00:00:00Z') });
    const editsPlan = definePolicy({
      name: 'edits-plan',
      description: 'Adds a location to what is deployed.',
      severity: 'info',
      scope: 'plan',
      check: (p) => {
        const locations = Object.getOwnPropertyDescriptor(p.operations[0]?.after, 'locations')
          ?.value as string[];
        locations.push('ap-south-1');
      },
    });
    expect(
      runPlanPolicies(made, liveOf({}), [group], only(editsPlan), options).map((f) => f.severity),
    ).toEqual(['error']);
    expect(
      made.operations[0]?.action === 'create' ? made.operations[0].payload.locations : undefined,
    ).toEqual([]);
  });

  it('a construct rule that never returns is stopped at the time limit, naming it and the construct; later rules are not run', () => {
    let later = 0;
    const spins = definePolicy({
      name: 'spins',
      description: 'Never returns on the second group.',
      severity: 'warning',
      check: (r) => {
        if (r.logicalId === 'search') for (;;) {}
      },
    });
    const after = definePolicy({
      name: 'after',
      description: 'Counts.',
      severity: 'info',
      check: () => void later++,
    });
    const started = performance.now();
    const found = runConstructPolicies(groups, withTimeLimit(300, spins, after), options);
    expect(performance.now() - started).toBeLessThan(20_000);
    const stopped = found.find((f) => f.message.startsWith('the policies were stopped'));
    expect(stopped).toMatchObject({
      severity: 'error',
      policy: 'spins',
      logicalId: 'search',
      location,
      message:
        'the policies were stopped after 0.3 s: policy "spins" was checking CheckGroup "search" and had not finished; the policies after it were not run',
    });
    // Construct by construct: the first group was judged by both rules, the rest by none.
    expect(later).toBe(1);
  });

  it('a rule that never returns among the built-ins is stopped too; the built-ins alone run outside the watchdog', () => {
    const spins = definePolicy({
      name: 'spins',
      description: 'Never returns.',
      severity: 'warning',
      kinds: ['CheckGroup'],
      check: () => {
        for (;;) {}
      },
    });
    const builtInsAndOwn = { ...selectPolicies([spins], {}).set, timeLimitMs: 300 };
    const found = runConstructPolicies(groups, builtInsAndOwn, options);
    expect(found.filter((f) => f.message.startsWith('the policies were stopped'))).toMatchObject([
      { severity: 'error', policy: 'spins', logicalId: 'pay' },
    ]);
    // Where each stage ran: the watchdog runs it as the script `monitor-policies`.
    const stacks: string[] = [];
    const alone = (policy: Policy, builtIn: boolean): PolicySet => ({
      active: [
        {
          policy: { ...policy, check: () => void stacks.push(new Error('here').stack ?? '') },
          severity: 'info',
          builtIn,
        },
      ],
      known: new Set([policy.name]),
    });
    runConstructPolicies(groups, alone(groupWithoutAlertChannel, true), options);
    runConstructPolicies(groups, alone(ownerTag, false), options);
    expect(stacks.map((s) => s.includes('monitor-policies'))).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
  });

  it('a plan rule that never returns is stopped the same way', () => {
    const code = [construct('CheckGroup', 'pay', { name: 'Pay' })];
    const made = plan(code, liveOf({}), emptyState('acct'), { now: new Date('2026-11-21T00:00:00Z') });
    const spins = definePolicy({
      name: 'plan-spins',
      description: 'Never returns.',
      severity: 'info',
      scope: 'plan',
      check: () => {
        for (;;) {}
      },
    });
    const found = runPlanPolicies(made, liveOf({}), code, withTimeLimit(200, spins), options);
    expect(found.map((f) => [f.severity, f.policy, f.message])).toEqual([
      [
        'error',
        'plan-spins',
        'the policies were stopped after 0.2 s: policy "plan-spins" was checking the plan and had not finished; the policies after it were not run',
      ],
    ]);
  });

  it('what a policy says never holds the API key or the state secret it could read from the environment', () => {
    const before = { key: process.env.MONITOR_API_KEY, secret: process.env.MONITOR_STATE_SECRET };
    process.env.MONITOR_API_KEY = 'mk_live_canary_key_1234';
    process.env.MONITOR_STATE_SECRET = 'canary-state-secret';
    try {
      const reads = definePolicy({
        name: 'reads-env',
        description: 'Quotes the environment.',
        severity: 'info',
        check: () => `key ${process.env.MONITOR_API_KEY} secret ${process.env.MONITOR_STATE_SECRET}`,
      });
      const [found] = runConstructPolicies([groups[0] as (typeof groups)[number]], only(reads), options);
      expect(found?.message).not.toContain('canary');
    } finally {
      for (const [name, value] of [
        ['MONITOR_API_KEY', before.key],
        ['MONITOR_STATE_SECRET', before.secret],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('a message, hint or thrown error of megabytes is cut to 2,000 characters, saying so', () => {
    const long = 'x'.repeat(5_000_000);
    const loud = definePolicy({
      name: 'loud',
      description: 'Talks.',
      severity: 'info',
      check: () => ({ message: long, hint: long }),
    });
    const [found] = runConstructPolicies([groups[0] as (typeof groups)[number]], only(loud), options);
    expect(found?.message).toBe(`${'x'.repeat(2_000)} (cut: 5000000 characters in all)`);
    expect(found?.hint?.length).toBeLessThan(2_100);
    const throws = definePolicy({
      name: 'throws-long',
      description: 'Throws.',
      severity: 'info',
      check: () => {
        throw new Error(long);
      },
    });
    const [broken] = runConstructPolicies([groups[0] as (typeof groups)[number]], only(throws), options);
    expect(broken?.message.length).toBeLessThan(2_100);
    expect(broken?.detail?.length).toBeLessThan(2_100);
  });
});

describe('inSourceOrder', () => {
  it('lists findings by file, line and column, then by policy; those with no place first', () => {
    const at = (file: string, line: number, column: number) => ({ file, line, column });
    const found = (policy: string, location?: ReturnType<typeof at>) => ({
      severity: 'warning' as const,
      path: '',
      message: policy,
      policy,
      ...(location === undefined ? {} : { location }),
    });
    const given = [
      found('b', at('/p/b.ts', 1, 1)),
      found('z', at('/p/a.ts', 9, 2)),
      found('a', at('/p/a.ts', 10, 1)),
      found('y', at('/p/a.ts', 9, 2)),
      found('x', at('/p/a.ts', 9, 1)),
      found('nowhere'),
    ];
    expect(inSourceOrder(given).map((f) => f.policy)).toEqual(['nowhere', 'x', 'y', 'z', 'a', 'b']);
    expect(given[0]?.policy).toBe('b');
  });
});
