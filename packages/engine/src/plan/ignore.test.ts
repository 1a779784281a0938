import { CheckGroup, createSession } from '@monitor/constructs';
import { beforeEach, describe, expect, it } from 'vitest';
import { apply } from '../apply/apply.js';
import { readLive } from '../live/read-live.js';
import { emptyState } from '../state/state.js';
import { FakeAccount, MemoryBackend } from '../test-support/doubles.js';
import { synthesized } from '../test-support/planning.js';
import { plan, type UpdateOperation } from './plan.js';
import { checkSavedPlan, savePlan } from './saved-plan.js';

const NOW = { now: new Date('2026-11-24T00:00:00Z'), secretKey: 'k' };

const group = (extra: Record<string, unknown> = {}) =>
  new CheckGroup(
    'g',
    {
      name: 'G',
      muted: false,
      alertSettings: { reminders: { amount: 1, interval: 5 } },
      environmentVariables: [
        { key: 'API_URL', value: 'https://code.example' },
        { key: 'REGION', value: 'eu' },
      ],
      ...extra,
    },
    { ignoreChanges: ['muted', 'alertSettings.reminders', 'environmentVariables[API_URL].value'] },
  );

async function deployed() {
  const account = new FakeAccount();
  const backend = new MemoryBackend(emptyState('acct'));
  const code = synthesized(() => group());
  const created = await apply(plan(code, await readLive(account), await backend.read(), NOW), {
    client: account,
    backend,
  });
  expect(created.ok).toBe(true);
  // The ignored fields were sent when the group was made: the code's starting values.
  const made = account.all('CheckGroup')[0] as Record<string, unknown>;
  expect(made.muted).toBe(false);
  // People change them in the UI.
  await account.managed('CheckGroup').update(1, {
    muted: true,
    alertSettings: { ...(made.alertSettings as object), reminders: { amount: 3, interval: 10 } },
    environmentVariables: [
      { key: 'API_URL', value: 'https://ui.example', locked: false, secret: false },
      { key: 'REGION', value: 'eu', locked: false, secret: false },
    ],
  });
  return { account, backend };
}

beforeEach(() => {
  createSession();
});

describe('ignoreChanges', () => {
  it('an ignored field changed in the account is no change and no drift', async () => {
    const { account, backend } = await deployed();
    const p = plan(
      synthesized(() => group()),
      await readLive(account),
      await backend.read(),
      NOW,
    );
    expect(p.operations).toEqual([]);
    expect(p.unchanged).toBe(1);
  });

  it('an update never sends an ignored field: top level left out, nested and list entries as the account has them', async () => {
    const { account, backend } = await deployed();
    const p = plan(
      synthesized(() => group({ name: 'Renamed', muted: false })),
      await readLive(account),
      await backend.read(),
      NOW,
    );
    const op = p.operations[0] as UpdateOperation;
    expect(op.changes.map((c) => c.path)).toEqual(['name']);
    expect(op.drift).toBe(false);
    expect('muted' in op.payload).toBe(false);
    expect((op.payload.alertSettings as { reminders: unknown }).reminders).toEqual({
      amount: 3,
      interval: 10,
    });
    expect(op.payload.environmentVariables).toEqual([
      { key: 'API_URL', value: 'https://ui.example', locked: false, secret: false },
      { key: 'REGION', value: 'eu', locked: false, secret: false },
    ]);
    await apply(p, { client: account, backend });
    const after = account.all('CheckGroup')[0] as Record<string, unknown>;
    expect([after.name, after.muted]).toEqual(['Renamed', true]);
    expect(
      plan(
        synthesized(() => group({ name: 'Renamed' })),
        await readLive(account),
        await backend.read(),
        NOW,
      ).operations,
    ).toEqual([]);
  });

  it('a field not ignored is still compared and restored', async () => {
    const { account, backend } = await deployed();
    await account.managed('CheckGroup').update(1, { concurrency: 9 });
    const p = plan(
      synthesized(() => group()),
      await readLive(account),
      await backend.read(),
      NOW,
    );
    expect((p.operations[0] as UpdateOperation).changes.map((c) => c.path)).toEqual(['concurrency']);
    expect((p.operations[0] as UpdateOperation).drift).toBe(true);
  });

  it('a saved plan is not stale when only an ignored field moved in the account', async () => {
    const { account, backend } = await deployed();
    const code = synthesized(() => group({ concurrency: 4 }));
    const live = await readLive(account);
    const first = plan(code, live, await backend.read(), NOW);
    const saved = savePlan(first, live, { accountId: 'acct', projectName: 'p' });
    await account.managed('CheckGroup').update(1, { muted: false });
    const nowLive = await readLive(account);
    const fresh = plan(code, nowLive, await backend.read(), NOW);
    expect(checkSavedPlan(saved, fresh, nowLive).stale).toEqual([]);
    await account.managed('CheckGroup').update(1, { tags: ['moved'] });
    const movedLive = await readLive(account);
    const again = plan(code, movedLive, await backend.read(), NOW);
    expect(checkSavedPlan(saved, again, movedLive).stale).toEqual([
      'CheckGroup:g: the live resource changed since the plan was saved',
    ]);
  });
});
