import {
  CheckGroup,
  type DesiredResource,
  EmailAlertChannel,
  MaintenanceWindow,
  PagerdutyAlertChannel,
  SlackAlertChannel,
} from '@monitor/constructs';
import { describe, expect, it } from 'vitest';
import { apply } from '../apply/apply.js';
import { emptyLive, readLive } from '../live/read-live.js';
import { plan } from '../plan/plan.js';
import type { Live } from '../plan/types.js';
import { emptyState, type State } from '../state/state.js';
import { FakeAccount, MemoryBackend } from '../test-support/doubles.js';
import { synthesized as code } from '../test-support/planning.js';
import { planRouting } from './routes.js';

const NOW = { now: new Date('2026-11-24T12:00:00Z'), secretKey: 'team-state-secret' };
const SLACK_HOOK = 'https://hooks.slack.example.com/services/T000/B000/canary';

/** The account and state after a real apply of `resources` to an empty fake account. */
async function deployed(resources: DesiredResource[]): Promise<{ live: Live; state: State }> {
  const account = new FakeAccount();
  const backend = new MemoryBackend(emptyState('acct'));
  const result = await apply(plan(resources, emptyLive(), await backend.read(), NOW), {
    client: account,
    backend,
  });
  expect(result.ok).toBe(true);
  return { live: await readLive(account), state: result.state };
}

/** The routing section of the plan that takes the account from `before` to `after`. */
async function routingOf(before: () => void, after: () => void) {
  const account = await deployed(code(before));
  return planRouting(plan(code(after), account.live, account.state, NOW), account);
}

const pd = () =>
  new PagerdutyAlertChannel('prod-oncall', { serviceKey: 'pd-key', serviceName: 'prod-oncall' });
const slack = (props: { sendRecovery?: boolean } = {}) =>
  new SlackAlertChannel('payments-slack', { url: SLACK_HOOK, channel: '#payments', ...props });

