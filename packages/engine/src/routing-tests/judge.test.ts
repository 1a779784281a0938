import {
  AlertChannel,
  CheckGroup,
  createSession,
  EmailAlertChannel,
  expectRoutes,
  MaintenanceWindow,
  PagerdutyAlertChannel,
  type RoutingTest,
  SlackAlertChannel,
  synth,
} from '@monitor/constructs';
import { beforeEach, describe, expect, it } from 'vitest';
import { type GroupRoute, routeLine, routesOf } from '../routing/routes.js';
import { type World, worldFromCode } from '../routing/world.js';
import { liveOf } from '../test-support/planning.js';
import { routingTestFindings } from './findings.js';
import { judgeAgainstCode, judgeRoutingTests, type RoutingTestResult } from './judge.js';

const NOW = new Date('2026-11-24T12:00:00Z');

beforeEach(() => {
  createSession();
});

/** The payments group of the issue: PagerDuty on call, e-mail for SSL expiry, a database window. */
function payments() {
  const oncall = new PagerdutyAlertChannel('pagerduty-oncall', { serviceKey: 'k', serviceName: 'Payments' });
  const mail = new EmailAlertChannel('payments-mail', {
    address: 'payments@acme.example',
    sendFailure: false,
    sendRecovery: false,
    sslExpiry: true,
  });
  const slack = new SlackAlertChannel('slack-search', {
    url: 'https://hooks.slack.example/x',
    channel: '#search',
  });
  new CheckGroup('payments-api', { name: 'Payments API', tags: ['payments'], alertChannels: [oncall, mail] });
  new CheckGroup('search', { name: 'Search', alertChannels: [slack, oncall] });
  new MaintenanceWindow('db-upgrade', {
    name: 'Database upgrade',
    startsAt: '2027-01-10T02:00:00Z',
    endsAt: '2027-01-10T04:00:00Z',
    silenceAlertsTags: ['payments'],
  });
  return { oncall, mail, slack };
}

function judge(tests: Parameters<typeof judgeRoutingTests>[0], live?: Parameters<typeof liveOf>[0]) {
  const { resources, diagnostics } = synth();
  expect(diagnostics).toEqual([]);
  const world = worldFromCode(resources, live === undefined ? undefined : liveOf(live));
  const codeGroups = resources.filter((r) => r.kind === 'CheckGroup').map((r) => r.logicalId);
  return judgeRoutingTests(tests, world, { now: NOW, codeGroups });
}

const statuses = (results: RoutingTestResult[]) => results.map((r) => [r.event, r.status]);

