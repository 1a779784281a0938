import { KINDS, redactPayload } from '@monitor/api/definitions';
import {
  CheckGroup,
  createSession,
  Dashboard,
  type Diagnostic,
  EmailAlertChannel,
  MaintenanceWindow,
  StatusPage,
  StatusPageService,
  synth,
  WebhookAlertChannel,
} from '@monitor/constructs';
import { beforeEach, describe, expect, it } from 'vitest';
import { plan } from '../plan/plan.js';
import { SourceText } from '../positions/prop-location.js';
import type { SourceReader } from '../positions/source-reader.js';
import { emptyState } from '../state/state.js';
import { construct, entry, liveOf, stateOf } from '../test-support/planning.js';
import { runConstructPolicies, runPlanPolicies } from './run.js';
import { selectPolicies } from './select.js';
import { ResourceView } from './views.js';

const BUILT_INS = selectPolicies([], {}).set;
const NOW = { now: new Date('2026-11-21T00:00:00Z') };
const noSource = () => undefined;

/** The built-in construct rules' findings on the constructs made in the open session, by policy. */
function constructFindings(sourceOf: SourceReader = noSource): Diagnostic[] {
  const { resources, diagnostics } = synth({ validate: false });
  expect(diagnostics).toEqual([]);
  return runConstructPolicies(resources, BUILT_INS, { environment: undefined, sourceOf });
}

const named = (findings: Diagnostic[], policy: string) => findings.filter((f) => f.policy === policy);

beforeEach(() => {
  createSession();
});

describe('group-without-alert-channel', () => {
  it('finds a group with no subscription, or none activated; not one with an activated subscription', () => {
    const email = new EmailAlertChannel('ops', { address: 'ops@example.com' });
    new CheckGroup('none', { name: 'None' });
    new CheckGroup('off', { name: 'Off', alertChannels: [{ channel: email, activated: false }] });
    new CheckGroup('ok', { name: 'Ok', alertChannels: [email] });
    const found = named(constructFindings(), 'group-without-alert-channel');
    expect(found.map((f) => [f.logicalId, f.severity, f.message])).toEqual([
      ['none', 'warning', 'has no alert-channel subscription: no one is told when its checks fail'],
      [
        'off',
        'warning',
        'has 1 alert-channel subscription, none activated: no one is told when its checks fail',
      ],
    ]);
  });
});

describe('group-activated-but-muted and group-muted-without-comment', () => {
  const source = [
    "import { CheckGroup } from '@monitor/constructs';",
    "new CheckGroup('quiet', {",
    "  name: 'Quiet',",
    '  muted: true, // the vendor is migrating, TICKET-9',
    '});',
    "new CheckGroup('silent', {",
    "  name: 'Silent',",
    '  muted: true,',
    '});',
    "new CheckGroup('parked', {",
    "  name: 'Parked',",
    '  activated: false,',
    '  // parked until the new API ships',
    '  muted: true,',
    '});',
  ].join('\n');
  const at = (line: number) => ({ file: '/p/a.monitor.ts', line, column: 1 });

  it('an activated muted group is found, with the comment when there is one; a muted one without a comment too', () => {
    const group = (id: string, line: number, payload: Record<string, unknown>) => ({
      ...construct('CheckGroup', id, {
        activated: true,
        muted: true,
        alertChannelSubscriptions: [],
        ...payload,
      }),
      location: at(line),
    });
    const resources = [
      group('quiet', 2, { name: 'Quiet' }),
      group('silent', 6, { name: 'Silent' }),
      group('parked', 10, { name: 'Parked', activated: false }),
    ];
    const found = runConstructPolicies(resources, BUILT_INS, {
      environment: undefined,
      sourceOf: (file) => (file === '/p/a.monitor.ts' ? new SourceText(source) : undefined),
    });
    expect(named(found, 'group-activated-but-muted').map((f) => [f.logicalId, f.message])).toEqual([
      [
        'quiet',
        'is activated but muted: its checks run and no one is alerted when they fail (in code: "the vendor is migrating, TICKET-9")',
      ],
      ['silent', 'is activated but muted: its checks run and no one is alerted when they fail'],
    ]);
    // The comment above the prop counts too; a group muted with none is found, activated or not.
    expect(named(found, 'group-muted-without-comment').map((f) => f.logicalId)).toEqual(['silent']);
  });

  it('reads the comment beside a prop once, however many rules ask about it', () => {
    let reads = 0;
    const view = new ResourceView(
      { ...construct('CheckGroup', 'quiet', { muted: true }), location: at(2) },
      undefined,
      (file) => {
        reads++;
        return file === '/p/a.monitor.ts' ? new SourceText(source) : undefined;
      },
    );
    expect(view.commentOn('muted')).toBe('the vendor is migrating, TICKET-9');
    expect(view.commentOn('muted')).toBe('the vendor is migrating, TICKET-9');
    expect(reads).toBe(1);
    expect(view.commentOn('name')).toBeUndefined();
    expect(view.commentOn('name')).toBeUndefined();
    expect(reads).toBe(2);
  });

  it('a muted group whose source cannot be read has no comment', () => {
    new CheckGroup('g', { name: 'G', muted: true, activated: false });
    expect(named(constructFindings(), 'group-muted-without-comment').map((f) => f.logicalId)).toEqual(['g']);
  });
});

