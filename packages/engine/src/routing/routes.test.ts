import {
  AlertChannel,
  CheckGroup,
  createSession,
  type DesiredResource,
  EmailAlertChannel,
  MaintenanceWindow,
  PagerdutyAlertChannel,
  SlackAlertChannel,
  SmsAlertChannel,
  synth,
  WebhookAlertChannel,
} from '@monitor/constructs';
import { beforeEach, describe, expect, it } from 'vitest';
import { entry, liveOf, stateOf } from '../test-support/planning.js';
import { UnknownGroupError } from './errors.js';
import { type GroupRoute, routeLine, routesOf } from './routes.js';
import { selectRoutes } from './select.js';
import { worldFromCode, worldFromLive } from './world.js';

const OPTIONS = { now: new Date('2026-11-24T12:00:00Z'), timeZone: 'America/New_York' };
const SLACK_HOOK = 'https://hooks.slack.example.com/services/T000/B000/canary-slack-secret';
const PD_KEY = 'canary-pagerduty-key';

function code(): DesiredResource[] {
  const { resources, diagnostics } = synth();
  expect(diagnostics).toEqual([]);
  return resources;
}

const routes = (live?: Parameters<typeof worldFromCode>[1]) => routesOf(worldFromCode(code(), live), OPTIONS);
const only = (list: GroupRoute[]) => {
  expect(list).toHaveLength(1);
  return list[0] as GroupRoute;
};

beforeEach(() => {
  createSession();
});

describe('routes from the code', () => {
  it('follows subscriptions to channels, with their type, masked target and what each sends', () => {
    const pd = new PagerdutyAlertChannel('prod-oncall', { serviceKey: PD_KEY, serviceName: 'Payments' });
    const slack = new SlackAlertChannel('payments-slack', {
      url: SLACK_HOOK,
      channel: '#payments',
      sendDegraded: true,
    });
    new CheckGroup('payments', { name: 'Payments API', alertChannels: [pd, slack] });
    const route = only(routes());
    expect(route.subscriptions.map((s) => [s.channel, s.type, s.label, s.activated, s.sends])).toEqual([
      ['AlertChannel:prod-oncall', 'PAGERDUTY', 'PagerDuty (Payments)', true, ['failure', 'recovery']],
      ['AlertChannel:payments-slack', 'SLACK', 'Slack #payments', true, ['failure', 'degraded', 'recovery']],
    ]);
    expect(route.reaches).toEqual({
      failure: ['PagerDuty (Payments)', 'Slack #payments'],
      degraded: ['Slack #payments'],
      recovery: ['PagerDuty (Payments)', 'Slack #payments'],
      sslExpiry: [],
    });
    expect(route.noFailureRoute).toBe(false);
    expect(routeLine(route)).toBe(
      'failures, recoveries → PagerDuty (Payments), Slack #payments; degraded → Slack #payments',
    );
    // Never a credential, in any field.
    const json = JSON.stringify(route);
    expect(json).not.toContain('canary');
    expect(json).not.toContain('hooks.slack');
  });

  it.each([
    [
      'a Slack channel without a channel name',
      () => new SlackAlertChannel('c', { url: SLACK_HOOK }),
      'SLACK',
      'Slack (incoming webhook)',
    ],
    [
      'a webhook: its URL cut to the origin',
      () =>
        new WebhookAlertChannel('c', {
          name: 'Incident bot',
          url: 'https://bots.acme.example/hook?token=canary-token',
          webhookSecret: 'canary-webhook-secret',
        }),
      'WEBHOOK',
      'Webhook (Incident bot (https://bots.acme.example/…))',
    ],
    [
      'an SMS number: its last four digits',
      () => new SmsAlertChannel('c', { number: '+31612345678' }),
      'SMS',
      'SMS …5678',
    ],
    [
      'an email address',
      () => new EmailAlertChannel('c', { address: 'ops@acme.example' }),
      'EMAIL',
      'Email ops@acme.example',
    ],
    [
      'a PagerDuty channel with no service name',
      () => new PagerdutyAlertChannel('c', { serviceKey: PD_KEY }),
      'PAGERDUTY',
      'PagerDuty (service)',
    ],
  ])('shows %s', (_, make, type, label) => {
    new CheckGroup('g', { name: 'G', alertChannels: [make()] });
    const [subscription] = only(routes()).subscriptions;
    expect([subscription?.type, subscription?.label]).toEqual([type, label]);
    expect(JSON.stringify(subscription)).not.toContain('canary');
    expect(JSON.stringify(subscription)).not.toContain('+3161');
  });

  it.each([
    [
      'an inactive subscription',
      () => ({
        alertChannels: [
          { channel: new EmailAlertChannel('mail', { address: 'a@acme.example' }), activated: false },
        ],
      }),
      'failures → no one',
    ],
    [
      'a channel that sends no failures',
      () => ({
        alertChannels: [new EmailAlertChannel('mail', { address: 'a@acme.example', sendFailure: false })],
      }),
      'failures → no one; recoveries → Email a@acme.example',
    ],
    [
      'a muted group',
      () => ({ muted: true, alertChannels: [new EmailAlertChannel('mail', { address: 'a@acme.example' })] }),
      'muted: nothing is sent',
    ],
    ['no subscription at all', () => ({}), 'failures → no one'],
  ])('flags %s as no route for failures', (_, props, line) => {
    new CheckGroup('g', { name: 'G', ...props() });
    const route = only(routes());
    expect(route.noFailureRoute).toBe(true);
    expect(routeLine(route)).toBe(line);
  });

  it('names two channels that read the same by their logical ids', () => {
    const a = new SlackAlertChannel('team-a', { url: SLACK_HOOK });
    const b = new SlackAlertChannel('team-b', { url: `${SLACK_HOOK}2` });
    new CheckGroup('g', { name: 'G', alertChannels: [a, b] });
    expect(only(routes()).reaches.failure).toEqual([
      'Slack (incoming webhook) [team-a]',
      'Slack (incoming webhook) [team-b]',
    ]);
  });

  it('says a fromId channel is read from the account with --live, and finds it there', () => {
    new CheckGroup('g', { name: 'G', alertChannels: [AlertChannel.fromId(7)] });
    const offline = only(routes());
    expect(offline.subscriptions[0]).toMatchObject({
      missing: true,
      label: 'AlertChannel id 7 (fromId: read from the account with --live)',
    });
    expect(offline.noFailureRoute).toBe(true);
    expect(offline.subscriptions[0]?.unread).toBe(true);
    expect(routeLine(offline)).toBe('failures → no one; 1 channel by id, not read (--live)');
    const live = liveOf({
      AlertChannel: [{ id: 7, type: 'EMAIL', config: { address: 'team@acme.example' } }],
    });
    expect(only(routes(live)).reaches.failure).toEqual(['Email team@acme.example']);
    expect(only(routes(liveOf({}))).subscriptions[0]?.label).toBe('AlertChannel id 7 (not in the account)');
  });

  it.each([
    [{}, 'after 1 failed run, no reminders'],
    [
      {
        alertSettings: {
          escalationType: 'TIME_BASED',
          timeBasedEscalation: { minutesFailingThreshold: 10 },
          reminders: { amount: 2, interval: 15 },
        },
      },
      'after 10 minutes failing, then 2 reminders every 15 minutes',
    ],
    [
      {
        alertSettings: {
          runBasedEscalation: { failedRunThreshold: 3 },
          parallelRunFailureThreshold: { enabled: true, percentage: 50 },
        },
      },
      'after 3 failed runs, no reminders, when 50% of parallel runs fail',
    ],
    [{ useGlobalAlertSettings: true }, "the account's global alert settings (the group's are not used)"],
    [{ alertSettings: null }, 'none set'],
  ] as const)('describes the escalation of %j', (props, description) => {
    new CheckGroup('g', { name: 'G', ...(props as object) });
    expect(only(routes()).escalation.description).toBe(description);
  });
});

