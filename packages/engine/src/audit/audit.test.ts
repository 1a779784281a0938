import { SENSITIVE_VALUE } from '@monitor/api';
import {
  CheckGroup,
  createSession,
  type DesiredResource,
  definePolicy,
  EmailAlertChannel,
  MaintenanceWindow,
  PagerdutyAlertChannel,
  SmsAlertChannel,
  StatusPage,
  StatusPageService,
  synth,
  WebhookAlertChannel,
} from '@monitor/constructs';
import { beforeEach, describe, expect, it } from 'vitest';
import { apply } from '../apply/apply.js';
import { ByPhysicalId } from '../identity.js';
import { readLive } from '../live/read-live.js';
import { type Live, plan } from '../plan/plan.js';
import { selectPolicies } from '../policy/select.js';
import { policyPayload } from '../policy/views.js';
import { sourceReader } from '../positions/source-reader.js';
import { emptyState, type State } from '../state/state.js';
import { FakeAccount, MemoryBackend } from '../test-support/doubles.js';
import { actionable, auditAccount } from './audit.js';
import { liveConstructs } from './live-constructs.js';
import { ownershipOf } from './ownership.js';

const NOW = new Date('2026-11-23T00:00:00Z');
const KEY = 'team-state-secret';
const SERVICE_KEY = 'pd-service-key-0123456789';
const TOKEN = 'group-token-0123456789';

function desired(): DesiredResource[] {
  const { resources, diagnostics } = synth();
  expect(diagnostics).toEqual([]);
  return resources;
}

/** An account holding what the open session declares, deployed by a project: its code, account and state. */
async function deployed(): Promise<{
  code: DesiredResource[];
  live: Live;
  state: State;
  account: FakeAccount;
}> {
  const code = desired();
  const account = new FakeAccount();
  const backend = new MemoryBackend(emptyState('acct'));
  const made = plan(code, await readLive(account), await backend.read(), { now: NOW, secretKey: KEY });
  const result = await apply(made, { client: account, backend });
  expect(result.ok).toBe(true);
  createSession();
  return { code, live: await readLive(account), state: result.state, account };
}

/** What the policies see of a payload: masked and frozen, as at plan time. */
const seen = (d: DesiredResource) => policyPayload(d.kind, d.payload);

const unownedBy = () => ({ owned: 'unowned' }) as const;

beforeEach(() => {
  createSession();
});

describe('liveConstructs: the account as the policies see it', () => {
  it('reads each resource this project owns as the view its construct has at plan time, secrets masked', async () => {
    const pd = new PagerdutyAlertChannel('pd', { serviceKey: SERVICE_KEY });
    const hook = new WebhookAlertChannel('hook', {
      name: 'Hook',
      url: 'https://hooks.example/x',
      headers: [{ key: 'Authorization', value: 'Bearer hook-secret-1234' }],
    });
    new CheckGroup('pay', {
      name: 'Payments',
      tags: ['team:pay'],
      muted: true,
      alertChannels: [pd, { channel: hook, activated: false }],
      environmentVariables: [{ key: 'TOKEN', value: TOKEN, secret: true }],
    });
    const api = new StatusPageService('api', { name: 'API' });
    const page = new StatusPage('status', {
      name: 'Status',
      url: 'acme-status',
      cards: [{ name: 'APIs', services: [api] }],
    });
    new MaintenanceWindow('upgrade', {
      name: 'Upgrade',
      startsAt: '2027-01-10T02:00:00.000Z',
      endsAt: '2027-01-10T04:00:00.000Z',
      tags: ['db'],
      statusPageVisibility: { enabled: true, statusPages: [page], services: [api] },
    });
    const { code, live, state } = await deployed();
    const ownerOf = ownershipOf({ project: 'p', state });
    const { subjects, unreadable } = liveConstructs(live, ownerOf, code, new Set());
    expect(unreadable).toEqual([]);
    const audited = new Map(subjects.map((s) => [`${s.desired.kind}:${s.desired.logicalId}`, s.desired]));
    for (const d of code) {
      const fromLive = audited.get(`${d.kind}:${d.logicalId}`);
      expect(fromLive?.construct, d.logicalId).toBe(d.construct);
      expect(seen(fromLive as DesiredResource), d.logicalId).toEqual(seen(d));
    }
    const group = seen(audited.get('CheckGroup:pay') as DesiredResource);
    expect(group.alertChannelSubscriptions).toEqual([
      { alertChannelId: { $ref: 'AlertChannel:pd' }, activated: true },
      { alertChannelId: { $ref: 'AlertChannel:hook' }, activated: false },
    ]);
    // The service never returns a secret variable's value: it is masked as the code's is.
    expect(group.environmentVariables).toEqual([
      { key: 'TOKEN', value: SENSITIVE_VALUE, secret: true, locked: false },
    ]);
    expect(JSON.stringify(subjects.map((s) => seen(s.desired)))).not.toContain(SERVICE_KEY);
    expect(JSON.stringify(subjects.map((s) => seen(s.desired)))).not.toContain('hook-secret-1234');
  });

  it('names what no project owns by its id (#id), its references to the account’s resources as theirs, others by id', async () => {
    const mail = new EmailAlertChannel('mail', { address: 'ops@example.com' });
    new CheckGroup('g', { name: 'By hand', alertChannels: [mail, EmailAlertChannel.fromId(999)] });
    const { live } = await deployed();
    const { subjects } = liveConstructs(live, unownedBy, [], new Set());
    const channelId = live.AlertChannel[0]?.id;
    const groupId = live.CheckGroup[0]?.id;
    expect(subjects.map((s) => [s.desired.construct, s.desired.logicalId, s.resource.name])).toEqual([
      ['EmailAlertChannel', `#${channelId}`, 'ops@example.com'],
      ['CheckGroup', `#${groupId}`, 'By hand'],
    ]);
    expect(seen(subjects[1]?.desired as DesiredResource).alertChannelSubscriptions).toEqual([
      { alertChannelId: { $ref: `AlertChannel:#${channelId}` }, activated: true },
      // Not in the account: a reference by id, as fromId is in the code.
      { alertChannelId: 999, activated: true },
    ]);
    expect(subjects[1]?.resource).toEqual({
      kind: 'CheckGroup',
      construct: 'CheckGroup',
      physicalId: groupId,
      name: 'By hand',
      owner: { owned: 'unowned' },
    });
  });

  it('keeps the place in the code and the waivers of the constructs this project owns, not of the others', async () => {
    new CheckGroup(
      'quiet',
      { name: 'Quiet' },
      {
        policyExceptions: [
          { policy: 'group-without-alert-channel', reason: 'a canary' },
          { policy: 'no-such-policy', reason: 'typo' },
        ],
      },
    );
    const { code, live, state } = await deployed();
    const { subjects } = liveConstructs(
      live,
      ownershipOf({ project: 'p', state }),
      code,
      new Set(['group-without-alert-channel']),
    );
    expect(subjects[0]?.desired.options.policyExceptions).toEqual([
      { policy: 'group-without-alert-channel', reason: 'a canary' },
    ]);
    expect(subjects[0]?.desired.location).toEqual(code[0]?.location);
    const { subjects: strangers } = liveConstructs(
      live,
      unownedBy,
      code,
      new Set(['group-without-alert-channel']),
    );
    expect(strangers[0]?.desired.options.policyExceptions).toEqual([]);
    expect(strangers[0]?.desired.location).toBeUndefined();
  });
});