describe('maintenance windows', () => {
  it('finds silenceAllAlerts, a window longer than 24 hours, and a repeat with no end', () => {
    new MaintenanceWindow('all', {
      name: 'All',
      startsAt: '2026-12-01T00:00:00Z',
      endsAt: '2026-12-01T02:00:00Z',
      silenceAllAlerts: true,
    });
    new MaintenanceWindow('long', {
      name: 'Long',
      startsAt: '2026-12-01T00:00:00Z',
      endsAt: '2026-12-02T00:00:01Z',
    });
    new MaintenanceWindow('day', {
      name: 'Exactly a day',
      startsAt: '2026-12-01T00:00:00Z',
      endsAt: '2026-12-02T00:00:00Z',
    });
    new MaintenanceWindow('forever', {
      name: 'Forever',
      startsAt: '2026-12-01T00:00:00Z',
      endsAt: '2026-12-01T01:00:00Z',
      repeatUnit: 'WEEK',
      repeatInterval: 2,
    });
    new MaintenanceWindow('ends', {
      name: 'Ends',
      startsAt: '2026-12-01T00:00:00Z',
      endsAt: '2026-12-01T01:00:00Z',
      repeatUnit: 'WEEK',
      repeatEndsAt: '2027-06-01T00:00:00Z',
    });
    const found = constructFindings();
    expect(named(found, 'maintenance-silences-all-alerts').map((f) => [f.logicalId, f.path])).toEqual([
      ['all', 'silenceAllAlerts'],
    ]);
    expect(named(found, 'maintenance-longer-than-a-day').map((f) => [f.logicalId, f.message])).toEqual([
      ['long', 'lasts 24 hours at a time: alerts are silenced for more than 24 hours'],
    ]);
    expect(named(found, 'maintenance-repeats-forever').map((f) => [f.logicalId, f.message])).toEqual([
      ['forever', 'repeats every 2 week(s) with no repeatEndsAt: it silences alerts forever'],
    ]);
  });

  it('the hint for silenceAllAlerts gives no example of tags, never another project’s', () => {
    new MaintenanceWindow('db', {
      name: 'DB',
      startsAt: '2026-12-01T00:00:00Z',
      endsAt: '2026-12-01T02:00:00Z',
      tags: ['search', 'db'],
      silenceAllAlerts: true,
    });
    const hints = named(constructFindings(), 'maintenance-silences-all-alerts').map((f) => [
      f.logicalId,
      f.hint,
    ]);
    expect(hints).toEqual([
      [
        'db',
        'silence only the tags of the checks it is for: silenceAllAlerts: false, and those tags in silenceAlertsTags',
      ],
    ]);
    expect(JSON.stringify(hints)).not.toContain('payments');
  });
});

