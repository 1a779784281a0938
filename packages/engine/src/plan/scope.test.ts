import {
  CheckGroup,
  createSession,
  EmailAlertChannel,
  StatusPage,
  StatusPageService,
} from '@monitor/constructs';
import { beforeEach, describe, expect, it } from 'vitest';
import { apply } from '../apply/apply.js';
import { emptyLive, readLive } from '../live/read-live.js';
import { renderPlanText } from '../render/render.js';
import { PLAIN } from '../render/style.js';
import { emptyState } from '../state/state.js';
import { FakeAccount, MemoryBackend } from '../test-support/doubles.js';
import { synthesized } from '../test-support/planning.js';
import { TargetError } from './errors.js';
import { plan } from './plan.js';
import { resolveIds } from './targets.js';

/** `--target` and `--replace`: what a plan covers. */

const NOW = { now: new Date('2026-11-24T00:00:00Z'), secretKey: 'k' };

const project = () => {
  const mail = new EmailAlertChannel('mail', { address: 'ops@example.com' });
  new CheckGroup('payments', { name: 'Payments', alertChannels: [mail] });
  new CheckGroup('search', { name: 'Search' });
  const api = new StatusPageService('api', { name: 'API' });
  new StatusPage('status', { name: 'Status', url: 'acme-scope', cards: [{ name: 'Core', services: [api] }] });
};

async function deployed() {
  const account = new FakeAccount();
  const backend = new MemoryBackend(emptyState('acct'));
  const result = await apply(plan(synthesized(project), emptyLive(), await backend.read(), NOW), {
    client: account,
    backend,
  });
  expect(result.ok).toBe(true);
  return { account, backend };
}

beforeEach(() => {
  createSession();
});

describe('resolveIds', () => {
  const code = () => synthesized(project);
  it.each([
    { ids: ['payments'], keys: ['CheckGroup:payments'] },
    { ids: ['CheckGroup:search'], keys: ['CheckGroup:search'] },
    { ids: ['api', 'mail'], keys: ['StatusPageService:api', 'AlertChannel:mail'] },
  ])('$ids → $keys', ({ ids, keys }) => {
    expect(resolveIds(ids, code(), emptyState('acct'), '--target')).toEqual(keys);
  });

  it('an id that names nothing is an error with the nearest name; one that names two kinds asks for the kind', () => {
    const c = code();
    expect(() => resolveIds(['payment'], c, emptyState('acct'), '--target')).toThrow(
      /--target payment: the project has no construct and no state entry of that name/,
    );
    const error = (() => {
      try {
        resolveIds(['payment'], c, emptyState('acct'), '--target');
      } catch (e) {
        return e as TargetError;
      }
    })();
    expect(error).toBeInstanceOf(TargetError);
    expect(error?.hint).toBe('did you mean payments?');
    const twice = synthesized(() => {
      new CheckGroup('x', { name: 'X' });
      new EmailAlertChannel('x', { address: 'x@example.com' });
    });
    expect(() => resolveIds(['x'], twice, emptyState('acct'), '--target')).toThrow(
      '--target x names 2 resources: AlertChannel:x, CheckGroup:x',
    );
  });
});

describe('--target', () => {
  it('plans only the targets, and creates what they need first; nothing else is compared or deleted', async () => {
    const { account, backend } = await deployed();
    // The code moves on everywhere: search renamed, the channel gone, a new channel for payments.
    const code = synthesized(() => {
      const pager = new EmailAlertChannel('pager', { address: 'pager@example.com' });
      new CheckGroup('payments', { name: 'Payments', alertChannels: [pager] });
      new CheckGroup('search', { name: 'Search renamed' });
    });
    const p = plan(code, await readLive(account), await backend.read(), { ...NOW, targets: ['payments'] });
    expect(p.targets).toEqual(['CheckGroup:payments']);
    expect(p.operations.map((op) => [op.action, op.kind, op.logicalId])).toEqual([
      ['create', 'AlertChannel', 'pager'],
      ['update', 'CheckGroup', 'payments'],
    ]);
    expect(p.forget).toEqual([]);
  });

  it('a target that names an entry no longer in the code deletes just that one', async () => {
    const { account, backend } = await deployed();
    const p = plan(
      synthesized(() => {}),
      await readLive(account),
      await backend.read(),
      { ...NOW, targets: ['search'] },
    );
    expect(p.operations.map((op) => [op.action, op.logicalId])).toEqual([['delete', 'search']]);
  });
});

