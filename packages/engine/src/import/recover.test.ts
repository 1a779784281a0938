import { CheckGroup, type DesiredResource, EmailAlertChannel } from '@monitor/constructs';
import { describe, expect, it } from 'vitest';
import { ByPhysicalId } from '../identity.js';
import { emptyLive } from '../live/read-live.js';
import type { Live } from '../plan/plan.js';
import { emptyState, type State } from '../state/state.js';
import { synthesized as code, entry, stateOf } from '../test-support/planning.js';
import { recoverLostState } from './recover.js';

function account(): Live {
  const live = emptyLive();
  live.CheckGroup = [
    { id: 1, name: 'Payments' },
    { id: 2, name: 'Search' },
    { id: 3, name: 'Billing' },
  ];
  // As the service gives back what a construct made: every field of its payload, and an id.
  const [channel] = code(() => new EmailAlertChannel('mail', { address: 'oncall@example.com' }));
  const payload = channel?.payload as Record<string, unknown>;
  live.AlertChannel = [
    { ...payload, id: 10, config: { address: 'other@example.com' } },
    { ...payload, id: 11 },
  ];
  return live;
}

const stateWith = (...entries: [string, number][]): State =>
  stateOf(entries.map(([logicalId, physicalId]) => entry('CheckGroup', logicalId, physicalId)));

/** What `code` finds again in the account, with `state` this project's and `elsewhere` the other projects'. */
function recover(code: DesiredResource[], state: State, elsewhere = new ByPhysicalId<string>()) {
  const here = ByPhysicalId.of(Object.values(state.resources), (e) => [e.kind, e.physicalId]);
  return recoverLostState(code, account(), state, { here, elsewhere });
}

const found = (recoveries: ReturnType<typeof recoverLostState>) =>
  Object.fromEntries([...recoveries].map(([key, { r, byContent }]) => [key, { id: r.id, byContent }]));

describe('recoverLostState', () => {
  it('finds a construct with no state entry by its natural key, and one by content where its kind has none', () => {
    const desired = code(() => {
      new CheckGroup('payments', { name: 'Payments' });
      new EmailAlertChannel('oncall', { address: 'oncall@example.com' });
    });
    expect(found(recover(desired, emptyState('acct')))).toEqual({
      'CheckGroup:payments': { id: 1, byContent: false },
      'AlertChannel:oncall': { id: 11, byContent: true },
    });
  });

  it('looks for no construct that has an entry, its own or an alias', () => {
    const desired = code(() => {
      new CheckGroup('payments', { name: 'Payments' });
      new CheckGroup('search', { name: 'Search' }, { aliases: ['old-search'] });
      new CheckGroup('billing', { name: 'Billing' });
    });
    const state = stateWith(['payments', 1], ['old-search', 2]);
    expect(found(recover(desired, state))).toEqual({
      'CheckGroup:billing': { id: 3, byContent: false },
    });
  });

  it('takes no resource this project or another owns, and each for one construct at most', () => {
    const desired = code(() => {
      new CheckGroup('payments', { name: 'Payments' });
      new CheckGroup('payments-again', { name: 'Payments' });
      new CheckGroup('search', { name: 'Search' });
      new CheckGroup('billing', { name: 'Billing' });
    });
    // `billing-old` holds the group named Billing: nothing else of this project may take it.
    const state = stateWith(['billing-old', 3]);
    const otherOwners = new ByPhysicalId<string>().set('CheckGroup', 2, 'search-team');
    expect(found(recover(desired, state, otherOwners))).toEqual({
      'CheckGroup:payments': { id: 1, byContent: false },
    });
  });
});
