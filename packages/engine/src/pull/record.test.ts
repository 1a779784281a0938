import { CheckGroup, type CheckGroupProps } from '@monitor/constructs';
import { describe, expect, it } from 'vitest';
import { applyChanges } from '../state/backend.js';
import { synthesized } from '../test-support/planning.js';
import { deployedOver, planOver, stored } from '../test-support/pull.js';
import { planPull } from './plan-pull.js';
import { agreedEntries, pulledFields } from './record.js';

/** What state records once pull wrote the account's values into the code, over the doubles. */

const group = (props: Partial<CheckGroupProps> = {}) =>
  synthesized(() => new CheckGroup('payments', { name: 'Payments', locations: ['eu-west-1'], ...props }));

/** Deployed, a location added in the account, and pulled: the code as pull leaves it, and the state it records. */
async function pulledLocation(written = true) {
  const { account, backend } = await deployedOver(group());
  stored(account, 'CheckGroup').locations = ['eu-west-1', 'us-east-1'];
  stored(account, 'CheckGroup').name = 'Payments (UI)';
  const before = await planOver(account, backend, group());
  const pull = planPull(before.plan, before.live, group());
  // Pull wrote the locations only (the name, say, was computed: left to people).
  const pulled = written ? [{ key: 'CheckGroup:payments', path: 'locations', line: 3 }] : [];
  const fields = pulledFields(before.plan, before.live, pull.resources, pulled);
  const code = group({ locations: ['eu-west-1', 'us-east-1'] });
  const after = await planOver(account, backend, code);
  const state = await backend.read();
  const changes = agreedEntries(fields, { resources: code, plan: after.plan }, state);
  applyChanges(backend.stored, changes);
  return { account, backend, fields, changes };
}

describe('what pull records', () => {
  it('the fields it wrote, with the account’s hashes as it read them', async () => {
    const { fields } = await pulledLocation();
    expect(fields).toEqual([
      expect.objectContaining({ key: 'CheckGroup:payments', fields: ['locations'], applied: true }),
    ]);
    expect(Object.keys(fields[0]?.accountHashes ?? {})).toEqual(['locations']);
  });

  it('code and account agree on a pulled field: the next code edit of it is the code’s, the rest stays drift', async () => {
    const { account, backend, changes } = await pulledLocation();
    expect(Object.keys(changes)).toEqual(['CheckGroup:payments']);
    // The code edits the pulled field back: a change of the code's, not drift to undo.
    const edited = await planOver(account, backend, group({ locations: ['eu-west-1'] }));
    expect(edited.plan.operations).toMatchObject([
      {
        drift: false,
        changes: [
          { path: 'locations', cause: 'code' },
          { path: 'name', cause: 'account' },
        ],
      },
    ]);
    // Left as it is, only the name the account changed (and pull did not write) is drift.
    const kept = await planOver(account, backend, group({ locations: ['eu-west-1', 'us-east-1'] }));
    expect(kept.plan.operations).toMatchObject([
      { drift: true, changes: [{ path: 'name', cause: 'account' }] },
    ]);
  });

  it('without the record, the same code edit would be drift: what issue 44 found', async () => {
    const { account, backend, changes } = await pulledLocation(false);
    expect(changes).toEqual({});
    const edited = await planOver(account, backend, group({ locations: ['eu-west-1'] }));
    expect(edited.plan.operations[0]).toMatchObject({
      changes: [{ path: 'locations', cause: 'account' }, {}],
    });
  });

  it('records nothing of a field the code and the account still disagree on, or of an entry that moved since', async () => {
    const { account, backend } = await deployedOver(group());
    stored(account, 'CheckGroup').locations = ['eu-west-1', 'us-east-1'];
    const before = await planOver(account, backend, group());
    const pull = planPull(before.plan, before.live, group());
    const fields = pulledFields(before.plan, before.live, pull.resources, [
      { key: 'CheckGroup:payments', path: 'locations', line: 3 },
    ]);
    // The code does not hold the account's value (the edit did not land as written).
    const other = group({ locations: ['us-west-2'] });
    const disagreeing = await planOver(account, backend, other);
    expect(agreedEntries(fields, { resources: other, plan: disagreeing.plan }, await backend.read())).toEqual(
      {},
    );
    // A deploy wrote the entry in between: it is left as the deploy wrote it.
    const code = group({ locations: ['eu-west-1', 'us-east-1'] });
    const after = await planOver(account, backend, code);
    const moved = await backend.read();
    (moved.resources['CheckGroup:payments'] as { appliedHash: string }).appliedHash = 'written since';
    expect(agreedEntries(fields, { resources: code, plan: after.plan }, moved)).toEqual({});
  });
});