describe('status pages and dashboards', () => {
  it('finds a status-page card with no services, at the card', () => {
    const api = new StatusPageService('api', { name: 'API' });
    new StatusPage('status', {
      name: 'Status',
      url: 'acme-status',
      cards: [
        { name: 'Core', services: [api] },
        { name: 'Empty', services: [] },
      ],
    });
    expect(
      named(constructFindings(), 'status-page-card-without-services').map((f) => [f.path, f.message]),
    ).toEqual([['cards[1]', 'card "Empty" has no services: it shows nothing']]);
  });

  it('finds a dashboard whose tags select no group of the project, with OR and with AND', () => {
    new CheckGroup('pay', { name: 'Pay', tags: ['payments', 'prod'] });
    new CheckGroup('search', { name: 'Search', tags: ['search'] });
    new Dashboard('any', { header: 'Any', tags: ['payments', 'nothing'] });
    new Dashboard('all-ok', { header: 'All', tags: ['payments', 'prod'], useTagsAndOperator: true });
    new Dashboard('all-none', { header: 'None', tags: ['payments', 'search'], useTagsAndOperator: true });
    new Dashboard('typo', { header: 'Typo', tags: ['payment'] });
    new Dashboard('untagged', { header: 'Everything' });
    expect(
      named(constructFindings(), 'dashboard-tags-match-nothing').map((f) => [f.logicalId, f.message]),
    ).toEqual([
      [
        'all-none',
        'selects checks by tags "payments" and "search", which no check group of the project has together',
      ],
      ['typo', 'selects checks by tags "payment", which no check group of the project has'],
    ]);
  });
});

describe('alert-channel-sends-nothing', () => {
  it('finds a channel with every send switch off, saying when it still sends SSL notices', () => {
    new EmailAlertChannel('mute', {
      address: 'a@example.com',
      sendFailure: false,
      sendRecovery: false,
      sendDegraded: false,
    });
    new EmailAlertChannel('ssl', {
      address: 'b@example.com',
      sendFailure: false,
      sendRecovery: false,
      sslExpiry: true,
    });
    new EmailAlertChannel('fine', { address: 'c@example.com', sendFailure: false });
    expect(
      named(constructFindings(), 'alert-channel-sends-nothing').map((f) => [f.logicalId, f.message]),
    ).toEqual([
      ['mute', 'has every send* switch off: it never tells anyone a check failed, recovered or degraded'],
      [
        'ssl',
        'has every send* switch off: it never tells anyone a check failed, recovered or degraded (only SSL expiry notices)',
      ],
    ]);
  });
});