describe('--replace', () => {
  it('deletes the resource and creates it again; what refers to it follows the new id', async () => {
    const { account, backend } = await deployed();
    const oldId = account.all('AlertChannel')[0]?.id;
    const p = plan(synthesized(project), await readLive(account), await backend.read(), {
      ...NOW,
      replace: ['mail'],
    });
    expect(p.replace).toEqual(['AlertChannel:mail']);
    expect(p.summary).toMatchObject({ replace: 1, update: 1 });
    expect(p.operations.map((op) => [op.action, op.logicalId])).toEqual([
      ['replace', 'mail'],
      ['update', 'payments'],
    ]);
    const result = await apply(p, { client: account, backend });
    expect(result.ok).toBe(true);
    const channels = account.all('AlertChannel');
    expect(channels).toHaveLength(1);
    expect(channels[0]?.id).not.toBe(oldId);
    expect(result.state.resources['AlertChannel:mail']?.physicalId).toBe(channels[0]?.id);
    const group = account.all('CheckGroup').find((g) => g.name === 'Payments') as Record<string, unknown>;
    expect(group.alertChannelSubscriptions).toEqual([{ alertChannelId: channels[0]?.id, activated: true }]);
    expect(plan(synthesized(project), await readLive(account), result.state, NOW).operations).toEqual([]);
  });

  it('files the subscriptions it moves under the replace: one change each, neither the code’s nor drift', async () => {
    const { account, backend } = await deployed();
    const p = plan(synthesized(project), await readLive(account), await backend.read(), {
      ...NOW,
      replace: ['mail'],
    });
    const update = p.operations.find((op) => op.logicalId === 'payments');
    expect(update).toMatchObject({ action: 'update', drift: false });
    expect(update?.action === 'update' ? update.changes : []).toEqual([
      {
        path: 'alertChannelSubscriptions[mail]',
        before: { activated: true, alertChannelId: account.all('AlertChannel')[0]?.id },
        after: { alertChannelId: 'AlertChannel:mail', activated: true },
        replaced: 'AlertChannel:mail',
      },
    ]);
    const text = renderPlanText(p, PLAIN);
    expect(text).not.toContain('Drift');
    expect(text).not.toContain('Changes from the code');
    expect(text).toContain('subscribed again to the new one in this deploy: CheckGroup payments "Payments"');
    expect(text).toContain('+ config: {"address":"ops@example.com"}');
  });

  it('names what a replace loses: an ignoreChanges field the account set is not kept by the resource made again', async () => {
    const { account, backend } = await deployed();
    const channel = account.all('AlertChannel')[0] as Record<string, unknown>;
    channel.sendDegraded = true;
    const code = synthesized(() => {
      const mail = new EmailAlertChannel(
        'mail',
        { address: 'ops@example.com' },
        { ignoreChanges: ['sendDegraded'] },
      );
      new CheckGroup('payments', { name: 'Payments', alertChannels: [mail] });
    });
    const p = plan(code, await readLive(account), await backend.read(), { ...NOW, replace: ['mail'] });
    const replaced = p.operations.find((op) => op.action === 'replace');
    expect(replaced?.action === 'replace' ? replaced.lost : undefined).toEqual([
      { path: 'sendDegraded', before: true, after: false },
    ]);
    expect(renderPlanText(p, PLAIN)).toContain(
      '! sendDegraded: true in the account is lost (ignoreChanges keeps it on an update, not through a replace): made with false',
    );
  });

  it('with --target, refuses a replace outside the targets, and one whose referrers are outside them', async () => {
    const { account, backend } = await deployed();
    const live = await readLive(account);
    const state = await backend.read();
    expect(() =>
      plan(synthesized(project), live, state, { ...NOW, replace: ['mail'], targets: ['search'] }),
    ).toThrow(
      '--replace AlertChannel:mail is outside --target (CheckGroup:search): it would not be replaced',
    );
    expect(() =>
      plan(synthesized(project), live, state, { ...NOW, replace: ['mail'], targets: ['mail'] }),
    ).toThrow(
      /^--replace AlertChannel:mail with --target: CheckGroup:payments refers to it and is outside --target/,
    );
    // A dependency a target merely needs is compared, never written: replacing it needs its own --target.
    expect(() =>
      plan(synthesized(project), live, state, { ...NOW, replace: ['mail'], targets: ['payments'] }),
    ).toThrow(
      '--replace AlertChannel:mail is outside --target (CheckGroup:payments): it would not be replaced',
    );
    // With its referrer targeted too, it is replaced and the group subscribed again in the same plan.
    const both = plan(synthesized(project), live, state, {
      ...NOW,
      replace: ['mail'],
      targets: ['mail', 'payments'],
    });
    expect(both.operations.map((op) => [op.action, op.logicalId])).toEqual([
      ['replace', 'mail'],
      ['update', 'payments'],
    ]);
  });

  it('never replaces a protected resource, nor one that is only in state', async () => {
    const { account, backend } = await deployed();
    const code = synthesized(() => {
      project();
      new CheckGroup('kept', { name: 'Kept' }, { protect: true });
    });
    expect(() => plan(code, emptyLive(), emptyState('acct'), { ...NOW, replace: ['kept'] })).toThrow(
      '--replace CheckGroup:kept: it is protect: true, and a protected resource is never deleted',
    );
    const live = await readLive(account);
    const state = await backend.read();
    expect(() =>
      plan(
        synthesized(() => {}),
        live,
        state,
        { ...NOW, replace: ['search'] },
      ),
    ).toThrow('--replace CheckGroup:search: it is not in the code, so there is nothing to create again');
  });
});
