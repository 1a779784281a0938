import type { Client } from '@monitor/api';
import { CheckGroup, createSession, type DesiredResource, synth } from '@monitor/constructs';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LoadedProject } from '../load/load.js';
import { selectPolicies } from '../policy/select.js';
import { LockHeldError } from '../state/errors.js';
import { FakeAccount, MemoryBackend } from '../test-support/doubles.js';
import { type Consent, deploy, destroy, standingConsent } from './deploy.js';
import { diff } from './diff.js';
import type { Target } from './target.js';

/** The deploy and destroy flows end to end over a fake account, and every way they refuse. */

const NOW = new Date('2026-11-24T00:00:00Z');
const approve = async (): Promise<Consent> => ({ approved: true });

beforeEach(() => {
  createSession();
});

function resources(build: () => void): DesiredResource[] {
  createSession();
  build();
  const { resources: made, diagnostics } = synth();
  expect(diagnostics).toEqual([]);
  return made;
}

function targetFor(account: FakeAccount, backend: MemoryBackend, code: DesiredResource[]): Target {
  const project = {
    resources: code,
    config: { projectName: 'p', policies: selectPolicies([], {}).set, routingTests: [] },
    findings: [],
  } as unknown as LoadedProject;
  // The fake has the kinds' operations and the request count: all these flows use of a client.
  return { project, client: account as unknown as Client, accountId: 'acct', backend, service: 'test' };
}

async function deployed(build: () => void) {
  const account = new FakeAccount();
  const backend = new MemoryBackend();
  const outcome = await deploy(targetFor(account, backend, resources(build)), {
    command: 'test',
    confirm: approve,
    now: NOW,
  });
  expect(outcome.status).toBe('applied');
  return { account, backend };
}

describe('deploy refuses, and writes nothing, when', () => {
  it('a construct is in conflict with the account', async () => {
    const { account, backend } = await deployed(() => new CheckGroup('g', { name: 'G' }));
    // Another construct names the same group: the first deploy's state is gone for it.
    const code = resources(() => new CheckGroup('other', { name: 'G' }));
    account.calls.length = 0;
    const outcome = await deploy(targetFor(account, new MemoryBackend(), code), {
      command: 'test',
      confirm: approve,
      now: NOW,
    });
    expect(outcome.status).toBe('conflicts');
    expect(outcome.plan.conflicts).toMatchObject([{ reason: 'exists', logicalId: 'other' }]);
    expect(account.calls).toEqual([]);
    expect(Object.keys(backend.stored.resources)).toEqual(['CheckGroup:g']);
  });

  it('the project declares nothing and the plan would delete what it owns', async () => {
    const { account, backend } = await deployed(() => new CheckGroup('g', { name: 'G' }));
    account.calls.length = 0;
    const outcome = await deploy(targetFor(account, backend, []), {
      command: 'test',
      confirm: approve,
      now: NOW,
    });
    expect(outcome).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('declares no resources'),
    });
    expect(account.calls).toEqual([]);
    const allowed = await deploy(targetFor(account, backend, []), {
      command: 'test',
      confirm: approve,
      now: NOW,
      allowEmpty: true,
    });
    expect(allowed.status).toBe('applied');
    expect(account.all('CheckGroup')).toEqual([]);
  });

  it('a saved plan is stale: the account moved since it was made', async () => {
    const { account, backend } = await deployed(() => new CheckGroup('g', { name: 'G' }));
    const code = resources(() => new CheckGroup('g', { name: 'G', concurrency: 5 }));
    const target = targetFor(account, backend, code);
    const { saved } = await diff(target, { now: NOW });
    await account.managed('CheckGroup').update(1, { name: 'Renamed in the UI' });
    account.calls.length = 0;
    const outcome = await deploy(target, { command: 'test', confirm: approve, now: NOW, savedPlan: saved });
    expect(outcome).toMatchObject({
      status: 'stale',
      stale: ['CheckGroup:g: the live resource changed since the plan was saved'],
    });
    expect(account.calls).toEqual([]);
  });

  it('another run holds the lock', async () => {
    const { account, backend } = await deployed(() => new CheckGroup('g', { name: 'G' }));
    const release = await backend.lock({ command: 'someone else' });
    const code = resources(() => new CheckGroup('g', { name: 'G', concurrency: 5 }));
    account.calls.length = 0;
    await expect(
      deploy(targetFor(account, backend, code), { command: 'test', confirm: approve, now: NOW }),
    ).rejects.toBeInstanceOf(LockHeldError);
    expect(account.calls).toEqual([]);
    await release();
    await expect(
      deploy(targetFor(account, backend, code), { command: 'test', confirm: approve, now: NOW }),
    ).resolves.toMatchObject({
      status: 'applied',
    });
  });

  it('a run that asks no one was not allowed to delete, or to apply at all', async () => {
    const { account, backend } = await deployed(() => {
      new CheckGroup('g', { name: 'G' });
      new CheckGroup('h', { name: 'H' });
    });
    const code = resources(() => new CheckGroup('g', { name: 'G' }));
    const seen: string[][] = [];
    const describe = (missing: string[]) => {
      seen.push(missing);
      return { reason: `missing ${missing.join(', ')}` };
    };
    account.calls.length = 0;
    const noDeletes = await deploy(targetFor(account, backend, code), {
      command: 'test',
      confirm: standingConsent({ apply: true, deletes: false }, describe),
      now: NOW,
    });
    expect(noDeletes).toMatchObject({ status: 'refused', reason: 'missing deletes' });
    const noApply = await destroy(targetFor(account, backend, code), {
      command: 'test',
      confirm: standingConsent({ apply: false, deletes: true }, describe),
      now: NOW,
    });
    expect(noApply).toMatchObject({ status: 'refused', reason: 'missing apply' });
    expect(seen).toEqual([['deletes'], ['apply']]);
    expect(account.calls).toEqual([]);
    const allowed = await deploy(targetFor(account, backend, code), {
      command: 'test',
      confirm: standingConsent({ apply: true, deletes: true }, describe),
      now: NOW,
    });
    expect(allowed.status).toBe('applied');
    expect(account.all('CheckGroup').map((g) => g.name)).toEqual(['G']);
  });
});

describe('destroy', () => {
  it('deletes everything the project owns but what is protected', async () => {
    const { account, backend } = await deployed(() => {
      new CheckGroup('g', { name: 'G' });
      new CheckGroup('kept', { name: 'Kept' }, { protect: true });
    });
    const outcome = await destroy(targetFor(account, backend, []), {
      command: 'test',
      confirm: approve,
      now: NOW,
    });
    expect(outcome.status).toBe('applied');
    expect(account.all('CheckGroup').map((g) => g.name)).toEqual(['Kept']);
  });
});