describe('what the built-ins read', () => {
  /** A construct of every kind, with something each built-in construct rule finds, and a secret. */
  function everyFinding(): void {
    const mail = new EmailAlertChannel('mute', {
      address: 'a@example.com',
      sendFailure: false,
      sendRecovery: false,
      sendDegraded: false,
    });
    new CheckGroup('muted', {
      name: 'Muted',
      muted: true,
      tags: ['pay'],
      environmentVariables: [{ key: 'TOKEN', value: 'tok-secret', secret: true }],
      alertChannels: [{ channel: mail, activated: false }],
    });
    new MaintenanceWindow('all', {
      name: 'All',
      startsAt: '2026-12-01T00:00:00Z',
      endsAt: '2026-12-03T00:00:00Z',
      repeatUnit: 'WEEK',
      silenceAllAlerts: true,
    });
    new StatusPage('status', {
      name: 'Status',
      url: 'acme-status',
      cards: [{ name: 'Empty', services: [] }],
    });
    new Dashboard('typo', { header: 'Typo', tags: ['payment'] });
  }

  it('the built-ins find the same on frozen copies as on the payloads themselves, and change nothing', () => {
    everyFinding();
    const { resources } = synth({ validate: false });
    const before = structuredClone(resources.map((r) => r.payload));
    const alone = runConstructPolicies(resources, BUILT_INS, { environment: undefined, sourceOf: noSource });
    // A project policy among them: every rule then reads frozen copies, a write would throw.
    const quiet = selectPolicies(
      [{ name: 'quiet', description: 'Finds nothing.', severity: 'warning', check: () => undefined }],
      {},
    ).set;
    const copied = runConstructPolicies(resources, quiet, { environment: undefined, sourceOf: noSource });
    expect(new Set(alone.map((f) => f.policy)).size).toBe(9);
    expect(copied).toEqual(alone);
    expect(resources.map((r) => r.payload)).toEqual(before);
  });

  it('a view for monitor’s own policies reads the payload, its secrets masked, without a frozen copy', () => {
    everyFinding();
    const { resources } = synth({ validate: false });
    const byId = (id: string) => resources.find((r) => r.logicalId === id) as (typeof resources)[number];
    const own = (id: string) => new ResourceView(byId(id), undefined, noSource, false).payload;
    expect(own('typo').tags).toBe(byId('typo').payload.tags);
    expect(Object.isFrozen(own('typo'))).toBe(false);
    expect(JSON.stringify(own('muted'))).not.toContain('tok-secret');
    expect(JSON.stringify(own('muted'))).toContain('(sensitive value)');
    const copied = new ResourceView(byId('typo'), undefined, noSource).payload;
    expect(copied).not.toBe(byId('typo').payload);
    expect(Object.isFrozen(copied)).toBe(true);
  });

  it('however a built-in reads a payload, it reads what redactPayload makes of it, never a secret', () => {
    everyFinding();
    new WebhookAlertChannel('hook', {
      name: 'Hook',
      url: 'https://hooks.example/in',
      webhookSecret: 'whsec-secret',
      headers: [{ key: 'authorization', value: 'Bearer header-secret' }],
      sendFailure: false,
    });
    const { resources } = synth({ validate: false });
    for (const r of resources) {
      const payload = new ResourceView(r, undefined, noSource, false).payload;
      const expected = redactPayload(KINDS[r.kind], r.payload);
      expect(JSON.parse(JSON.stringify(payload)), r.logicalId).toEqual(expected);
      expect(Object.fromEntries(Object.entries(payload))).toEqual({ ...expected });
      for (const key of Object.keys(payload)) {
        expect(payload[key]).toEqual(expected[key]);
        // A field that holds no secret is the payload's own, not a copy.
        if (expected[key] === r.payload[key]) expect(payload[key]).toBe(r.payload[key]);
        const described = Object.getOwnPropertyDescriptor(payload, key);
        expect(described?.get === undefined ? described?.value : described.get()).toEqual(expected[key]);
      }
      expect(JSON.stringify({ ...payload })).not.toMatch(/(tok|whsec|header)-secret/);
    }
    const hook = resources.find((r) => r.logicalId === 'hook') as (typeof resources)[number];
    expect(new ResourceView(hook, undefined, noSource, false).payload.sendFailure).toBe(false);
    // A payload frozen by whoever made it reads the same.
    const frozen = { ...hook, payload: Object.freeze({ ...hook.payload }) };
    expect(new ResourceView(frozen, undefined, noSource, false).payload).toEqual(
      redactPayload(KINDS.AlertChannel, hook.payload),
    );
    // So does one whose secret-holding field alone cannot be changed (a custom synthesize may make
    // it so): a view could not read that field otherwise than it is.
    const fixed = Object.defineProperty({ ...hook.payload }, 'config', {
      value: hook.payload.config,
      writable: false,
      configurable: false,
      enumerable: true,
    });
    const read = new ResourceView({ ...hook, payload: fixed }, undefined, noSource, false).payload;
    expect(read.config).toEqual(redactPayload(KINDS.AlertChannel, hook.payload).config);
    expect(JSON.stringify(read)).not.toContain('whsec-secret');
  });
});