describe('judging routing tests', () => {
  it('passes an exact list, and fails one with a channel too many or too few, saying what it found', () => {
    const { oncall } = payments();
    const results = judge([
      expectRoutes('payments-api', { failure: ['pagerduty-oncall'], recovery: [oncall] }),
      expectRoutes('search', { failure: ['slack-search'] }),
      expectRoutes('payments-api', { sslExpiry: ['payments-mail', 'pagerduty-oncall'] }),
    ]);
    expect(statuses(results)).toEqual([
      ['failure', 'passed'],
      ['recovery', 'passed'],
      ['failure', 'failed'],
      ['sslExpiry', 'failed'],
    ]);
    expect(results[2]?.found).toEqual([
      { channel: 'slack-search', label: 'Slack #search' },
      { channel: 'pagerduty-oncall', label: 'PagerDuty (Payments)' },
    ]);
    expect(results[2]?.message).toBe(
      'reaches Slack #search (slack-search), PagerDuty (Payments) (pagerduty-oncall); expected exactly slack-search',
    );
    expect(results[3]?.message).toBe(
      'reaches Email payments@acme.example (payments-mail); expected exactly payments-mail, pagerduty-oncall',
    );
  });

  it('passes atLeast with others beside, and fails it when one is missing', () => {
    const { slack } = payments();
    const results = judge([
      expectRoutes('search', { failure: { atLeast: [slack] } }),
      expectRoutes('search', { degraded: { atLeast: ['slack-search'] } }),
    ]);
    expect(statuses(results)).toEqual([
      ['failure', 'passed'],
      ['degraded', 'failed'],
    ]);
    expect(results[1]?.message).toBe('reaches no one; expected at least slack-search');
  });

  it('at an instant, counts the maintenance windows on then: silenced inside, paged outside', () => {
    payments();
    const results = judge([
      expectRoutes('payments-api', { failure: [], at: '2027-01-10T02:30:00Z' }),
      expectRoutes('payments-api', { failure: [], at: '2027-01-10T03:30:00+01:00' }),
      expectRoutes('payments-api', { failure: ['pagerduty-oncall'], at: '2027-01-10T02:30:00Z' }),
      // The window ends at 04:00: not on at 04:00 itself.
      expectRoutes('payments-api', { failure: ['pagerduty-oncall'], at: '2027-01-10T04:00:00Z' }),
      // search has no payments tag: the window does not silence it.
      expectRoutes('search', { failure: { atLeast: ['pagerduty-oncall'] }, at: '2027-01-10T02:30:00Z' }),
    ]);
    expect(statuses(results)).toEqual([
      ['failure', 'passed'],
      ['failure', 'passed'],
      ['failure', 'failed'],
      ['failure', 'passed'],
      ['failure', 'passed'],
    ]);
    expect(results[0]?.silencedBy).toEqual(['Database upgrade']);
    expect(results[2]?.message).toBe(
      'at 2027-01-10T02:30:00.000Z, reaches no one (silenced by “Database upgrade”); expected exactly pagerduty-oncall',
    );
  });

  it('follows repeats: a daily window silences at the same wall-clock time a month later', () => {
    const oncall = new PagerdutyAlertChannel('oncall', { serviceKey: 'k' });
    new CheckGroup('g', { name: 'G', tags: ['prod'], alertChannels: [oncall] });
    new MaintenanceWindow('nightly', {
      name: 'Nightly',
      startsAt: '2026-11-01T03:00:00+01:00',
      endsAt: '2026-11-01T03:30:00+01:00',
      timezone: 'Europe/Amsterdam',
      repeatUnit: 'DAY',
      silenceAlertsTags: ['prod'],
    });
    const results = judge([
      expectRoutes('g', { failure: [], at: '2026-12-15T02:10:00Z' }),
      expectRoutes('g', { failure: ['oncall'], at: '2026-12-15T02:40:00Z' }),
    ]);
    expect(statuses(results)).toEqual([
      ['failure', 'passed'],
      ['failure', 'passed'],
    ]);
  });

  it('reads a muted group and an inactive subscription as reaching no one', () => {
    const oncall = new PagerdutyAlertChannel('oncall', { serviceKey: 'k' });
    new CheckGroup('muted', { name: 'M', muted: true, alertChannels: [oncall] });
    new CheckGroup('off', { name: 'O', alertChannels: [{ channel: oncall, activated: false }] });
    const results = judge([
      expectRoutes('muted', { failure: ['oncall'] }),
      expectRoutes('off', { failure: [] }),
    ]);
    expect(statuses(results)).toEqual([
      ['failure', 'failed'],
      ['failure', 'passed'],
    ]);
    expect(results[0]?.message).toBe('reaches no one (the group is muted); expected exactly oncall');
  });

  it('leaves a fromId channel unjudged from the code when the answer depends on it, and judges it with the account', () => {
    const build = () => {
      const oncall = new PagerdutyAlertChannel('oncall', { serviceKey: 'k' });
      new CheckGroup('g', { name: 'G', alertChannels: [oncall, AlertChannel.fromId(7)] });
      return [
        expectRoutes('g', { failure: ['oncall'] }),
        expectRoutes('g', { failure: { atLeast: ['oncall'] } }),
        expectRoutes('g', { failure: [AlertChannel.fromId(7), 'oncall'] }),
      ];
    };
    const fromCode = judge(build());
    expect(statuses(fromCode)).toEqual([
      ['failure', 'unjudged'],
      ['failure', 'passed'],
      ['failure', 'unjudged'],
    ]);
    expect(fromCode[0]?.message).toBe(
      'cannot be judged from the code: it subscribes to AlertChannel id 7 by id (fromId), which only the account describes; expected exactly oncall',
    );
    createSession();
    const withAccount = judge(build(), {
      AlertChannel: [{ id: 7, type: 'EMAIL', config: { address: 'ops@acme.example' }, sendFailure: true }],
    });
    expect(statuses(withAccount)).toEqual([
      ['failure', 'failed'],
      ['failure', 'passed'],
      ['failure', 'passed'],
    ]);
    expect(withAccount[0]?.found?.map((f) => f.channel)).toEqual(['oncall', 'AlertChannel id 7']);
  });

  it('names a group the project does not have, with the nearest', () => {
    payments();
    const results = judge([expectRoutes('payment-api', { failure: [] })]);
    expect(results).toMatchObject([
      {
        status: 'invalid',
        message: 'the project has no check group payment-api',
        hint: 'did you mean payments-api?',
      },
    ]);
  });

  it('reports each problem of a test written wrong, and judges nothing of it', () => {
    payments();
    const group = new CheckGroup('other', { name: 'Other' });
    const results = judge([
      expectRoutes('payments-api', {
        // @ts-expect-error: an event routing does not know
        failures: ['pagerduty-oncall'],
        recovery: [group as never],
        at: '2027-01-10 02:30',
      }),
      // @ts-expect-error: a list or { atLeast }, nothing else
      expectRoutes(new SlackAlertChannel('s', { url: 'https://x.example' }), { failure: 'pagerduty-oncall' }),
      expectRoutes('search', {}),
    ]);
    expect(results.map((r) => [r.status, r.message, r.hint])).toEqual([
      [
        'invalid',
        'routing test: failures is not an event routing knows: failure, degraded, recovery, sslExpiry',
        'did you mean failure?',
      ],
      [
        'invalid',
        'routing test: recovery[0] names CheckGroup other, not an alert channel',
        "name channels by logical id ('pagerduty-oncall'), by construct, with AlertChannel.fromId(id), or another project's with AlertChannel.fromProject('platform', 'pagerduty-oncall')",
      ],
      [
        'invalid',
        'routing test: at is "2027-01-10 02:30": expected an ISO 8601 instant with its zone',
        "e.g. at: '2027-01-10T02:30:00Z' (or with an offset, '2027-01-10T03:30:00+01:00')",
      ],
      [
        'invalid',
        'routing test: AlertChannel s is not a check group',
        "name a check group of the project: its logical id ('payments-api') or the CheckGroup construct",
      ],
      [
        'invalid',
        'routing test: failure is "pagerduty-oncall": expected a list of channels or { atLeast: [...] }',
        "failure: ['pagerduty-oncall'] for exactly these channels, failure: [] for no one, failure: { atLeast: ['slack-ops'] } for these and maybe others",
      ],
      [
        'invalid',
        'routing test: expects nothing: no event is named',
        "name at least one of failure, degraded, recovery, sslExpiry, e.g. { failure: ['pagerduty-oncall'] }",
      ],
    ]);
  });

  it('makes each result that is not a pass a finding at the test’s line: an error, or a warning when unjudged', () => {
    const oncall = new PagerdutyAlertChannel('oncall', { serviceKey: 'k' });
    new CheckGroup('g', { name: 'G', alertChannels: [oncall, AlertChannel.fromId(7)] });
    const location = { file: '/p/monitor.config.ts', line: 9, column: 5 };
    const results: RoutingTestResult[] = [
      ...judge([expectRoutes('g', { failure: ['oncall'] })]),
      { status: 'failed', group: 'g', event: 'recovery', message: 'reaches no one', hint: 'h', location },
    ];
    expect(routingTestFindings(results)).toEqual([
      expect.objectContaining({
        severity: 'warning',
        logicalId: 'g',
        path: 'failure',
        policy: 'routing-test',
      }),
      {
        severity: 'error',
        construct: 'CheckGroup',
        logicalId: 'g',
        path: 'recovery',
        message: 'reaches no one',
        hint: 'h',
        location,
        policy: 'routing-test',
      },
    ]);
  });
});

