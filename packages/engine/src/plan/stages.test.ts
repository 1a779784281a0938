import { describe, expect, it } from 'vitest';
import { ByPhysicalId } from '../identity.js';
import { type StateEntry, stateKey } from '../state/state.js';
import { construct, entry, liveOf, stateOf } from '../test-support/planning.js';
import { uniqueKeyConflicts } from './collisions.js';
import { planDeletes } from './deletes.js';
import { claimStateEntries, indexAccount, matchResources } from './match.js';
import { identityOf } from './resource.js';

/** Table tests of the planner's stages, each on its own, over hand-made constructs, state and live. */

describe('matching: claimStateEntries', () => {
  it.each([
    {
      name: 'a construct takes its own entry',
      desired: [construct('CheckGroup', 'a', {})],
      entries: [entry('CheckGroup', 'a', 1)],
      claims: { a: 'CheckGroup:a' },
    },
    {
      name: 'a renamed construct takes the entry of its alias (a move)',
      desired: [construct('CheckGroup', 'new', {}, { aliases: ['old'] })],
      entries: [entry('CheckGroup', 'old', 1)],
      claims: { new: 'CheckGroup:old' },
    },
    {
      name: 'an own entry wins over another construct’s alias, whatever the order',
      desired: [construct('CheckGroup', 'x', {}, { aliases: ['b'] }), construct('CheckGroup', 'b', {})],
      entries: [entry('CheckGroup', 'b', 1)],
      claims: { b: 'CheckGroup:b' },
    },
    {
      name: 'a construct with its own entry takes no alias entry (the alias entry goes)',
      desired: [construct('CheckGroup', 'new', {}, { aliases: ['old'] })],
      entries: [entry('CheckGroup', 'new', 1), entry('CheckGroup', 'old', 2)],
      claims: { new: 'CheckGroup:new' },
    },
    {
      name: 'an alias of another kind is not taken',
      desired: [construct('Dashboard', 'new', {}, { aliases: ['old'] })],
      entries: [entry('CheckGroup', 'old', 1)],
      claims: {},
    },
  ])('$name', ({ desired, entries, claims }) => {
    const { claims: got } = claimStateEntries(desired, stateOf(entries));
    const byId = Object.fromEntries(
      [...got].map(([d, c]) => [d.logicalId, stateKey(c.entry.kind, c.entry.logicalId)]),
    );
    expect(byId).toEqual(claims);
  });
});

describe('matching: adoption and the conflicts of constructs without state', () => {
  const live = liveOf({ CheckGroup: [{ id: 7, name: 'Payments' }] });

  it.each([
    {
      name: 'a live resource with the natural key that no one owns: exists',
      desired: construct('CheckGroup', 'p', { name: 'Payments' }),
      state: stateOf([]),
      owners: new ByPhysicalId<string>(),
      adopted: undefined,
      conflict: ['exists', undefined],
    },
    {
      name: 'adopt: true takes it',
      desired: construct('CheckGroup', 'p', { name: 'Payments' }, { adopt: true }),
      state: stateOf([]),
      owners: new ByPhysicalId<string>(),
      adopted: 7,
      conflict: undefined,
    },
    {
      name: 'adopt: true never takes what another project owns: owned, naming it',
      desired: construct('CheckGroup', 'p', { name: 'Payments' }, { adopt: true }),
      state: stateOf([]),
      owners: new ByPhysicalId<string>().set('CheckGroup', 7, 'billing-team'),
      adopted: undefined,
      conflict: ['owned', 'billing-team'],
    },
    {
      name: 'a pending create takes the resource its interrupted deploy made, without adopt',
      desired: construct('CheckGroup', 'p', { name: 'Payments' }),
      state: stateOf([], ['CheckGroup:p']),
      owners: new ByPhysicalId<string>(),
      adopted: 7,
      conflict: undefined,
    },
    {
      name: 'what this project owns under another id is never taken, and no conflict (names repeat)',
      desired: construct('CheckGroup', 'p2', { name: 'Payments' }),
      state: stateOf([entry('CheckGroup', 'p1', 7)]),
      owners: new ByPhysicalId<string>(),
      adopted: undefined,
      conflict: undefined,
    },
  ])('$name', ({ desired, state, owners, adopted, conflict }) => {
    const m = matchResources([desired], state, indexAccount(live, state, owners));
    expect(m.adopted.get(desired)?.id).toBe(adopted);
    expect(m.conflicts.map((c) => [c.reason, c.holder])[0]).toEqual(conflict);
  });

  it('resumes pending creates before anything else takes their resources: two constructs of one name', () => {
    // An interrupted deploy created `b` (pending); `a`, listed first and never sent, has the same name.
    const a = construct('StatusPageService', 'a', { name: 'API' });
    const b = construct('StatusPageService', 'b', { name: 'API' });
    const state = stateOf([], ['StatusPageService:b']);
    const account = indexAccount(liveOf({ StatusPageService: [{ id: 's-1', name: 'API' }] }), state);
    const m = matchResources([a, b], state, account);
    expect(m.conflicts).toEqual([]);
    expect(m.adopted.get(b)?.id).toBe('s-1');
    expect(m.adopted.has(a)).toBe(false);
  });
});

