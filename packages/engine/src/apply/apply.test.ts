import { AmbiguousWriteError, ServerError, ValidationError } from '@monitor/api';
import {
  CheckGroup,
  createSession,
  Dashboard,
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

  it('an ambiguous create whose read-back fails stays pending, and the next run adopts what it made', async () => {
    new CheckGroup('g', { name: 'G' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    account.after = ({ op }) => {
      if (op === 'create') throw new AmbiguousWriteError('timed out after the request was sent');
    };
    // Every read answers 500 while the deploy looks for what it made.
    const unreadable: typeof account = Object.create(account);
    unreadable.managed = (kind) => ({
      ...account.managed(kind),
      // biome-ignore lint/correctness/useYield: a list that fails before its first page
      pages: async function* () {
        throw new ServerError('GET /v2/check-groups failed: 500', { status: 500 });
      },
    });
    const made = await planFor(account, backend);
    const result = await apply(made, { client: unreadable, backend, sleep: noSleep });
    expect(result.results[0]).toMatchObject({ status: 'failed' });
    expect(account.all('CheckGroup')).toHaveLength(1);
    // The outcome is unknown, not "nothing was created": the create stays pending.
    expect(result.state.pendingCreates).toEqual(['CheckGroup:g']);
    expect((await backend.read()).pendingCreates).toEqual(['CheckGroup:g']);
    // The next run finds it and adopts it, once.
    account.after = () => {};
    const next = await planFor(account, backend);
    expect(next.operations).toMatchObject([{ action: 'adopt', resumed: true }]);
    const settled = await apply(next, { client: account, backend });
    expect(settled.state.pendingCreates).toEqual([]);
    expect(settled.state.resources['CheckGroup:g']?.physicalId).toBe(account.all('CheckGroup')[0]?.id);
    expect(account.all('CheckGroup')).toHaveLength(1);
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
    new CheckGroup('new', { name: 'G' }, { aliases: ['old'] });
    const result = await apply(await planFor(account, backend), { client: account, backend });
    expect(result.results).toMatchObject([{ action: 'move', status: 'done' }]);
    expect(Object.keys(result.state.resources)).toEqual(['CheckGroup:new']);
    expect(backend.records.at(-1)?.changes).toEqual({
      'CheckGroup:new': expect.objectContaining({ logicalId: 'new' }),
      'CheckGroup:old': null,
    });
  });

  it('records what tells each written resource apart (type, creation, natural key or name), for the checks before an update or delete', async () => {
    new CheckGroup('g', { name: 'Payments' });
    new EmailAlertChannel('mail', { address: 'ops@example.com' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    const result = await apply(await planFor(account, backend), { client: account, backend });
    // What the UI cannot change (a channel's type, the creation date answered) and what it can.
    expect(result.state.resources['CheckGroup:g']?.identity).toBe(
      'v2 {"created":"2026-11-01","key":"name:Payments"}',
    );
    expect(result.state.resources['AlertChannel:mail']?.identity).toBe(
      'v2 {"type":"EMAIL","created":"2026-11-01","key":"name:ops@example.com"}',
    );
  });

  it('an adopt or a move with nothing to send records the creation time the plan read, not the payload’s bare key', async () => {
    new CheckGroup('g', { name: 'G' });
    const account = new FakeAccount();
    await account.managed('CheckGroup').create({ name: 'G' });
    createSession();
    new CheckGroup('g', { name: 'G' }, { adopt: true });
    const backend = new MemoryBackend();
    const adopted = await apply(await planFor(account, backend), { client: account, backend });
    const made = 'v2 {"created":"2026-11-01","key":"name:G"}';
    expect(adopted.state.resources['CheckGroup:g']?.identity).toBe(made);
    createSession();
    new CheckGroup('moved', { name: 'G' }, { aliases: ['g'] });
    const moved = await apply(await planFor(account, backend), { client: account, backend });
    expect(moved.state.resources['CheckGroup:moved']?.identity).toBe(made);
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

describe('apply: state, results and events', () => {
  it('records the service the state belongs to with the first write, and keeps the recorded one otherwise', async () => {
    new CheckGroup('g', { name: 'G' });
    const account = new FakeAccount();
    const backend = new MemoryBackend({ ...emptyState('acct'), service: 'local' });
    const kept = await apply(await planFor(account, backend), { client: account, backend });
    expect(kept.state.service).toBe('local');
    const moved = await apply(await planFor(account, backend), {
      client: account,
      backend,
      service: 'https://api.example.com',
    });
    expect(moved.state.service).toBe('https://api.example.com');
  });

  it('reports each finish with how many are done of how many', async () => {
    for (let i = 0; i < 3; i++) new CheckGroup(`g${i}`, { name: `G${i}` });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    const events: ApplyEvent[] = [];
    await apply(await planFor(account, backend), {
      client: account,
      backend,
      parallelism: 2,
      onEvent: (e) => events.push(e),
    });
    expect(events.flatMap((e) => (e.type === 'finish' ? [[e.done, e.total]] : []))).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  it('runs no delete once a create or update failed', async () => {
    new CheckGroup('old', { name: 'Old' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    await apply(await planFor(account, backend), { client: account, backend });
    createSession();
    new CheckGroup('new', { name: 'New' });
    account.before = ({ op }) => {
      if (op === 'create') throw new ValidationError('no');
    };
    const result = await apply(await planFor(account, backend), { client: account, backend });
    expect(result.results.map((r) => [r.action, r.logicalId, r.status])).toEqual([
      ['create', 'new', 'failed'],
      ['delete', 'old', 'not-started'],
    ]);
    expect(account.all('CheckGroup').map((g) => g.name)).toEqual(['Old']);
    expect(Object.keys(result.state.resources)).toEqual(['CheckGroup:old']);
  });

  it('runs no delete once aborted', async () => {
    new CheckGroup('old', { name: 'Old' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    await apply(await planFor(account, backend), { client: account, backend });
    createSession();
    new CheckGroup('new', { name: 'New' });
    const controller = new AbortController();
    account.before = () => controller.abort();
    const result = await apply(await planFor(account, backend), {
      client: account,
      backend,
      signal: controller.signal,
    });
    expect(result.results.map((r) => r.status)).toEqual(['done', 'not-started']);
    expect(result.ok).toBe(false);
    expect(account.all('CheckGroup')).toHaveLength(2);
  });

  it('a failed update or delete names the resource it was about; a failed create has none yet', async () => {
    new CheckGroup('g', { name: 'G', concurrency: 2 });
    new CheckGroup('gone', { name: 'Gone' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    await apply(await planFor(account, backend), { client: account, backend });
    createSession();
    new CheckGroup('g', { name: 'G', concurrency: 3 });
    new CheckGroup('new', { name: 'New' });
    account.before = ({ op }) => {
      if (op !== 'delete') throw new ValidationError('no');
    };
    // Both in flight at once: a failure stops only what has not started.
    const result = await apply(await planFor(account, backend), { client: account, backend, parallelism: 2 });
    expect(result.results.slice(0, 2)).toMatchObject([
      { action: 'update', status: 'failed', physicalId: 1 },
      { action: 'create', status: 'failed' },
    ]);
    expect(result.results[1]).not.toHaveProperty('physicalId');
  });

  it('settles what the plan drops from state (forgotten entries, abandoned creates), with no call', async () => {
    const account = new FakeAccount();
    const state = emptyState('acct');
    state.resources['CheckGroup:vanished'] = {
      kind: 'CheckGroup',
      logicalId: 'vanished',
      physicalId: 99,
      appliedHash: 'h',
      secretHashes: {},
      protect: false,
    };
    state.pendingCreates = ['AlertChannel:left-the-code'];
    const backend = new MemoryBackend(state);
    const made = await planFor(account, backend, []);
    expect(made).toMatchObject({
      forget: ['CheckGroup:vanished'],
      abandonedCreates: ['AlertChannel:left-the-code'],
    });
    // Each settles on its own, without the other.
    const forgotten = await apply({ ...made, abandonedCreates: [] }, { client: account, backend });
    expect(forgotten.state.resources).toEqual({});
    expect(forgotten.state.pendingCreates).toEqual(['AlertChannel:left-the-code']);
    const abandoned = await apply({ ...made, forget: [] }, { client: account, backend });
    expect(abandoned.state.pendingCreates).toEqual([]);
    expect(account.calls).toEqual([]);
  });

  it('a create already pending (its resource was never made) is not journaled twice', async () => {
    new CheckGroup('g', { name: 'G' });
    const account = new FakeAccount();
    const state = emptyState('acct');
    state.pendingCreates = ['CheckGroup:g'];
    const backend = new MemoryBackend(state);
    const result = await apply(await planFor(account, backend), { client: account, backend });
    expect(result.ok).toBe(true);
    expect(backend.records.map((r) => [Object.keys(r.changes), r.pending])).toEqual([
      [['CheckGroup:g'], { 'CheckGroup:g': false }],
    ]);
  });

  it('a resumed create (adopted) settles its pending mark with its entry', async () => {
    new CheckGroup('g', { name: 'G' });
    const account = new FakeAccount();
    await account.managed('CheckGroup').create({ name: 'G' });
    const state = emptyState('acct');
    state.pendingCreates = ['CheckGroup:g'];
    const backend = new MemoryBackend(state);
    const made = await planFor(account, backend);
    expect(made.operations).toMatchObject([{ action: 'adopt', resumed: true }]);
    const result = await apply(made, { client: account, backend });
    expect(result.state.pendingCreates).toEqual([]);
    expect(result.state.resources['CheckGroup:g']?.physicalId).toBe(1);
  });

  it('a move or adopt with no changed field makes no call; an update records its own entry and nothing else', async () => {
    new CheckGroup('old', { name: 'G', concurrency: 2 });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    await apply(await planFor(account, backend), { client: account, backend });
    createSession();
    new CheckGroup('new', { name: 'G', concurrency: 2 }, { aliases: ['old'] });
    account.calls.length = 0;
    await apply(await planFor(account, backend), { client: account, backend });
    expect(account.calls).toEqual([]);
    createSession();
    new CheckGroup('new', { name: 'G', concurrency: 3 });
    const updated = await apply(await planFor(account, backend), { client: account, backend });
    expect(account.calls).toEqual(['update CheckGroup 1']);
    expect(backend.records.at(-1)?.changes).toEqual({
      'CheckGroup:new': expect.objectContaining({ physicalId: 1 }),
    });
    expect(updated.results).toMatchObject([{ action: 'update', status: 'done', physicalId: 1 }]);
  });

  it('a delete the service refuses fails, and the entry stays; a done delete names what it removed', async () => {
    new CheckGroup('a', { name: 'A' });
    new CheckGroup('b', { name: 'B' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    await apply(await planFor(account, backend), { client: account, backend });
    account.before = ({ op, id }) => {
      if (op === 'delete' && id === 1) throw new ValidationError('in use');
    };
    const result = await apply(await planFor(account, backend, []), {
      client: account,
      backend,
      parallelism: 2,
    });
    expect(result.results).toMatchObject([
      { logicalId: 'a', status: 'failed', physicalId: 1, error: { code: 'validation' } },
      { logicalId: 'b', status: 'done', physicalId: 2 },
    ]);
    expect(Object.keys(result.state.resources)).toEqual(['CheckGroup:a']);
  });

  it('an update of unknown outcome whose resource is gone fails as not found, after one more try', async () => {
    new CheckGroup('g', { name: 'G', concurrency: 2 });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    await apply(await planFor(account, backend), { client: account, backend });
    createSession();
    new CheckGroup('g', { name: 'G', concurrency: 3 });
    const made = await planFor(account, backend);
    account.before = ({ op }) => {
      if (op === 'update' && account.all('CheckGroup').length > 0) {
        account.resources.get('CheckGroup')?.clear();
        throw new AmbiguousWriteError('connection reset');
      }
    };
    account.calls.length = 0;
    const result = await apply(made, { client: account, backend, sleep: noSleep });
    expect(result.results[0]).toMatchObject({ status: 'failed', error: { code: 'not_found' } });
    expect(account.calls).toEqual(['update CheckGroup 1', 'get CheckGroup 1', 'update CheckGroup 1']);
  });

  it('waits between tries of a write of unknown outcome without being told how', async () => {
    new CheckGroup('g', { name: 'G' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    let creates = 0;
    account.before = ({ op }) => {
      if (op === 'create' && ++creates === 1) throw new AmbiguousWriteError('timeout');
    };
    const result = await apply(await planFor(account, backend), {
      client: account,
      backend,
      retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    });
    expect(result.ok).toBe(true);
    expect(creates).toBe(2);
  });

  it('reports how long it took, measured around its own work', async () => {
    new CheckGroup('g', { name: 'G' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    const made = await planFor(account, backend);
    const before = Date.now();
    const result = await apply(made, { client: account, backend });
    expect(result.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(result.elapsedMs).toBeLessThanOrEqual(Date.now() - before);
  });
});

describe('apply: saving the state at the end', () => {
  const failingCommit = (error: unknown) => {
    const backend = new MemoryBackend();
    backend.commit = async () => {
      throw error;
    };
    return backend;
  };

  it.each([
    {
      name: 'a coded engine error: its code and hint',
      error: Object.assign(new Error('the disk is full'), { code: 'state_storage', hint: 'free some space' }),
      reported: { code: 'state_storage', message: 'the disk is full', hint: 'free some space' },
    },
    {
      name: 'a coded engine error without a hint: its code',
      error: Object.assign(new Error('the state database is gone'), { code: 'state_storage' }),
      reported: { code: 'state_storage', message: 'the state database is gone' },
    },
    {
      name: 'an error without a code: internal, with its message',
      error: new Error('boom'),
      reported: { code: 'internal', message: 'boom' },
    },
    {
      name: 'a system error: internal, with its message',
      error: Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }),
      reported: { code: 'internal', message: 'ENOSPC: no space left on device' },
    },
    {
      name: 'anything else thrown: internal',
      error: 'lost',
      reported: { code: 'internal', message: 'lost' },
    },
  ])('a failure is reported, not thrown: $name; what was recorded stands', async ({ error, reported }) => {
    new CheckGroup('g', { name: 'G' });
    const account = new FakeAccount();
    const backend = failingCommit(error);
    const result = await apply(await planFor(account, backend), { client: account, backend });
    expect(result.ok).toBe(false);
    expect(result.results.map((r) => r.status)).toEqual(['done']);
    expect(result.stateError).toStrictEqual(reported);
    expect(Object.keys(result.state.resources)).toEqual(['CheckGroup:g']);
    expect(backend.stored.resources).toEqual(result.state.resources);
  });

  it('when it succeeds there is no state error', async () => {
    new CheckGroup('g', { name: 'G' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    const result = await apply(await planFor(account, backend), { client: account, backend });
    expect(result.ok).toBe(true);
    expect(result).not.toHaveProperty('stateError');
  });
});

describe('apply: values the service shows once', () => {
  it('hands over a private dashboard key from the answer that made it, and never keeps it', async () => {
    new Dashboard('ops', { header: 'Ops', customUrl: 'ops', isPrivate: true });
    new Dashboard('public', { header: 'Public', customUrl: 'public' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    const result = await apply(await planFor(account, backend), { client: account, backend });
    const key = account.all('Dashboard')[0]?.keys as { rawKey: string }[];
    expect(result.oneTimeValues).toEqual([
      { key: 'Dashboard:ops', path: 'keys[0].rawKey', value: key[0]?.rawKey },
    ]);
    expect(JSON.stringify(result.state)).not.toContain(key[0]?.rawKey);
    // Nothing more to show on the next deploy: the key exists, and reads show it masked.
    const again = await apply(await planFor(account, backend), { client: account, backend });
    expect(again.oneTimeValues).toEqual([]);
  });

  it('an update of a dashboard that has its key shows nothing: the answer has it masked', async () => {
    new Dashboard('ops', { header: 'Ops', customUrl: 'ops', isPrivate: true });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    await apply(await planFor(account, backend), { client: account, backend });
    createSession();
    new Dashboard('ops', { header: 'Operations', customUrl: 'ops', isPrivate: true });
    account.calls.length = 0;
    const result = await apply(await planFor(account, backend), { client: account, backend });
    expect(account.calls).toEqual(['update Dashboard Dashboard-1']);
    expect(result.oneTimeValues).toEqual([]);
  });

  it('hands over the key of a dashboard made private by an update', async () => {
    new Dashboard('ops', { header: 'Ops', customUrl: 'ops' });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    await apply(await planFor(account, backend), { client: account, backend });
    createSession();
    new Dashboard('ops', { header: 'Ops', customUrl: 'ops', isPrivate: true });
    const result = await apply(await planFor(account, backend), { client: account, backend });
    expect(result.oneTimeValues).toMatchObject([{ key: 'Dashboard:ops', path: 'keys[0].rawKey' }]);
    expect(result.oneTimeValues[0]?.value).toMatch(/^dk_\d{32}$/);
  });

  it('a create found by reading back (unknown outcome) has no value to show: the read shows it masked', async () => {
    new Dashboard('ops', { header: 'Ops', customUrl: 'ops', isPrivate: true });
    const account = new FakeAccount();
    const backend = new MemoryBackend();
    account.after = ({ op }) => {
      if (op === 'create') throw new AmbiguousWriteError('connection dropped after the request was sent');
    };
    const result = await apply(await planFor(account, backend), { client: account, backend, sleep: noSleep });
    expect(result.results[0]).toMatchObject({ status: 'done', reconciled: true });
    expect(result.oneTimeValues).toEqual([]);
  });
});