describe('planRouting: the groups whose route a plan changes', () => {
  it('a field in ignoreChanges keeps the account’s value: a group muted in the account stays muted after an update', async () => {
    const mail = () => new EmailAlertChannel('mail', { address: 'ops@example.com' });
    const account = await deployed(
      code(() => new CheckGroup('g', { name: 'G', alertChannels: [mail()] }, { ignoreChanges: ['muted'] })),
    );
    const group = account.live.CheckGroup[0] as Record<string, unknown>;
    group.muted = true;
    const made = plan(
      code(() => new CheckGroup('g', { name: 'G2', alertChannels: [mail()] }, { ignoreChanges: ['muted'] })),
      account.live,
      account.state,
      NOW,
    );
    expect(made.operations.map((op) => op.action)).toEqual(['update']);
    // Muted before and after: the rename changes no one's pager.
    expect(planRouting(made, account)).toEqual({ changes: [], unrouted: [] });
  });

  it('shows a removed subscription as the route before and after, one line each', async () => {
    const routing = await routingOf(
      () => new CheckGroup('payments', { name: 'Payments', alertChannels: [pd(), slack()] }),
      () => {
        pd();
        new CheckGroup('payments', { name: 'Payments', alertChannels: [slack()] });
      },
    );
    // The picture of the change is routing-picture.test.ts's.
    expect({ ...routing, picture: undefined }).toEqual({
      changes: [
        {
          group: 'CheckGroup:payments',
          logicalId: 'payments',
          name: 'Payments',
          before: 'failures, recoveries → PagerDuty (prod-oncall), Slack #payments',
          after: 'failures, recoveries → Slack #payments',
          noFailureRoute: false,
        },
      ],
      unrouted: [],
    });
  });

  it.each([
    ["a channel's send switch", () => slack({ sendRecovery: false }), 'failures → Slack #payments'],
    ['a deleted channel (and its subscription)', () => undefined, 'failures → no one'],
  ])('follows %s', async (_, channel, after) => {
    const routing = await routingOf(
      () => new CheckGroup('payments', { name: 'Payments', alertChannels: [slack()] }),
      () => {
        const c = channel();
        new CheckGroup('payments', { name: 'Payments', alertChannels: c === undefined ? [] : [c] });
      },
    );
    expect(routing.changes.map((c) => [c.before, c.after])).toEqual([
      ['failures, recoveries → Slack #payments', after],
    ]);
  });

  it('flags a group muted by the plan as left with no route for failures', async () => {
    const mail = () => new EmailAlertChannel('mail', { address: 'oncall@acme.example' });
    const routing = await routingOf(
      () => new CheckGroup('payments', { name: 'Payments', alertChannels: [mail()] }),
      () => new CheckGroup('payments', { name: 'Payments', muted: true, alertChannels: [mail()] }),
    );
    expect(routing.changes[0]?.after).toBe('muted: nothing is sent');
    expect(routing.unrouted).toEqual(['CheckGroup:payments']);
  });

  it("follows a maintenance window's silencing and its schedule", async () => {
    const group = () =>
      new CheckGroup('payments', { name: 'Payments', tags: ['prod'], alertChannels: [slack()] });
    const window = (props: Partial<ConstructorParameters<typeof MaintenanceWindow>[1]>) =>
      new MaintenanceWindow('deploys', {
        name: 'Deploys',
        startsAt: '2026-12-01T01:00:00Z',
        endsAt: '2026-12-01T02:00:00Z',
        ...props,
      });
    const silenced = await routingOf(
      () => {
        group();
        window({});
      },
      () => {
        group();
        window({ silenceAlertsTags: ['prod'] });
      },
    );
    expect(silenced.changes.map((c) => c.after)).toEqual([
      'failures, recoveries → Slack #payments; silenced by “Deploys” (2026-12-01 01:00–02:00 UTC)',
    ]);
    const moved = await routingOf(
      () => {
        group();
        window({ silenceAllAlerts: true });
      },
      () => {
        group();
        window({ silenceAllAlerts: true, repeatUnit: 'DAY', timezone: 'Europe/Berlin' });
      },
    );
    expect(moved.changes.map((c) => c.after)).toEqual([
      'failures, recoveries → Slack #payments; silenced by “Deploys” (2026-12-01 02:00–03:00 Europe/Berlin, every day, no end)',
    ]);
  });

  it('lists a new group with no route before, flagged when it has none for failures', async () => {
    const routing = await routingOf(
      () => new CheckGroup('payments', { name: 'Payments', alertChannels: [slack()] }),
      () => {
        new CheckGroup('payments', { name: 'Payments', alertChannels: [slack()] });
        new CheckGroup('search', { name: 'Search' });
      },
    );
    expect({ ...routing, picture: undefined }).toEqual({
      changes: [
        {
          group: 'CheckGroup:search',
          logicalId: 'search',
          name: 'Search',
          before: null,
          after: 'failures → no one',
          noFailureRoute: true,
        },
      ],
      unrouted: ['CheckGroup:search'],
    });
  });

  it('says nothing when the plan changes no route (other fields, no changes)', async () => {
    const declare = (concurrency: number) => () =>
      new CheckGroup('payments', { name: 'Payments', concurrency, alertChannels: [slack()] });
    expect(await routingOf(declare(3), declare(5))).toEqual({ changes: [], unrouted: [] });
    expect(await routingOf(declare(3), declare(3))).toEqual({ changes: [], unrouted: [] });
  });

  it('shows only what a partial plan (--target) applies: the groups it leaves stay as the account has them', async () => {
    const account = await deployed(
      code(() => {
        const channel = slack();
        new CheckGroup('payments', { name: 'Payments', alertChannels: [channel] });
        new CheckGroup('search', { name: 'Search', alertChannels: [channel] });
      }),
    );
    const next = code(() => {
      const channel = slack();
      new CheckGroup('payments', { name: 'Payments', muted: true, alertChannels: [channel] });
      new CheckGroup('search', { name: 'Search', muted: true, alertChannels: [channel] });
    });
    const routing = planRouting(
      plan(next, account.live, account.state, { ...NOW, targets: ['search'] }),
      account,
    );
    expect(routing.changes.map((c) => [c.logicalId, c.after])).toEqual([
      ['search', 'muted: nothing is sent'],
    ]);
  });

  it('lines up a group the plan adopts with its route in the account', async () => {
    const account = await deployed(
      code(() => new CheckGroup('payments', { name: 'Payments', alertChannels: [slack()] })),
    );
    // The state is lost: the group is in the account, and the code adopts it under a new logical id.
    const adopted = code(() => {
      slack();
      new CheckGroup('payments-api', { name: 'Payments', alertChannels: [] }, { adopt: true });
    });
    const state = {
      ...account.state,
      resources: Object.fromEntries(
        Object.entries(account.state.resources).filter(([key]) => key.startsWith('AlertChannel:')),
      ),
    };
    const made = plan(adopted, account.live, state, NOW);
    expect(made.operations.map((o) => [o.action, o.logicalId])).toContainEqual(['adopt', 'payments-api']);
    expect(planRouting(made, { live: account.live, state }).changes).toEqual([
      {
        group: 'CheckGroup:payments-api',
        logicalId: 'payments-api',
        name: 'Payments',
        before: 'failures, recoveries → Slack #payments',
        after: 'failures → no one',
        noFailureRoute: true,
      },
    ]);
  });

  it('leaves out groups the plan deletes', async () => {
    const routing = await routingOf(
      () => new CheckGroup('payments', { name: 'Payments', alertChannels: [slack()] }),
      () => slack(),
    );
    expect(routing.changes).toEqual([]);
  });
});