describe('maintenance windows that silence a group', () => {
  const window = (id: string, props: Partial<ConstructorParameters<typeof MaintenanceWindow>[1]>) =>
    new MaintenanceWindow(id, {
      name: id,
      startsAt: '2026-12-01T01:00:00Z',
      endsAt: '2026-12-01T03:00:00Z',
      ...props,
    });

  it('lists silenceAllAlerts and silenceAlertsTags that meet its tags, not others or past ones', () => {
    new CheckGroup('g', { name: 'G', tags: ['payments', 'prod'] });
    window('all', { silenceAllAlerts: true, timezone: 'Europe/Berlin', repeatUnit: 'WEEK' });
    window('tagged', { silenceAlertsTags: ['prod', 'db'] });
    window('other-tags', { silenceAlertsTags: ['search'] });
    window('named-only', { tags: ['G'] });
    window('over', {
      silenceAllAlerts: true,
      startsAt: '2026-01-01T00:00:00Z',
      endsAt: '2026-01-01T01:00:00Z',
    });
    const route = only(routes());
    expect(route.silencedBy.map((s) => [s.window, s.reason, s.tags])).toEqual([
      ['MaintenanceWindow:all', 'silenceAllAlerts', []],
      ['MaintenanceWindow:tagged', 'silenceAlertsTags', ['prod']],
    ]);
    const [all] = route.silencedBy;
    expect(all?.schedule).toBe('2026-12-01 02:00–04:00 Europe/Berlin, every week, no end');
    expect(all?.next.map((o) => o.text)).toEqual([
      '2026-12-01 02:00–04:00 Europe/Berlin (2026-11-30 20:00–22:00 America/New_York)',
      '2026-12-08 02:00–04:00 Europe/Berlin (2026-12-07 20:00–22:00 America/New_York)',
      '2026-12-15 02:00–04:00 Europe/Berlin (2026-12-14 20:00–22:00 America/New_York)',
    ]);
    expect(all?.next[0]).toMatchObject({
      start: '2026-12-01T01:00:00.000Z',
      window: { timeZone: 'Europe/Berlin', start: '2026-12-01T02:00:00+01:00' },
      user: { timeZone: 'America/New_York', start: '2026-11-30T20:00:00-05:00' },
    });
    expect(routeLine(route)).toContain(
      'silenced by “all” (2026-12-01 02:00–04:00 Europe/Berlin, every week, no end)',
    );
  });
});