describe('matching: the resource at a claimed entry’s id is the one recorded', () => {
  const identity = (name: string) => identityOf('CheckGroup', { name, created_at: '2026-11-01' });
  const live = liveOf({
    CheckGroup: [
      { id: 1, name: 'Alpha', created_at: '2026-11-01' },
      { id: 2, name: 'Beta', created_at: '2026-11-01' },
    ],
  });

  it('ids swapped by hand: a state problem naming the other entry, never an update of each into the other', () => {
    const state = stateOf([
      entry('CheckGroup', 'alpha', 2, { identity: identity('Alpha') }),
      entry('CheckGroup', 'beta', 1, { identity: identity('Beta') }),
    ]);
    const code = [
      construct('CheckGroup', 'alpha', { name: 'Alpha' }),
      construct('CheckGroup', 'beta', { name: 'Beta' }),
    ];
    const m = matchResources(code, state, indexAccount(live, state));
    expect(m.conflicts.map((c) => [c.logicalId, c.reason, c.value, c.holder])).toEqual([
      ['alpha', 'identity', '2', 'beta'],
      ['beta', 'identity', '1', 'alpha'],
    ]);
  });

  it('renamed in the account (created when recorded): still the construct’s, no conflict; another day’s resource is one', () => {
    const state = stateOf([entry('CheckGroup', 'alpha', 1, { identity: identity('Alpha (old name)') })]);
    const code = [construct('CheckGroup', 'alpha', { name: 'Alpha' })];
    expect(matchResources(code, state, indexAccount(live, state)).conflicts).toEqual([]);
    const older = stateOf([
      entry('CheckGroup', 'alpha', 1, {
        identity: identityOf('CheckGroup', { name: 'X', created_at: '2025-01-01' }),
      }),
    ]);
    expect(matchResources(code, older, indexAccount(live, older)).conflicts.map((c) => c.reason)).toEqual([
      'identity',
    ]);
    // An entry of an older monitor records the name alone: renamed in the UI, it stays the
    // construct's (drift the deploy restores), as it always did; only a delete holds back.
    const legacy = stateOf([entry('CheckGroup', 'alpha', 1, { identity: 'name:Alpha (old name)' })]);
    expect(matchResources(code, legacy, indexAccount(live, legacy)).conflicts).toEqual([]);
    const none = { claims: new Map(), claimedKeys: new Set<string>(), adopted: new Map(), conflicts: [] };
    expect(planDeletes(legacy, none, indexAccount(live, legacy), true).mismatched).toHaveLength(1);
  });
});