describe('ownershipOf', () => {
  it('says here, another project (with its logical id when its state is read) or no one; this project first', () => {
    const entry = (kind: 'CheckGroup' | 'AlertChannel', logicalId: string, physicalId: number) => ({
      [`${kind}:${logicalId}`]: {
        kind,
        logicalId,
        physicalId,
        appliedHash: 'h',
        secretHashes: {},
        protect: false,
      },
    });
    const mine = {
      ...emptyState('acct'),
      resources: { ...entry('CheckGroup', 'pay', 1), ...entry('AlertChannel', 'both', 9) },
    } as State;
    const platform = {
      ...emptyState('acct'),
      resources: { ...entry('AlertChannel', 'oncall', 2), ...entry('AlertChannel', 'both', 9) },
    } as State;
    const ownerOf = ownershipOf({
      project: 'web',
      state: mine,
      otherStates: new Map([['platform', platform]]),
      otherOwners: new ByPhysicalId<string>()
        .set('CheckGroup', 3, 'search')
        .set('AlertChannel', 2, 'platform'),
    });
    expect(ownerOf('CheckGroup', 1)).toEqual({ owned: 'here', project: 'web', logicalId: 'pay' });
    expect(ownerOf('CheckGroup', '1')).toEqual({ owned: 'here', project: 'web', logicalId: 'pay' });
    expect(ownerOf('AlertChannel', 2)).toEqual({
      owned: 'elsewhere',
      project: 'platform',
      logicalId: 'oncall',
    });
    expect(ownerOf('CheckGroup', 3)).toEqual({ owned: 'elsewhere', project: 'search' });
    expect(ownerOf('AlertChannel', 9)).toEqual({ owned: 'here', project: 'web', logicalId: 'both' });
    // Ids are per kind: group 2 is no one's.
    expect(ownerOf('CheckGroup', 2)).toEqual({ owned: 'unowned' });
  });
});