describe('routes of a project with many windows that silence everything', () => {
  beforeEach(() => {
    createSession();
  });

  it('shares one list of them across groups, and a route line names five and counts the rest', () => {
    for (let i = 0; i < 300; i++) new CheckGroup(`g${i}`, { name: `G${i}` });
    for (let i = 0; i < 300; i++)
      new MaintenanceWindow(`w${String(i).padStart(3, '0')}`, {
        name: `w${String(i).padStart(3, '0')}`,
        startsAt: '2026-12-01T01:00:00Z',
        endsAt: '2026-12-01T03:00:00Z',
        silenceAllAlerts: true,
      });
    const { resources } = synth();
    const all = routesOf(worldFromCode(resources), OPTIONS);
    expect(all).toHaveLength(300);
    // One list for every group: 300 × 300 entries would be 90,000 objects (and 25 million at 5,000).
    expect(new Set(all.map((r) => r.silencedBy)).size).toBe(1);
    expect(all[0]?.silencedBy).toHaveLength(300);
    const line = routeLine(all[0] as GroupRoute);
    expect(line.match(/silenced by “/g)).toHaveLength(5);
    expect(line).toMatch(/silenced by “w004” \([^)]*\); silenced by 295 more windows$/);
  });
});

describe('routes from the account', () => {
  const live = liveOf({
    CheckGroup: [
      {
        id: 1,
        name: 'Payments',
        tags: [],
        alertChannelSubscriptions: [{ alertChannelId: 10, activated: true }],
      },
      { id: 2, name: 'Not ours', alertChannelSubscriptions: [] },
    ],
    AlertChannel: [{ id: 10, type: 'SLACK', config: { url: '', channel: 'payments' }, sendFailure: true }],
  });
  const state = stateOf([entry('CheckGroup', 'payments', 1), entry('AlertChannel', 'slack', 10)]);

  it("shows the project's groups, named by state, with their ids", () => {
    const [route, ...rest] = routesOf(worldFromLive(live, state), OPTIONS);
    expect(rest).toEqual([]);
    expect(route).toMatchObject({ group: 'CheckGroup:payments', physicalId: 1, name: 'Payments' });
    expect(route?.subscriptions[0]).toMatchObject({
      channel: 'AlertChannel:slack',
      physicalId: 10,
      label: 'Slack #payments',
    });
  });

  it('says a subscription to a channel gone from the account is not there', () => {
    const gone = liveOf({ ...live, AlertChannel: [] });
    const [route] = routesOf(worldFromLive(gone, state), OPTIONS);
    expect(route?.subscriptions[0]).toMatchObject({
      missing: true,
      label: 'AlertChannel id 10 (not in the account)',
    });
    expect(routeLine(route as GroupRoute)).toBe(
      'failures → no one; 1 subscription to a channel that is not there',
    );
  });
});

describe('selectRoutes', () => {
  const list = routesOf(
    worldFromLive(
      liveOf({
        CheckGroup: [
          { id: 1, name: 'Payments' },
          { id: 2, name: 'Checkout' },
        ],
      }),
      stateOf([entry('CheckGroup', 'payments', 1), entry('CheckGroup', 'checkout', 2)]),
    ),
    OPTIONS,
  );

  it.each([
    [['payments'], ['CheckGroup:payments']],
    [
      ['CheckGroup:checkout', 'payments'],
      ['CheckGroup:checkout', 'CheckGroup:payments'],
    ],
    [['2'], ['CheckGroup:checkout']],
    [[], ['CheckGroup:checkout', 'CheckGroup:payments']],
  ])('selects %j', (ids, groups) => {
    expect(selectRoutes(list, ids).map((r) => r.group)).toEqual(groups);
  });

  it('says a group of the code that the account does not have yet is not deployed', () => {
    expect(() => selectRoutes(list, ['search'], ['search'])).toThrow(
      'search: the check group is in the code but not in the account yet',
    );
  });

  it.each([
    ['paymnets', 'paymnets: the project has no check group of that name', 'did you mean payments?'],
    ['zzz', 'zzz: the project has no check group of that name', 'its groups are: checkout, payments'],
    [
      'Dashboard:payments',
      'Dashboard:payments is a Dashboard: routes are of check groups',
      'name a check group',
    ],
  ])('refuses %s with a clear error', (id, message, hint) => {
    let error: unknown;
    try {
      selectRoutes(list, [id]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnknownGroupError);
    expect((error as UnknownGroupError).code).toBe('unknown_group');
    expect((error as UnknownGroupError).message).toBe(message);
    expect((error as UnknownGroupError).hint).toContain(hint);
  });
});