describe('matching: which live resource a construct without state takes', () => {
  const email = (logicalId: string, options: Parameters<typeof construct>[3] = {}) =>
    construct('AlertChannel', logicalId, { type: 'EMAIL', config: { address: 'ops@example.com' } }, options);
  const emailLive = (id: number) => ({ id, type: 'EMAIL', config: { address: 'ops@example.com' } });

  it('each live resource is taken once, and each construct takes one', () => {
    // Names repeat: three groups "API" live; an interrupted deploy created `b`; `c` and `d` adopt.
    const b = construct('CheckGroup', 'b', { name: 'API' });
    const c = construct('CheckGroup', 'c', { name: 'API' }, { adopt: true });
    const d = construct('CheckGroup', 'd', { name: 'API' }, { adopt: true });
    const state = stateOf([], ['CheckGroup:b']);
    const live = liveOf({
      CheckGroup: [
        { id: 1, name: 'API' },
        { id: 2, name: 'API' },
        { id: 3, name: 'API' },
      ],
    });
    const m = matchResources([c, b, d], state, indexAccount(live, state));
    expect([b, c, d].map((x) => m.adopted.get(x)?.id)).toEqual([1, 2, 3]);
    expect(m.conflicts).toEqual([]);
  });

  it('a construct whose resource is gone takes nothing else, and is in no conflict (it is created again)', () => {
    const state = stateOf([entry('CheckGroup', 'g', 7)]);
    const g = construct('CheckGroup', 'g', { name: 'G' });
    const m = matchResources([g], state, indexAccount(liveOf({ CheckGroup: [{ id: 8, name: 'G' }] }), state));
    expect(m.adopted.size).toBe(0);
    expect(m.conflicts).toEqual([]);
  });

  it('adopt: true finds nothing for a kind without a natural key: an identical alert channel is not taken', () => {
    const state = stateOf([]);
    const m = matchResources(
      [email('mail', { adopt: true })],
      state,
      indexAccount(liveOf({ AlertChannel: [emailLive(5)] }), state),
    );
    expect(m.adopted.size).toBe(0);
    expect(m.conflicts).toEqual([]);
  });

  it('a resumed create found by content never takes what another project owns', () => {
    const mail = email('mail');
    const state = stateOf([], ['AlertChannel:mail']);
    const owners = new ByPhysicalId<string>().set('AlertChannel', 5, 'billing-team');
    const theirs = indexAccount(liveOf({ AlertChannel: [emailLive(5)] }), state, owners);
    expect(matchResources([mail], state, theirs).adopted.size).toBe(0);
    // The one the interrupted deploy made, beside theirs, is found.
    const both = indexAccount(liveOf({ AlertChannel: [emailLive(5), emailLive(6)] }), state, owners);
    const m = matchResources([mail], state, both);
    expect(m.adopted.get(mail)?.id).toBe(6);
    expect(m.conflicts).toEqual([]);
  });
});

describe('deleting: planDeletes', () => {
  const groupAndChannel = () => {
    const state = stateOf([
      entry('AlertChannel', 'mail', 3, { identity: 'name:ops@example.com' }),
      entry('CheckGroup', 'g', 7, { identity: 'name:G' }),
    ]);
    const live = liveOf({
      AlertChannel: [{ id: 3, type: 'EMAIL', config: { address: 'ops@example.com' } }],
      CheckGroup: [{ id: 7, name: 'G', alertChannelSubscriptions: [{ alertChannelId: 3, activated: true }] }],
    });
    return { state, account: indexAccount(live, state) };
  };
  const noMatch = { claims: new Map(), claimedKeys: new Set<string>(), adopted: new Map(), conflicts: [] };

  it('deletes what state owns and no construct takes, referrers before what they refer to', () => {
    const { state, account } = groupAndChannel();
    const d = planDeletes(state, noMatch, account, true);
    expect(d.deletes.map((op) => [op.logicalId, op.dependsOn])).toEqual([
      ['g', []],
      ['mail', ['CheckGroup:g']],
    ]);
  });

  it('never deletes a stranger: a resource that holds the recorded id but not the recorded name is forgotten', () => {
    const state = stateOf([entry('CheckGroup', 'g', 7, { identity: 'name:Payments' })]);
    const account = indexAccount(liveOf({ CheckGroup: [{ id: 7, name: 'Someone else' }] }), state);
    const d = planDeletes(state, noMatch, account, true);
    expect(d.deletes).toEqual([]);
    expect(d.forget).toEqual(['CheckGroup:g']);
    expect(d.mismatched).toEqual([
      { key: 'CheckGroup:g', physicalId: 7, recorded: 'name:Payments', found: 'name:Someone else' },
    ]);
  });

  it('an entry without a recorded identity (written before 0.2) is deleted as before', () => {
    const state = stateOf([entry('CheckGroup', 'g', 7)]);
    const account = indexAccount(liveOf({ CheckGroup: [{ id: 7, name: 'Anything' }] }), state);
    expect(planDeletes(state, noMatch, account, true).deletes.map((op) => op.logicalId)).toEqual(['g']);
  });

  it('forgets what is gone; keeps protected resources and what they refer to', () => {
    const { state, account } = groupAndChannel();
    (state.resources['CheckGroup:g'] as StateEntry).protect = true;
    state.resources['Dashboard:gone'] = entry('Dashboard', 'gone', 'd-9');
    const d = planDeletes(state, noMatch, account, true);
    expect(d.deletes).toEqual([]);
    expect(d.protectedKept).toEqual(['CheckGroup:g']);
    expect(d.keptForProtected).toEqual([{ key: 'AlertChannel:mail', by: 'CheckGroup:g' }]);
    expect(d.forget).toEqual(['Dashboard:gone']);
  });

  it('never deletes a resource that another entry, which a construct takes, also records', () => {
    const state = stateOf([entry('CheckGroup', 'a', 7), entry('CheckGroup', 'b', 7)]);
    const account = indexAccount(liveOf({ CheckGroup: [{ id: 7, name: 'G' }] }), state);
    const matching = matchResources([construct('CheckGroup', 'a', { name: 'G' })], state, account);
    const d = planDeletes(state, matching, account, true);
    expect(d.deletes).toEqual([]);
    expect(d.forget).toEqual(['CheckGroup:b']);
  });
});

