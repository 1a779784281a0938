import type { Client } from '@monitor/api';
import { CheckGroup, createSession, synth } from '@monitor/constructs';
import { beforeEach, describe, expect, it } from 'vitest';
import { apply } from '../apply/apply.js';
import { emptyLive } from '../live/read-live.js';
import type { LoadedProject } from '../load/load.js';
import { plan } from '../plan/plan.js';
import { selectPolicies } from '../policy/select.js';
import { emptyState } from '../state/state.js';
import { FakeAccount, MemoryBackend } from '../test-support/doubles.js';
import { diff } from './diff.js';
import { readAccount, type Target } from './target.js';

const NOW = new Date('2026-11-21T00:00:00Z');

beforeEach(() => {
  createSession();
});

/** An account and state where `resources` were deployed, and a diff target for them. */
async function deployedTarget() {
  new CheckGroup('payments', { name: 'Payments', tags: ['a', 'b'] });
  const { resources } = synth();
  const account = new FakeAccount();
  const backend = new MemoryBackend(emptyState('acct'));
  const result = await apply(plan(resources, emptyLive(), await backend.read(), { now: NOW }), {
    client: account,
    backend,
  });
  expect(result.ok).toBe(true);
  const project = {
    resources,
    config: { projectName: 'p', policies: selectPolicies([], {}).set, routingTests: [] },
    findings: [],
  } as unknown as LoadedProject;
  // The fake has the kinds' operations and the request count: all a diff uses of a client.
  const target: Target = { project, client: account as unknown as Client, accountId: 'acct', backend };
  return { account, backend, target };
}

describe('readAccount and diff', () => {
  it('reads state and every kind, and counts the calls it made', async () => {
    const { account, backend, target } = await deployedTarget();
    const before = account.requestCount;
    const snapshot = await readAccount(target);
    expect(snapshot.state).toEqual(await backend.read());
    expect(snapshot.live.CheckGroup.map((g) => g.name)).toEqual(['Payments']);
    expect(snapshot.requests).toBe(6);
    expect(account.requestCount - before).toBe(6);
  });

  it('plans from a snapshot read before (while the project loaded), and reads nothing more', async () => {
    const { account, target } = await deployedTarget();
    const snapshot = readAccount(target);
    await snapshot;
    // A change after the snapshot is not this diff's: it plans exactly what was read.
    await account.managed('CheckGroup').update(1, { name: 'Renamed in the UI' });
    const calls = account.requestCount;
    const result = await diff(target, { now: NOW, snapshot });
    expect(account.requestCount).toBe(calls);
    expect(result.requests).toBe(6);
    expect(result.plan.summary).toMatchObject({ create: 0, update: 0, delete: 0, unchanged: 1 });

    const fresh = await diff(target, { now: NOW });
    expect(fresh.requests).toBe(6);
    expect(fresh.plan.summary).toMatchObject({ update: 1 });
  });
});
