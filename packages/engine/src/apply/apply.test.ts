import { AmbiguousWriteError, ValidationError } from '@monitor/api';
import {
  CheckGroup,
  createSession,
  type DesiredResource,
  EmailAlertChannel,
  StatusPage,
  StatusPageService,
  synth,
} from '@monitor/constructs';
import { beforeEach, describe, expect, it } from 'vitest';
import { readLive } from '../live/read-live.js';
import { plan } from '../plan/plan.js';
import { emptyState, type State } from '../state/state.js';
import { FakeAccount, MemoryBackend } from '../test-support/doubles.js';
import { type ApplyEvent, apply } from './apply.js';

const NOW = new Date('2026-11-21T00:00:00Z');

function desired(): DesiredResource[] {
  const { resources, diagnostics } = synth();
  expect(diagnostics).toEqual([]);
  return resources;
}

async function planFor(account: FakeAccount, backend: MemoryBackend, code = desired()) {
  return plan(code, await readLive(account), await backend.read(), { now: NOW });
}

/** Resolves when `release` is called: holds a call in flight. */
function gate() {
  let release: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { opened, release };
}

const noSleep = async () => {};

beforeEach(() => {
  createSession();
});

describe('apply', () => {
  it('creates in reference order, resolves references to new ids, and records each write as it happens', async () => {
    const mail = new EmailAlertChannel('mail', { address: 'ops@example.com' });
    new CheckGroup('g', { name: 'G', alertChannels: [mail] });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    const result = await apply(await planFor(account, backend), { client: account, backend });
    expect(result.ok).toBe(true);
    expect(account.calls).toEqual(['create AlertChannel', 'create CheckGroup']);
    const channel = account.all('AlertChannel')[0];
    expect(account.all('CheckGroup')[0]?.alertChannelSubscriptions).toEqual([
      { alertChannelId: channel?.id, activated: true },
    ]);
    // Each create: a pending line before its request, then the entry with the pending settled.
    expect(backend.records.map((r) => [Object.keys(r.changes), r.pending])).toEqual([
      [[], { 'AlertChannel:mail': true }],
      [['AlertChannel:mail'], { 'AlertChannel:mail': false }],
      [[], { 'CheckGroup:g': true }],
      [['CheckGroup:g'], { 'CheckGroup:g': false }],
    ]);
    expect(backend.commits).toBe(1);
    expect(Object.keys(result.state.resources).sort()).toEqual(['AlertChannel:mail', 'CheckGroup:g']);
    expect(result.state.pendingCreates).toEqual([]);
    expect(result.requests).toBe(2);
  });

  it('on a failure in flight: what runs finishes, nothing new starts, the rest is not started', async () => {
    for (let i = 0; i < 5; i++) new CheckGroup(`g${i}`, { name: `G${i}` });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    const slow = gate();
    account.before = async ({ payload }) => {
      if (payload?.name === 'G0') await slow.opened;
      if (payload?.name === 'G1') {
        slow.release();
        throw new ValidationError('"name" is invalid', { hint: 'fix it' });
      }
    };
    const result = await apply(await planFor(account, backend), { client: account, backend, parallelism: 2 });
    expect(result.ok).toBe(false);
    expect(result.results.map((r) => [r.logicalId, r.status])).toEqual([
      ['g0', 'done'],
      ['g1', 'failed'],
      ['g2', 'not-started'],
      ['g3', 'not-started'],
      ['g4', 'not-started'],
    ]);
    expect(result.results[1]?.error).toEqual({
      code: 'validation',
      message: '"name" is invalid',
      hint: 'fix it',
    });
    expect(account.all('CheckGroup').map((g) => g.name)).toEqual(['G0']);
    // The refused create is settled, not left pending; the finished one is in state.
    expect(Object.keys(result.state.resources)).toEqual(['CheckGroup:g0']);
    expect(result.state.pendingCreates).toEqual([]);
    expect(backend.stored.resources).toEqual(result.state.resources);
  });

  it('skips the dependents of a failed create, transitively, and says which dependency failed', async () => {
    const svc = new StatusPageService('svc', { name: 'Svc' });
    new StatusPage('page', { name: 'Page', url: 'page', cards: [{ name: 'Core', services: [svc] }] });
    const mail = new EmailAlertChannel('mail', { address: 'ops@example.com' });
    new CheckGroup('g', { name: 'G', alertChannels: [mail] });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    account.before = ({ kind }) => {
      if (kind === 'StatusPageService') throw new ValidationError('no');
    };
    const result = await apply(await planFor(account, backend), { client: account, backend, parallelism: 1 });
    const status = Object.fromEntries(result.results.map((r) => [r.key, r.status]));
    expect(status['StatusPageService:svc']).toBe('failed');
    expect(status['StatusPage:page']).toBe('skipped');
    expect(result.results.find((r) => r.key === 'StatusPage:page')?.error).toEqual({
      code: 'dependency_failed',
      message: 'StatusPageService:svc did not complete',
    });
    expect(account.all('StatusPage')).toEqual([]);
  });

  it('on abort: operations in flight finish and are recorded, nothing new starts', async () => {
    for (let i = 0; i < 4; i++) new CheckGroup(`g${i}`, { name: `G${i}` });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    const controller = new AbortController();
    const events: ApplyEvent[] = [];
    account.before = () => {
      // Ctrl-C arrives while the first create is on the wire.
      controller.abort();
    };
    const result = await apply(await planFor(account, backend), {
      client: account,
      backend,
      parallelism: 1,
      signal: controller.signal,
      onEvent: (e) => events.push(e),
    });
    expect(result.results.map((r) => r.status)).toEqual([
      'done',
      'not-started',
      'not-started',
      'not-started',
    ]);
    expect(account.all('CheckGroup')).toHaveLength(1);
    expect(Object.keys(backend.stored.resources)).toEqual(['CheckGroup:g0']);
    expect(events.map((e) => e.type)).toEqual(['start', 'finish']);
  });

  it('an ambiguous create the service did process is found by its natural key: no twin', async () => {
    new CheckGroup('g', { name: 'G' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    account.after = ({ op }) => {
      if (op === 'create') throw new AmbiguousWriteError('connection dropped after the request was sent');
    };
    const result = await apply(await planFor(account, backend), { client: account, backend, sleep: noSleep });
    expect(result.results[0]).toMatchObject({ status: 'done', reconciled: true });
    expect(account.all('CheckGroup')).toHaveLength(1);
    expect(result.state.resources['CheckGroup:g']?.physicalId).toBe(account.all('CheckGroup')[0]?.id);
  });

  it('an ambiguous create the service never processed is sent again, and an alert channel is found by content', async () => {
    new EmailAlertChannel('mail', { address: 'ops@example.com' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    let attempts = 0;
    account.before = ({ op }) => {
      if (op === 'create' && ++attempts === 1)
        throw new AmbiguousWriteError('503 after the request was sent');
    };
    const result = await apply(await planFor(account, backend), { client: account, backend, sleep: noSleep });
    expect(result.results[0]).toMatchObject({ status: 'done' });
    expect(result.results[0]?.reconciled).toBeUndefined();
    expect(account.all('AlertChannel')).toHaveLength(1);
    expect(attempts).toBe(2);
  });

  it('an ambiguous create that stays unknown fails after its attempts and stays pending for the next plan', async () => {
    new EmailAlertChannel('mail', { address: 'ops@example.com' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    account.before = ({ op }) => {
      if (op === 'create') throw new AmbiguousWriteError('connection reset');
    };
    const result = await apply(await planFor(account, backend), {
      client: account,
      backend,
      sleep: noSleep,
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
    });
    expect(result.results[0]).toMatchObject({ status: 'failed', error: { code: 'ambiguous_write' } });
    expect(account.calls.filter((c) => c.startsWith('create'))).toHaveLength(3);
    expect(result.state.pendingCreates).toEqual(['AlertChannel:mail']);
  });

  it('deletes after creates and updates, referrers before what they refer to; a 404 counts as deleted', async () => {
    const mail = new EmailAlertChannel('mail', { address: 'ops@example.com' });
    new CheckGroup('g', { name: 'G', alertChannels: [mail] });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    await apply(await planFor(account, backend), { client: account, backend });
    createSession();
    new CheckGroup('other', { name: 'Other' });
    // The group is already gone from the account: its delete must still settle it in state.
    const groupId = account.all('CheckGroup')[0]?.id;
    const destroyPlan = await planFor(account, backend, desired());
    account.resources.get('CheckGroup')?.delete(String(groupId));
    account.calls.length = 0;
    const result = await apply(destroyPlan, { client: account, backend });
    expect(account.calls).toEqual([
      'create CheckGroup',
      `delete CheckGroup ${String(groupId)}`,
      'delete AlertChannel 1',
    ]);
    expect(result.ok).toBe(true);
    expect(Object.keys(result.state.resources)).toEqual(['CheckGroup:other']);
  });

  it('works on a copy: the plan’s prior state is left as it was', async () => {
    new CheckGroup('g', { name: 'G' });
    const account = new FakeAccount();
    const backend = new MemoryBackend(emptyState('acct'));
    const made = await planFor(account, backend);
    const before: State = structuredClone(made.priorState);
    await apply(made, { client: account, backend });
    expect(made.priorState).toEqual(before);
  });

  it('an update answered with a 500 (unknown outcome) is read back: done when it happened, sent again when not', async () => {
    new CheckGroup('g', { name: 'G', concurrency: 2 });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    await apply(await planFor(account, backend), { client: account, backend });
    for (const processed of [true, false]) {
      createSession();
      new CheckGroup('g', { name: 'G', concurrency: processed ? 5 : 7 });
      const made = await planFor(account, backend);
      let updates = 0;
      account.before = ({ op }) => {
        if (op === 'update' && ++updates === 1 && !processed)
          throw new AmbiguousWriteError('500 after the request was sent');
      };
      account.after = ({ op }) => {
        if (op === 'update' && updates === 1 && processed)
          throw new AmbiguousWriteError('500 after the request was sent');
      };
      account.calls.length = 0;
      const result = await apply(made, { client: account, backend, sleep: noSleep });
      expect(result.ok).toBe(true);
      expect(account.all('CheckGroup')[0]?.concurrency).toBe(processed ? 5 : 7);
      // Read back before anything is sent again; sent again only when it did not happen.
      expect(account.calls).toEqual(
        processed
          ? ['update CheckGroup 1', 'get CheckGroup 1']
          : ['update CheckGroup 1', 'get CheckGroup 1', 'update CheckGroup 1'],
      );
      account.before = () => {};
      account.after = () => {};
    }
  });

  it('a delete of unknown outcome is read back: gone means done, with no second delete', async () => {
    new CheckGroup('g', { name: 'G' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    await apply(await planFor(account, backend), { client: account, backend });
    account.after = ({ op }) => {
      if (op === 'delete') throw new AmbiguousWriteError('connection reset after the request was sent');
    };
    account.calls.length = 0;
    const result = await apply(await planFor(account, backend, []), {
      client: account,
      backend,
      sleep: noSleep,
    });
    expect(result.ok).toBe(true);
    expect(account.calls).toEqual(['delete CheckGroup 1', 'get CheckGroup 1']);
    expect(result.state.resources).toEqual({});
  });

  it('never sends a create whose intent could not be recorded', async () => {
    new CheckGroup('g', { name: 'G' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    backend.record = async () => {
      throw Object.assign(new Error('cannot record to the state journal: the disk is full'), {
        code: 'state_storage',
      });
    };
    const result = await apply(await planFor(account, backend), { client: account, backend });
    expect(result.results[0]).toMatchObject({ status: 'failed', error: { code: 'state_storage' } });
    expect(account.calls).toEqual([]);
  });

  it('the read-back after an ambiguous create never takes a resource the project owns already', async () => {
    // Names repeat: the project owns a group "G" under another logical id.
    new CheckGroup('first', { name: 'G' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    await apply(await planFor(account, backend), { client: account, backend });
    const owned = account.all('CheckGroup')[0]?.id;
    createSession();
    new CheckGroup('first', { name: 'G' });
    new CheckGroup('second', { name: 'G' });
    let creates = 0;
    account.before = ({ op }) => {
      if (op === 'create' && ++creates === 1)
        throw new AmbiguousWriteError('timeout before the service read it');
    };
    const result = await apply(await planFor(account, backend), { client: account, backend, sleep: noSleep });
    expect(result.ok).toBe(true);
    expect(account.all('CheckGroup')).toHaveLength(2);
    expect(result.state.resources['CheckGroup:second']?.physicalId).not.toBe(owned);
    expect(result.state.resources['CheckGroup:first']?.physicalId).toBe(owned);
  });

  it('a move re-keys the entry in one record: the old entry does not stay behind', async () => {
    new CheckGroup('old', { name: 'G' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    await apply(await planFor(account, backend), { client: account, backend });
    createSession();
    new CheckGroup('new', { name: 'G', aliases: ['old'] });
    const result = await apply(await planFor(account, backend), { client: account, backend });
    expect(result.results).toMatchObject([{ action: 'move', status: 'done' }]);
    expect(Object.keys(result.state.resources)).toEqual(['CheckGroup:new']);
    expect(backend.records.at(-1)?.changes).toEqual({
      'CheckGroup:new': expect.objectContaining({ logicalId: 'new' }),
      'CheckGroup:old': null,
    });
  });

  it('records what tells each written resource apart (its natural key or name), for the check before a delete', async () => {
    new CheckGroup('g', { name: 'Payments' });
    new EmailAlertChannel('mail', { address: 'ops@example.com' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    const result = await apply(await planFor(account, backend), { client: account, backend });
    expect(result.state.resources['CheckGroup:g']?.identity).toBe('name:Payments');
    expect(result.state.resources['AlertChannel:mail']?.identity).toBe('name:ops@example.com');
  });

  it('creates the account cannot tell apart never run at once: a lost answer never takes the twin’s resource', async () => {
    // Names repeat: two groups and two services of one name, two identical channels.
    new CheckGroup('a', { name: 'Same' });
    new CheckGroup('b', { name: 'Same' });
    new EmailAlertChannel('m1', { address: 'ops@example.com' });
    new EmailAlertChannel('m2', { address: 'ops@example.com' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    const made = await planFor(account, backend);
    expect(made.operations.find((op) => op.logicalId === 'b')?.dependsOn).toEqual(['CheckGroup:a']);
    expect(made.operations.find((op) => op.logicalId === 'm2')?.dependsOn).toEqual(['AlertChannel:m1']);
    // Every answer to a create is lost after the service made the resource.
    account.after = ({ op }) => {
      if (op === 'create') throw new AmbiguousWriteError('connection dropped after the request was sent');
    };
    const result = await apply(made, { client: account, backend, parallelism: 8, sleep: noSleep });
    expect(result.ok).toBe(true);
    expect(account.all('CheckGroup')).toHaveLength(2);
    expect(account.all('AlertChannel')).toHaveLength(2);
    const ids = Object.values(result.state.resources).map((e) => `${e.kind}#${String(e.physicalId)}`);
    expect(new Set(ids).size).toBe(4);
  });
});
