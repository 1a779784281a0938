import {
  CheckGroup,
  createSession,
  type DesiredResource,
  EmailAlertChannel,
  PagerdutyAlertChannel,
  synth,
} from '@monitor/constructs';
import { beforeEach, describe, expect, it } from 'vitest';
import { apply } from '../apply/apply.js';
import { ByPhysicalId } from '../identity.js';
import { readLive } from '../live/read-live.js';
import { type Live, plan } from '../plan/plan.js';
import { emptyState, type State } from '../state/state.js';
import { FakeAccount, MemoryBackend } from '../test-support/doubles.js';
import { planImport } from './import.js';
import { camelCase, constantCase, kebabCase, UniqueNames, wordsOf } from './names.js';

const NOW = new Date('2026-11-23T00:00:00Z');
const KEY = 'team-state-secret';

function desired(): DesiredResource[] {
  const { resources, diagnostics } = synth();
  expect(diagnostics).toEqual([]);
  return resources;
}

/** An account holding what the open session declares, created by another project (its state is returned). */
async function accountWith(): Promise<{ live: Live; state: State }> {
  const account = new FakeAccount();
  const backend = new MemoryBackend(emptyState('acct'));
  const made = plan(desired(), await readLive(account), await backend.read(), { now: NOW, secretKey: KEY });
  const result = await apply(made, { client: account, backend });
  expect(result.ok).toBe(true);
  createSession();
  return { live: await readLive(account), state: result.state };
}

beforeEach(() => {
  createSession();
});

describe('names', () => {
  it('makes identifiers, logical ids and variable names from resource names', () => {
    expect(wordsOf('Payments API (EU) — Café')).toEqual(['payments', 'api', 'eu', 'cafe']);
    expect(wordsOf('paymentsApi')).toEqual(['payments', 'api']);
    expect(camelCase(wordsOf('Payments API'), 'group')).toBe('paymentsApi');
    expect(camelCase(wordsOf('5xx alerts'), 'group')).toBe('group5xxAlerts');
    expect(camelCase(wordsOf('default'), 'group')).toBe('defaultGroup');
    expect(camelCase([], 'channel')).toBe('channel');
    expect(kebabCase(wordsOf('#payments-alerts'), 'channel')).toBe('payments-alerts');
    expect(constantCase('paymentsApi', 'API_TOKEN')).toBe('PAYMENTS_API_API_TOKEN');
    const names = new UniqueNames(['taken']);
    expect([names.take('taken'), names.take('a'), names.take('a')]).toEqual(['taken2', 'a', 'a2']);
  });
});