describe('plan rules', () => {
  const channelLive = {
    id: 7,
    type: 'EMAIL',
    name: 'ops@example.com',
    config: { address: 'ops@example.com' },
  };

  it('deleting a status page and a dashboard is found; deleting a channel groups still subscribe to names them', () => {
    const live = liveOf({
      StatusPage: [{ id: 'sp-1', name: 'Public status', url: 'acme', cards: [] }],
      Dashboard: [{ id: 'd-1', header: 'Ops board', tags: [] }],
      AlertChannel: [channelLive, { ...channelLive, id: 8 }],
      CheckGroup: [
        { id: 11, name: 'Payments', alertChannelSubscriptions: [{ alertChannelId: 7, activated: true }] },
        { id: 12, name: 'Not ours', alertChannelSubscriptions: [{ alertChannelId: 7, activated: true }] },
        { id: 13, name: 'Moving', alertChannelSubscriptions: [{ alertChannelId: 7, activated: true }] },
      ],
    });
    const state = stateOf([
      entry('StatusPage', 'status', 'sp-1'),
      entry('Dashboard', 'board', 'd-1'),
      entry('AlertChannel', 'ops', 7),
      entry('AlertChannel', 'spare', 8),
      entry('CheckGroup', 'payments', 11),
      entry('CheckGroup', 'moving', 13),
    ]);
    // payments stays subscribed (unchanged in code, by id); moving drops the channel in this plan.
    const code = [
      construct('CheckGroup', 'payments', {
        name: 'Payments',
        alertChannelSubscriptions: [{ alertChannelId: 7, activated: true }],
      }),
      construct('CheckGroup', 'moving', { name: 'Moving', alertChannelSubscriptions: [] }),
    ];
    const made = plan(code, live, state, NOW);
    const found = runPlanPolicies(made, live, code, BUILT_INS, {
      environment: undefined,
      sourceOf: noSource,
    });
    expect(named(found, 'deletes-status-page').map((f) => f.message)).toEqual([
      'deletes the status page "Public status" (id sp-1): whoever reads it loses it',
    ]);
    expect(named(found, 'deletes-dashboard').map((f) => f.message)).toEqual([
      'deletes the dashboard "Ops board" (id d-1): whoever reads it loses it',
    ]);
    expect(
      named(found, 'deletes-subscribed-alert-channel').map((f) => [f.logicalId, f.severity, f.message]),
    ).toEqual([
      [
        'ops',
        'warning',
        'deletes alert channel "ops@example.com" (id 7), which 2 check groups still subscribe to: "Payments" (id 11), "Not ours" (id 12). They lose this route for their alerts',
      ],
    ]);
  });

  it('a group created with no subscriptions is found, with the channels autoAssignAlerts would have given it', () => {
    const live = liveOf({ AlertChannel: [channelLive] });
    const code = [
      construct('CheckGroup', 'bare', { name: 'Bare', alertChannelSubscriptions: [] }),
      construct('CheckGroup', 'wired', {
        name: 'Wired',
        alertChannelSubscriptions: [{ alertChannelId: 7, activated: true }],
      }),
    ];
    const made = plan(code, live, emptyState('acct'), NOW);
    const found = runPlanPolicies(made, live, code, BUILT_INS, {
      environment: undefined,
      sourceOf: noSource,
    });
    expect(
      named(found, 'group-created-without-subscriptions').map((f) => [f.logicalId, f.severity, f.message]),
    ).toEqual([
      [
        'bare',
        'info',
        'is created with no alert-channel subscriptions. The service would subscribe a new group to every alert channel in the account (autoAssignAlerts defaults to true; 1 channel here); monitor creates it with autoAssignAlerts=false, so it gets none',
      ],
    ]);
  });

  it('adopting a group with no subscriptions in code says which ones the update removes', () => {
    const live = liveOf({
      AlertChannel: [channelLive],
      CheckGroup: [
        { id: 21, name: 'Legacy', alertChannelSubscriptions: [{ alertChannelId: 7, activated: true }] },
      ],
    });
    const code = [
      construct('CheckGroup', 'legacy', { name: 'Legacy', alertChannelSubscriptions: [] }, { adopt: true }),
    ];
    const made = plan(code, live, emptyState('acct'), NOW);
    expect(made.operations.map((op) => op.action)).toEqual(['adopt']);
    const found = runPlanPolicies(made, live, code, BUILT_INS, {
      environment: undefined,
      sourceOf: noSource,
    });
    expect(named(found, 'group-created-without-subscriptions')).toEqual([]);
    expect(named(found, 'group-adopted-loses-subscriptions').map((f) => f.message)).toEqual([
      'is adopted with no alert-channel subscriptions: the update removes the 1 it has in the account (channel id 7), which autoAssignAlerts probably gave it when it was created',
    ]);
  });
});