describe('deleting: what a delete carries, and the order of deletes', () => {
  const noMatch = { claims: new Map(), claimedKeys: new Set<string>(), adopted: new Map(), conflicts: [] };

  it('a delete is named by the live resource it removes', () => {
    const state = stateOf([entry('CheckGroup', 'g', 7)]);
    const account = indexAccount(liveOf({ CheckGroup: [{ id: 7, name: 'Payments' }] }), state);
    expect(planDeletes(state, noMatch, account, true).deletes).toEqual([
      {
        kind: 'CheckGroup',
        logicalId: 'g',
        name: 'Payments',
        action: 'delete',
        physicalId: 7,
        dependsOn: [],
      },
    ]);
  });

  it('a resource with nothing to tell it by, where state recorded an identity, is a stranger', () => {
    const state = stateOf([entry('AlertChannel', 'hook', 3, { identity: 'name:ops@example.com' })]);
    const account = indexAccount(liveOf({ AlertChannel: [{ id: 3, type: 'SLACK', config: {} }] }), state);
    const d = planDeletes(state, noMatch, account, true);
    expect(d.deletes).toEqual([]);
    expect(d.mismatched).toEqual([
      {
        key: 'AlertChannel:hook',
        physicalId: 3,
        recorded: 'name:ops@example.com',
        found: 'a SLACK channel',
      },
    ]);
  });

  it('a protected resource renamed in the account is still ours: kept as protected, not dropped as a stranger', () => {
    const recorded = identityOf('CheckGroup', { name: 'Checkout (prod)', created_at: '2026-11-01' });
    const state = stateOf([entry('CheckGroup', 'checkout', 2, { protect: true, identity: recorded })]);
    const account = indexAccount(
      liveOf({ CheckGroup: [{ id: 2, name: 'Checkout EU', created_at: '2026-11-01' }] }),
      state,
    );
    const d = planDeletes(state, noMatch, account, true);
    expect([d.protectedKept, d.mismatched, d.forget]).toEqual([['CheckGroup:checkout'], [], []]);
  });

  it('a resource renamed the day it was made (a date alone) is not deleted: it may be another made that day', () => {
    const recorded = identityOf('CheckGroup', { name: 'Checkout', created_at: '2026-11-01' });
    const state = stateOf([entry('CheckGroup', 'checkout', 2, { identity: recorded })]);
    const account = indexAccount(
      liveOf({ CheckGroup: [{ id: 2, name: 'Billing (team B)', created_at: '2026-11-01' }] }),
      state,
    );
    const d = planDeletes(state, noMatch, account, true);
    expect(d.deletes).toEqual([]);
    expect(d.mismatched.map((m) => [m.key, m.found])).toEqual([
      ['CheckGroup:checkout', 'name:Billing (team B)'],
    ]);
    // A create with that name is told as a rename to settle, not made as a twin.
    const d2 = construct('CheckGroup', 'billing', { name: 'Billing (team B)' });
    const conflicts = uniqueKeyConflicts([d2], matchResources([d2], state, account), account, {
      deleted: [],
      keptProtected: [],
      undecided: [{ kind: 'CheckGroup', logicalId: 'checkout', physicalId: 2 }],
    });
    expect(conflicts.map((c) => [c.reason, c.holder])).toEqual([['rename', 'checkout']]);
  });

  it('a channel of another type at the recorded id is a stranger, even with nothing else to tell it by', () => {
    const recorded = identityOf('AlertChannel', { type: 'SLACK', config: {}, created_at: '2026-11-01' });
    const state = stateOf([entry('AlertChannel', 'slack', 3, { identity: recorded })]);
    const account = indexAccount(
      liveOf({
        AlertChannel: [{ id: 3, type: 'EMAIL', config: { address: 'x@y' }, created_at: '2026-11-01' }],
      }),
      state,
    );
    const d = planDeletes(state, noMatch, account, true);
    expect(d.deletes).toEqual([]);
    expect(d.mismatched).toEqual([
      {
        key: 'AlertChannel:slack',
        physicalId: 3,
        recorded: 'a SLACK channel made 2026-11-01',
        found: 'name:x@y',
      },
    ]);
  });

  it('without keepProtected (destroy --force-protected), protected resources are deleted too', () => {
    const state = stateOf([entry('CheckGroup', 'g', 7, { protect: true })]);
    const account = indexAccount(liveOf({ CheckGroup: [{ id: 7, name: 'G' }] }), state);
    const d = planDeletes(state, noMatch, account, false);
    expect(d.deletes.map((op) => op.logicalId)).toEqual(['g']);
    expect(d.protectedKept).toEqual([]);
  });

  it('what a kept protected resource refers to and the code keeps is neither deleted nor listed as kept', () => {
    const state = stateOf([entry('AlertChannel', 'mail', 3), entry('CheckGroup', 'g', 7, { protect: true })]);
    const live = liveOf({
      AlertChannel: [{ id: 3, type: 'EMAIL', config: { address: 'ops@example.com' } }],
      CheckGroup: [{ id: 7, name: 'G', alertChannelSubscriptions: [{ alertChannelId: 3 }] }],
    });
    const account = indexAccount(live, state);
    const mail = construct('AlertChannel', 'mail', { type: 'EMAIL', config: { address: 'ops@example.com' } });
    const d = planDeletes(state, matchResources([mail], state, account), account, true);
    expect(d.protectedKept).toEqual(['CheckGroup:g']);
    expect(d.keptForProtected).toEqual([]);
    expect(d.deletes).toEqual([]);
  });

  it('a delete that refers to a resource the code keeps waits for nothing', () => {
    const state = stateOf([entry('AlertChannel', 'mail', 3), entry('CheckGroup', 'g', 7)]);
    const live = liveOf({
      AlertChannel: [{ id: 3, type: 'EMAIL', config: { address: 'ops@example.com' } }],
      CheckGroup: [{ id: 7, name: 'G', alertChannelSubscriptions: [{ alertChannelId: 3 }] }],
    });
    const account = indexAccount(live, state);
    const mail = construct('AlertChannel', 'mail', { type: 'EMAIL', config: { address: 'ops@example.com' } });
    const d = planDeletes(state, matchResources([mail], state, account), account, true);
    expect(d.deletes.map((op) => [op.logicalId, op.dependsOn])).toEqual([['g', []]]);
  });

  it('orders a chain of references, whatever the order of state: window, then page, then service', () => {
    const state = stateOf([
      entry('StatusPageService', 'api', 's-1'),
      entry('StatusPage', 'page', 'p-1'),
      entry('MaintenanceWindow', 'window', 9),
    ]);
    const live = liveOf({
      StatusPageService: [{ id: 's-1', name: 'API' }],
      StatusPage: [{ id: 'p-1', name: 'P', url: 'p', cards: [{ name: 'Core', services: [{ id: 's-1' }] }] }],
      MaintenanceWindow: [
        { id: 9, name: 'W', statusPageVisibility: { statusPageIds: ['p-1'], serviceIds: [] } },
      ],
    });
    const d = planDeletes(state, noMatch, indexAccount(live, state), true);
    expect(d.deletes.map((op) => [op.logicalId, op.dependsOn])).toEqual([
      ['window', []],
      ['page', ['MaintenanceWindow:window']],
      ['api', ['StatusPage:page']],
    ]);
  });
});