describe('planImport', () => {
  it('imports what nobody owns with only the fields that differ from the defaults, references as variables', async () => {
    const mail = new EmailAlertChannel('mail', { address: 'oncall@example.com', sendDegraded: true });
    new CheckGroup('g', {
      name: 'Payments API',
      muted: true,
      alertChannels: [{ channel: mail, activated: false }],
      environmentVariables: [{ key: 'TOKEN', value: 'abc', secret: true }],
    });
    const { live } = await accountWith();
    const result = planImport({ live, state: emptyState('acct'), code: [], now: NOW, secretKey: KEY });
    expect(result.diagnostics).toEqual([]);
    const [channel, group] = result.resources;
    expect(channel).toMatchObject({
      construct: 'EmailAlertChannel',
      logicalId: 'oncall-example-com',
      variable: 'oncallExampleComEmail',
      module: 'alert-channels',
      props: { address: 'oncall@example.com', sendDegraded: true },
    });
    expect(Object.keys(channel?.props ?? {})).toEqual(['address', 'sendDegraded']);
    expect(group?.props).toEqual({
      name: 'Payments API',
      muted: true,
      environmentVariables: [
        {
          key: 'TOKEN',
          value: {
            $import: 'secret',
            path: 'environmentVariables[TOKEN].value',
            value: '',
            masked: true,
            env: 'PAYMENTS_API_TOKEN',
          },
          secret: true,
        },
      ],
      alertChannels: [
        {
          channel: { $import: 'ref', kind: 'AlertChannel', physicalId: channel?.physicalId },
          activated: false,
        },
      ],
    });
    expect(result.secrets).toEqual([
      {
        env: 'PAYMENTS_API_TOKEN',
        kind: 'CheckGroup',
        logicalId: 'payments-api',
        path: 'environmentVariables[TOKEN].value',
        masked: true,
        set: false,
      },
    ]);
    // The masked token was not given: the only thing the next diff shows.
    expect(result.remaining.map((op) => op.logicalId)).toEqual(['payments-api']);
  });

  it('takes a masked secret given in the environment as the value, so the next diff shows nothing', async () => {
    new CheckGroup('g', {
      name: 'Payments API',
      environmentVariables: [{ key: 'TOKEN', value: 'abc', secret: true }],
    });
    const { live } = await accountWith();
    const result = planImport({
      live,
      state: emptyState('acct'),
      code: [],
      env: { PAYMENTS_API_TOKEN: 'abc' },
      now: NOW,
      secretKey: KEY,
    });
    expect(result.secrets[0]?.set).toBe(true);
    expect(result.remaining).toEqual([]);
    expect(Object.keys(result.entries['CheckGroup:payments-api']?.secretHashes ?? {})).toEqual([
      'environmentVariables[TOKEN].value',
    ]);
  });

  it('leaves out what the config defaults give, what this project owns and what other projects own', async () => {
    new CheckGroup('a', { name: 'A', runtimeId: '2026.04', locations: ['eu-west-1'] });
    new CheckGroup('b', { name: 'B' });
    new PagerdutyAlertChannel('pd', { serviceKey: 'k1' });
    const { live, state } = await accountWith();
    const mine = {
      ...emptyState('acct'),
      resources: { 'CheckGroup:b': state.resources['CheckGroup:b'] },
    } as State;
    const pd = live.AlertChannel[0]?.id as number;
    const result = planImport({
      live,
      state: mine,
      code: [],
      defaults: { CheckGroup: { runtimeId: '2026.04' } },
      otherOwners: new ByPhysicalId<string>().set('AlertChannel', pd, 'payments-team'),
      now: NOW,
    });
    expect(result.resources.map((r) => [r.logicalId, r.props])).toEqual([
      ['a', { name: 'A', locations: ['eu-west-1'] }],
    ]);
    expect(result.ownedElsewhere).toEqual([
      { kind: 'AlertChannel', physicalId: pd, project: 'payments-team' },
    ]);
  });

  it('selects by kind, id, name glob and tag', async () => {
    new CheckGroup('a', { name: 'Payments API', tags: ['prod'] });
    new CheckGroup('b', { name: 'Payments UI', tags: ['staging'] });
    new EmailAlertChannel('m', { address: 'x@example.com' });
    const { live } = await accountWith();
    const names = (filters: Parameters<typeof planImport>[0]['filters']) =>
      planImport({ live, state: emptyState('acct'), code: [], filters, now: NOW }).resources.map(
        (r) => r.name,
      );
    expect(names({ kinds: ['CheckGroup'] })).toEqual(['Payments API', 'Payments UI']);
    expect(names({ names: ['Payments*'] })).toEqual(['Payments API', 'Payments UI']);
    expect(names({ names: ['*UI'], tags: ['prod'] })).toEqual([]);
    expect(names({ tags: ['staging'] })).toEqual(['Payments UI']);
    expect(names({ ids: [String(live.AlertChannel[0]?.id)] })).toEqual(['x@example.com']);
  });

  it('finds the code’s constructs again after lost state: by natural key, and alert channels by content', async () => {
    const mail = new EmailAlertChannel('mail', { address: 'oncall@example.com' });
    new CheckGroup('g', { name: 'Payments API', muted: true, alertChannels: [mail] });
    const { live } = await accountWith();
    const code = (() => {
      const m = new EmailAlertChannel('mail', { address: 'oncall@example.com' });
      new CheckGroup('g', { name: 'Payments API', muted: false, alertChannels: [m] });
      return desired();
    })();
    const result = planImport({ live, state: emptyState('acct'), code, now: NOW, secretKey: KEY });
    expect(result.resources).toEqual([]);
    expect(result.recovered.map((r) => [r.logicalId, r.byContent, r.changes])).toEqual([
      ['mail', true, 0],
      ['g', false, 1],
    ]);
    // With the entries recorded, the plan updates the group (muted) and creates nothing.
    const state = { ...emptyState('acct'), resources: result.entries };
    const next = plan(code, live, state, { now: NOW, secretKey: KEY });
    expect(next.operations.map((op) => [op.action, op.logicalId])).toEqual([['update', 'g']]);
    expect(next.operations[0]).toMatchObject({ drift: false });
  });
});