describe('auditAccount', () => {
  const policies = (given: unknown[] = [], severities: Record<string, string> = {}) =>
    selectPolicies(given, severities).set;

  it('finds a group made by hand at the severity the project gives, with the command that takes it over', async () => {
    const mail = new EmailAlertChannel('mail', { address: 'ops@example.com' });
    new CheckGroup('pay', { name: 'Payments', alertChannels: [mail] });
    const { code, live, state, account } = await deployed();
    // Someone makes a group in the UI.
    await account.managed('CheckGroup').create({ name: 'Made by hand', alertChannelSubscriptions: [] });
    const report = auditAccount({
      project: 'p',
      environment: undefined,
      live: await readLive(account),
      state,
      code,
      policies: policies([], { 'group-without-alert-channel': 'error' }),
      sourceOf: sourceReader(),
      importCommand: (kind, id) => `monitor import --kind ${kind} --id ${id} --env prod`,
    });
    expect(live.CheckGroup).toHaveLength(1);
    expect(report.resources).toEqual({ total: 3, here: 2, elsewhere: 0, unowned: 1 });
    const id = (await readLive(account)).CheckGroup.find((g) => g.name === 'Made by hand')?.id;
    expect(report.findings).toEqual([
      {
        severity: 'error',
        policy: 'group-without-alert-channel',
        path: 'alertChannels',
        message: 'has no alert-channel subscription: no one is told when its checks fail',
        hint: 'subscribe it to a channel: alertChannels: [oncall]',
        resource: {
          kind: 'CheckGroup',
          construct: 'CheckGroup',
          physicalId: id,
          name: 'Made by hand',
          owner: { owned: 'unowned' },
        },
        importCommand: `monitor import --kind CheckGroup --id ${id} --env prod`,
      },
    ]);
    expect(report.findings.filter(actionable)).toHaveLength(1);
  });

  it("waives what this project's code waives; errors come first; a policy sees the account's resources through resolve", async () => {
    const mail = new EmailAlertChannel('mail', {
      address: 'ops@example.com',
      sendFailure: false,
      sendRecovery: false,
      sendDegraded: false,
    });
    new CheckGroup(
      'quiet',
      { name: 'Quiet' },
      { policyExceptions: [{ policy: 'group-without-alert-channel', reason: 'a canary' }] },
    );
    new CheckGroup('pay', { name: 'Payments', alertChannels: [mail] });
    const { code, live, state } = await deployed();
    const pagesSomeone = definePolicy({
      name: 'acme/pages-someone',
      description: 'A group subscribes to a channel that sends failures.',
      severity: 'error',
      kinds: ['CheckGroup'],
      check(group, project) {
        const channels = group.payload.alertChannelSubscriptions.map((s) =>
          project.resolve(s.alertChannelId),
        );
        if (channels.some((c) => c?.payload.sendFailure === true)) return undefined;
        return `pages no one (${channels.length} channel${channels.length === 1 ? '' : 's'} of the account found)`;
      },
    });
    const report = auditAccount({
      project: 'p',
      environment: undefined,
      live,
      state,
      code,
      policies: policies([pagesSomeone]),
      sourceOf: sourceReader(),
    });
    expect(report.findings.map((f) => [f.severity, f.policy, f.resource?.name, f.waived?.reason])).toEqual([
      ['error', 'acme/pages-someone', 'Quiet', undefined],
      ['error', 'acme/pages-someone', 'Payments', undefined],
      ['warning', 'alert-channel-sends-nothing', 'ops@example.com', undefined],
      ['info', 'group-without-alert-channel', 'Quiet', 'a canary'],
    ]);
    expect(report.findings[1]?.message).toBe('pages no one (1 channel of the account found)');
    // Owned here: where the code makes it, and no import command.
    expect(report.findings[1]?.location?.file).toBe(code[2]?.location?.file);
    expect(report.findings[1]).not.toHaveProperty('importCommand');
  });

  it('keeps every secret of the account and the code out of what a policy says, and stops one that never returns', async () => {
    new PagerdutyAlertChannel('pd', { serviceKey: SERVICE_KEY });
    new SmsAlertChannel('sms', { number: '+31612345678' });
    const { code, live, state } = await deployed();
    const leaky = definePolicy({
      name: 'acme/leaky',
      description: 'Says what it should not.',
      severity: 'warning',
      kinds: ['AlertChannel'],
      check: () => `the key is ${SERVICE_KEY}, the token ${TOKEN}`,
    });
    const hangs = definePolicy({
      name: 'acme/hangs',
      description: 'Never returns.',
      severity: 'warning',
      kinds: ['CheckGroup'],
      check() {
        for (;;) {}
      },
    });
    createSession();
    new CheckGroup('g', { name: 'G', environmentVariables: [{ key: 'T', value: TOKEN, secret: true }] });
    const withToken = [...code, ...desired()];
    const live2 = {
      ...live,
      CheckGroup: [{ id: 77, name: 'G', environmentVariables: [{ key: 'T', value: '', secret: true }] }],
    };
    const report = auditAccount({
      project: 'p',
      environment: undefined,
      live: live2,
      state,
      code: withToken,
      policies: { ...policies([leaky, hangs]), timeLimitMs: 200 },
      sourceOf: sourceReader(),
    });
    const said = JSON.stringify(report.findings);
    expect(said).not.toContain(SERVICE_KEY);
    expect(said).not.toContain(TOKEN);
    expect(report.findings.filter((f) => f.policy === 'acme/leaky')).toHaveLength(2);
    expect(
      report.findings.find((f) => f.message.startsWith('the policies were stopped after 0.2 s')),
    ).toMatchObject({
      severity: 'error',
      policy: 'acme/hangs',
      resource: { kind: 'CheckGroup', physicalId: 77, owner: { owned: 'unowned' } },
    });
    expect(report.phoneNumbers).toEqual(['+31612345678']);
  });
});