describe("routing tests of a group subscribed to another project's channel", () => {
  const PLATFORM = AlertChannel.fromProject('platform', 'pagerduty-oncall');

  /** The team's group of examples/workspace: it subscribes to the platform project's channel. */
  function teamCode() {
    new CheckGroup('payments-api', { name: 'Payments API', alertChannels: [PLATFORM] });
    const { resources, diagnostics } = synth({ project: 'team-payments' });
    expect(diagnostics).toEqual([]);
    return resources;
  }

  /** The account once deployed: the group subscribes to channel 4, which the platform owns. */
  const account: World = {
    resources: [
      {
        kind: 'CheckGroup',
        logicalId: 'payments-api',
        physicalId: 10,
        payload: {
          name: 'Payments API',
          alertChannelSubscriptions: [{ alertChannelId: 4, activated: true }],
        },
      },
      {
        kind: 'AlertChannel',
        physicalId: 4,
        payload: {
          type: 'PAGERDUTY',
          config: { serviceName: 'Platform' },
          sendFailure: true,
          sendRecovery: false,
        },
      },
    ],
  };
  const live = (tests: RoutingTest[], projectChannels?: Map<string, number>) =>
    judgeRoutingTests(tests, account, {
      now: NOW,
      codeGroups: ['payments-api'],
      ...(projectChannels === undefined ? {} : { projectChannels }),
    });

  it('records fromProject and the string project:logicalId as that project’s channel', () => {
    const byRef = expectRoutes('payments-api', { failure: [PLATFORM] });
    const byName = expectRoutes('payments-api', { failure: ['platform:pagerduty-oncall'] });
    const own = expectRoutes('payments-api', { failure: ['AlertChannel:pagerduty-oncall'] });
    const channel = { project: 'platform', logicalId: 'pagerduty-oncall' };
    expect(byRef.problems).toEqual([]);
    expect(byRef.assertions).toEqual([{ event: 'failure', match: 'exactly', channels: [channel] }]);
    expect(byName.assertions[0]?.channels).toEqual([channel]);
    expect(own.assertions[0]?.channels).toEqual([{ logicalId: 'pagerduty-oncall' }]);
  });

  it('from the code, leaves an event that depends on its send* switches unjudged, never failed', () => {
    const code = teamCode();
    const results = judgeAgainstCode(
      [
        expectRoutes('payments-api', { failure: [PLATFORM] }),
        expectRoutes('payments-api', { failure: ['platform:pagerduty-oncall'], recovery: [] }),
        expectRoutes('payments-api', { failure: { atLeast: [PLATFORM] } }),
      ],
      code,
      NOW,
    );
    expect(statuses(results)).toEqual([
      ['failure', 'unjudged'],
      ['failure', 'unjudged'],
      ['recovery', 'unjudged'],
      ['failure', 'unjudged'],
    ]);
    expect(results[0]?.message).toBe(
      "cannot be judged from the code: it subscribes to platform:pagerduty-oncall, project platform's channel, whose send* switches only that project's code sets; expected exactly platform:pagerduty-oncall",
    );
    expect(routingTestFindings(results).map((f) => f.severity)).toEqual([
      'warning',
      'warning',
      'warning',
      'warning',
    ]);
  });

  it('from the code, fails a test that names it as this project’s channel, hinting at fromProject', () => {
    const code = teamCode();
    const [result] = judgeAgainstCode(
      [expectRoutes('payments-api', { failure: ['pagerduty-oncall'] })],
      code,
      NOW,
    );
    expect(result?.status).toBe('failed');
    expect(result?.hint).toContain("name it AlertChannel.fromProject('platform', 'pagerduty-oncall')");
  });

  it('from the code, routes it as a channel named platform:pagerduty-oncall, not as no one', () => {
    const [route] = routesOf(worldFromCode(teamCode()), { now: NOW, timeZone: 'UTC' });
    expect(route?.noFailureRoute).toBe(false);
    expect(routeLine(route as GroupRoute)).toBe(
      "alerts → platform:pagerduty-oncall (another project's channel: what it sends is read with --live)",
    );
  });

  it('in the account, matches the channel the other project’s state records for it', () => {
    const tests = [
      expectRoutes('payments-api', { failure: [PLATFORM], recovery: [] }),
      expectRoutes('payments-api', { failure: ['pagerduty-oncall'] }),
    ];
    const results = live(tests, new Map([['platform:pagerduty-oncall', 4]]));
    expect(statuses(results)).toEqual([
      ['failure', 'passed'],
      ['recovery', 'passed'],
      ['failure', 'failed'],
    ]);
    expect(results[0]?.found).toEqual([
      { channel: 'platform:pagerduty-oncall', label: 'PagerDuty (Platform)' },
    ]);
    // Its state records another id: channel 4 is not the one the test names.
    expect(statuses(live(tests.slice(0, 1), new Map([['platform:pagerduty-oncall', 5]])))).toEqual([
      ['failure', 'failed'],
      ['recovery', 'passed'],
    ]);
  });

  it('in the account, leaves it unjudged (a warning) when no state says which channel it is', () => {
    const results = live([expectRoutes('payments-api', { failure: [PLATFORM] })]);
    expect(statuses(results)).toEqual([['failure', 'unjudged']]);
    expect(results[0]?.message).toBe(
      "cannot be judged: which channel in the account is project platform's is not known, its state records no id for it; expected exactly platform:pagerduty-oncall",
    );
    expect(routingTestFindings(results)[0]?.severity).toBe('warning');
  });
});
