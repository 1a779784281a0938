import { CheckGroup, EmailAlertChannel } from '@monitor/constructs';
import { describe, expect, it } from 'vitest';
import type { UpdateOperation } from '../plan/types.js';
import type { FakeAccount } from '../test-support/doubles.js';
import { synthesized } from '../test-support/planning.js';
import { deployedOver, planOver, stored } from '../test-support/pull.js';
import { resourceEdits } from './resource-edits.js';

/** One construct's edits from its update operation, over a fake account deployed and then edited. */

async function drifted(build: () => void, edit: (g: Record<string, unknown>, account: FakeAccount) => void) {
  const code = synthesized(build);
  const { account, backend } = await deployedOver(code);
  edit(stored(account, 'CheckGroup'), account);
  const { plan, live } = await planOver(account, backend, code);
  const op = plan.operations.find((o) => o.kind === 'CheckGroup') as UpdateOperation;
  expect(op?.action).toBe('update');
  return { op, live: live.CheckGroup.find((g) => g.id === op.physicalId) as never };
}

const AT = { file: '/p/a.monitor.ts', line: 3, column: 1 };

describe('resourceEdits', () => {
  it('an entry the account added to a keyed list writes the list again whole', async () => {
    const { op, live } = await drifted(
      () => new CheckGroup('g', { name: 'G', environmentVariables: [{ key: 'A', value: '1' }] }),
      (g) => {
        g.environmentVariables = [...(g.environmentVariables as object[]), { key: 'B', value: '2' }];
      },
    );
    const { pull, notPulled } = resourceEdits(op, live, AT);
    expect(notPulled).toEqual([]);
    expect(pull).toMatchObject({ key: 'CheckGroup:g', construct: 'CheckGroup', location: AT });
    expect(pull?.edits).toEqual([
      expect.objectContaining({
        path: 'environmentVariables',
        steps: [{ field: 'environmentVariables' }],
        changes: ['environmentVariables[B]'],
        references: false,
      }),
    ]);
    // In the order the account answers with (the fake reverses it, as the service may).
    expect(pull?.edits[0]?.value).toEqual([
      expect.objectContaining({ key: 'B', value: '2' }),
      expect.objectContaining({ key: 'A', value: '1' }),
    ]);
  });

  it('a prop of references is written whole, as references', async () => {
    const { op, live } = await drifted(
      () => {
        new EmailAlertChannel('oncall', { address: 'oncall@acme.example' });
        new CheckGroup('g', { name: 'G' });
      },
      (g, account) => {
        g.alertChannelSubscriptions = [
          { alertChannelId: stored(account, 'AlertChannel').id, activated: true },
        ];
      },
    );
    const { pull } = resourceEdits(op, live, AT);
    expect(pull?.edits).toEqual([
      expect.objectContaining({
        path: 'alertChannels',
        steps: [{ field: 'alertChannels' }],
        references: true,
      }),
    ]);
    expect(pull?.edits[0]?.value).toEqual([expect.objectContaining({ kind: 'AlertChannel' })]);
  });

  it('a change no prop holds, and a secret, are not edits but listed', async () => {
    const { op, live } = await drifted(
      () => new CheckGroup('g', { name: 'G' }),
      (g) => {
        g.name = 'G2';
      },
    );
    const changes = [
      ...op.changes,
      // Through a list the kind does not key: no prop path reaches it.
      { path: 'tags[x].y', before: 1, after: 2, cause: 'account' as const },
      {
        path: 'environmentVariables[T].value',
        before: '',
        after: '',
        sensitive: true,
        cause: 'account' as const,
      },
    ];
    const { pull, notPulled } = resourceEdits({ ...op, changes }, live, AT);
    expect(pull?.edits.map((e) => e.path)).toEqual(['name']);
    expect(notPulled.map((n) => [n.path, n.reason])).toEqual([
      ['environmentVariables[T].value', 'secret'],
      ['tags[x].y', 'no-prop'],
    ]);
  });
});