describe('collisions: unique keys of the creates', () => {
  const page = (id: string, url: string, customDomain?: string) =>
    construct('StatusPage', id, { name: id, url, ...(customDomain === undefined ? {} : { customDomain }) });

  it.each([
    {
      name: 'held by no project: exists',
      owners: undefined,
      entries: [],
      deleting: false,
      reason: 'exists',
      holder: undefined,
    },
    {
      name: 'held by another project: owned',
      owners: new ByPhysicalId<string>().set('StatusPage', 'sp-1', 'other'),
      entries: [],
      deleting: false,
      reason: 'owned',
      holder: 'other',
    },
    {
      name: 'held by this project under another id that stays: taken',
      owners: undefined,
      entries: [entry('StatusPage', 'kept', 'sp-1')],
      deleting: false,
      reason: 'taken',
      holder: 'kept',
    },
    {
      name: 'held by this project under an id being deleted: rename without aliases',
      owners: undefined,
      entries: [entry('StatusPage', 'old', 'sp-1')],
      deleting: true,
      reason: 'rename',
      holder: 'old',
    },
  ])('$name', ({ owners, entries, deleting, reason, holder }) => {
    const state = stateOf(entries);
    const account = indexAccount(
      liveOf({ StatusPage: [{ id: 'sp-1', name: 'X', url: 'acme' }] }),
      state,
      owners,
    );
    const deletes = deleting
      ? [
          {
            kind: 'StatusPage' as const,
            logicalId: 'old',
            action: 'delete' as const,
            physicalId: 'sp-1',
            dependsOn: [],
          },
        ]
      : [];
    const d = page('new', 'ACME');
    const conflicts = uniqueKeyConflicts([d], matchResources([d], state, account), account, {
      deleted: deletes,
      keptProtected: [],
    });
    expect(conflicts.map((c) => [c.reason, c.field, c.holder])).toEqual([[reason, 'url', holder]]);
  });

  it('names the service lets repeat never collide, whoever holds them', () => {
    const state = stateOf([entry('StatusPageService', 'api-1', 's-1')]);
    const account = indexAccount(liveOf({ StatusPageService: [{ id: 's-1', name: 'API' }] }), state);
    const d = construct('StatusPageService', 'api-2', { name: 'API' });
    expect(
      uniqueKeyConflicts([d], matchResources([d], state, account), account, {
        deleted: [],
        keptProtected: [],
      }),
    ).toEqual([]);
  });

  it.each([
    { leaves: 'deleted', deleted: true },
    { leaves: 'kept as protected', deleted: false },
  ])(
    'a create with the natural key of a resource that leaves the code ($leaves) is a renamed logical id, not a twin',
    ({ deleted }) => {
      const old = entry('CheckGroup', 'checkout', 2, { protect: !deleted });
      const state = stateOf([old]);
      const account = indexAccount(liveOf({ CheckGroup: [{ id: 2, name: 'Checkout EU' }] }), state);
      const d = construct('CheckGroup', 'checkout-x', { name: 'Checkout EU' });
      const leaving = { kind: 'CheckGroup' as const, logicalId: 'checkout', physicalId: 2 };
      const conflicts = uniqueKeyConflicts([d], matchResources([d], state, account), account, {
        deleted: deleted ? [leaving] : [],
        keptProtected: deleted ? [] : [leaving],
      });
      expect(conflicts.map((c) => [c.reason, c.field, c.value, c.holder])).toEqual([
        ['rename', 'name', 'Checkout EU', 'checkout'],
      ]);
    },
  );
});
