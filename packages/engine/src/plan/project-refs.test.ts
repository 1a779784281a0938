import { AlertChannel, CheckGroup, EmailAlertChannel } from '@monitor/constructs';
import { describe, expect, it } from 'vitest';
import type { State } from '../state/state.js';
import { construct, entry, liveOf, stateOf, synthesized } from '../test-support/planning.js';
import { describeConflict } from './conflict-text.js';
import { indexAccount } from './match.js';
import { plan } from './plan.js';
import { projectRefsIn, referencedProjectNames, resolveProjectRefs } from './project-refs.js';
import { referencedBy, referencedDeletes } from './referenced.js';
import type { Conflict, Operation } from './types.js';

/** References to other projects' constructs: resolved from their states, and what they protect there. */

const NOW = new Date('2026-11-28T00:00:00Z');
const pd = { $project: 'platform', $ref: 'AlertChannel:pagerduty-oncall' };
const slack = { $project: 'platform', $ref: 'AlertChannel:slack-incidents' };

const group = (logicalId: string, ...refs: unknown[]) =>
  construct('CheckGroup', logicalId, {
    name: logicalId,
    alertChannelSubscriptions: refs.map((alertChannelId) => ({ alertChannelId, activated: true })),
  });

const platformState = (): State =>
  stateOf([entry('AlertChannel', 'pagerduty-oncall', 42), entry('AlertChannel', 'slack-incidents', 43)]);
const live = () =>
  liveOf({
    AlertChannel: [
      { id: 42, type: 'PAGERDUTY' },
      { id: 43, type: 'SLACK' },
    ],
  });

describe('resolving: resolveProjectRefs', () => {
  it.each([
    {
      name: 'a reference resolves to the id the other project records',
      states: new Map([['platform', platformState()]]),
      ids: [42],
      missing: [],
    },
    {
      name: 'a project with no state in the account: unresolved, the project missing',
      states: new Map([['platform', undefined]]),
      ids: [pd],
      missing: ['project'],
    },
    {
      name: 'a project that has not deployed the construct: unresolved, the construct missing',
      states: new Map([['platform', stateOf([entry('AlertChannel', 'other', 9)])]]),
      ids: [pd],
      missing: ['construct'],
    },
    {
      name: 'the resource the other project records is gone from the account: unresolved',
      states: new Map([['platform', stateOf([entry('AlertChannel', 'pagerduty-oncall', 99)])]]),
      ids: [pd],
      missing: ['resource'],
    },
  ])('$name', ({ states, ids, missing }) => {
    const code = [group('api', pd)];
    const resolved = resolveProjectRefs(code, states, indexAccount(live(), stateOf([])));
    const subscriptions = resolved.desired[0]?.payload.alertChannelSubscriptions as {
      alertChannelId: unknown;
    }[];
    expect(subscriptions.map((s) => s.alertChannelId)).toEqual(ids);
    expect(resolved.conflicts.map((c) => c.missing)).toEqual(missing);
    expect(resolved.uses.get('CheckGroup:api')).toEqual(['platform/AlertChannel:pagerduty-oncall']);
    // The code itself is never changed.
    expect(code[0]?.payload.alertChannelSubscriptions).toEqual([{ alertChannelId: pd, activated: true }]);
  });

  it('finds references only where a kind has references, of every construct that holds one; others stay the same object', () => {
    const plain = construct('CheckGroup', 'plain', { name: 'plain', alertChannelSubscriptions: [] });
    const page = construct('StatusPage', 'page', {
      cards: [{ name: 'c', services: [{ id: { $project: 'status', $ref: 'StatusPageService:api' } }] }],
    });
    const code = [plain, group('api', slack, { $ref: 'AlertChannel:local' }, pd), page];
    expect(projectRefsIn(code).map((at) => [at.resource.logicalId, at.path])).toEqual([
      ['api', 'alertChannelSubscriptions[0].alertChannelId'],
      ['api', 'alertChannelSubscriptions[2].alertChannelId'],
      ['page', 'cards[0].services[0].id'],
    ]);
    expect(referencedProjectNames(code)).toEqual(['platform', 'status']);
    const resolved = resolveProjectRefs(
      code,
      new Map([['platform', platformState()]]),
      indexAccount(live(), stateOf([])),
    );
    expect(resolved.desired[0]).toBe(plain);
    expect(resolved.uses.get('CheckGroup:api')).toEqual([
      'platform/AlertChannel:pagerduty-oncall',
      'platform/AlertChannel:slack-incidents',
    ]);
    // The local reference is this project's to resolve, later: left as it is.
    expect(resolved.desired[1]?.payload.alertChannelSubscriptions).toEqual([
      { alertChannelId: 43, activated: true },
      { alertChannelId: { $ref: 'AlertChannel:local' }, activated: true },
      { alertChannelId: 42, activated: true },
    ]);
    expect(resolved.conflicts.map((c) => [c.logicalId, c.field, c.value, c.holder])).toEqual([
      ['page', 'cards[0].services[0].id', 'StatusPageService:api', 'status'],
    ]);
  });
});

describe('planning with references to other projects', () => {
  it('creates with the resolved id, records what it uses, and shows each reference', () => {
    const made = plan([group('api', pd)], live(), stateOf([]), {
      now: NOW,
      projectStates: new Map([['platform', platformState()]]),
    });
    expect(made.conflicts).toEqual([]);
    const [op] = made.operations;
    expect(op).toMatchObject({ action: 'create', uses: ['platform/AlertChannel:pagerduty-oncall'] });
    expect(op?.action === 'create' && op.payload.alertChannelSubscriptions).toEqual([
      { alertChannelId: 42, activated: true },
    ]);
    expect(made.projectRefs).toEqual([
      { from: 'CheckGroup:api', project: 'platform', ref: 'AlertChannel:pagerduty-oncall', physicalId: 42 },
    ]);
  });

  it("never resolves another project's construct from this project's own state", () => {
    // This project has a channel of the same logical id: the reference is still platform's.
    const ownState = stateOf([entry('AlertChannel', 'pagerduty-oncall', 43)]);
    const code = [group('api', pd), construct('AlertChannel', 'pagerduty-oncall', { type: 'SLACK' })];
    const made = plan(code, live(), ownState, { now: NOW });
    expect(made.conflicts.map((c) => [c.reason, c.missing, c.logicalId])).toEqual([
      ['unresolved', 'project', 'api'],
    ]);
    // The construct in conflict is not placed: nothing is created for it.
    expect(made.operations.filter((o) => o.logicalId === 'api')).toEqual([]);
  });

  it('an unchanged resource whose references move to another project is recorded, no call', () => {
    const state = stateOf([entry('CheckGroup', 'api', 7)]);
    const code = synthesized(() => {
      new CheckGroup('api', { name: 'api', alertChannels: [AlertChannel.fromId(42)] });
    });
    // The same group, its channel written as platform's construct: no call, but state learns the use.
    const asReference = synthesized(() => {
      new CheckGroup('api', {
        name: 'api',
        alertChannels: [AlertChannel.fromProject('platform', 'pagerduty-oncall')],
      });
    });
    const liveNow = liveOf({ ...live(), CheckGroup: [{ ...code[0]?.payload, id: 7 }] });
    const before = plan(code, liveNow, state, { now: NOW });
    const after = plan(asReference, liveNow, state, {
      now: NOW,
      projectStates: new Map([['platform', platformState()]]),
    });
    expect([before.operations, after.operations]).toEqual([[], []]);
    expect(before.usesChanged).toBeUndefined();
    expect(after.usesChanged).toEqual([
      { key: 'CheckGroup:api', uses: ['platform/AlertChannel:pagerduty-oncall'] },
    ]);
    // Nothing is shown for it: the plan does not write it.
    expect(after.projectRefs).toBeUndefined();
    // Back to fromId: the recorded use goes.
    const recorded = stateOf([
      entry('CheckGroup', 'api', 7, { uses: ['platform/AlertChannel:pagerduty-oncall'] }),
    ]);
    expect(plan(code, liveNow, recorded, { now: NOW }).usesChanged).toEqual([
      { key: 'CheckGroup:api', uses: [] },
    ]);
  });
});

describe('delete protection: referencedBy and referencedDeletes', () => {
  const team = stateOf([
    entry('CheckGroup', 'api', 7, {
      uses: ['platform/AlertChannel:pagerduty-oncall', 'billing/AlertChannel:x'],
    }),
    entry('CheckGroup', 'web', 8, { uses: ['platform/AlertChannel:pagerduty-oncall'] }),
  ]);
  const search = stateOf([
    entry('CheckGroup', 'find', 9, { uses: ['platform/AlertChannel:slack-incidents'] }),
  ]);

  it("collects the other projects' uses of this project's resources, by key, sorted", () => {
    expect(
      referencedBy(
        'platform',
        new Map([
          ['team-search', search],
          ['team', team],
          ['platform', stateOf([entry('CheckGroup', 'self', 1, { uses: ['platform/AlertChannel:x'] })])],
        ]),
      ),
    ).toEqual(
      new Map([
        ['AlertChannel:slack-incidents', ['team-search/CheckGroup:find']],
        ['AlertChannel:pagerduty-oncall', ['team/CheckGroup:api', 'team/CheckGroup:web']],
      ]),
    );
  });

  const del = (logicalId: string, physicalId: number): Operation => ({
    action: 'delete',
    kind: 'AlertChannel',
    logicalId,
    physicalId,
    dependsOn: [],
  });
  const referenced = new Map([['AlertChannel:pagerduty-oncall', ['team/CheckGroup:api']]]);

  it.each([
    {
      name: 'a delete of a referenced resource: a conflict naming who references it',
      operations: [del('pagerduty-oncall', 42), del('unused', 44)],
      forceOrphan: false,
      conflicts: [['referenced', 'pagerduty-oncall', 'delete', ['team/CheckGroup:api']]],
      orphaned: [],
    },
    {
      name: '--force-orphan: no conflict, the orphaned references listed',
      operations: [del('pagerduty-oncall', 42)],
      forceOrphan: true,
      conflicts: [],
      orphaned: [{ key: 'AlertChannel:pagerduty-oncall', usedBy: ['team/CheckGroup:api'] }],
    },
    {
      name: 'nothing referenced is deleted: nothing to say',
      operations: [del('unused', 44)],
      forceOrphan: false,
      conflicts: [],
      orphaned: [],
    },
  ])('$name', ({ operations, forceOrphan, conflicts, orphaned }) => {
    const got = referencedDeletes(operations, [], { referencedBy: referenced, forceOrphan });
    expect(got.conflicts.map((c) => [c.reason, c.logicalId, c.value, c.usedBy])).toEqual(conflicts);
    expect(got.orphaned).toEqual(orphaned);
  });

  it('the plan refuses a delete, a replace and a destroy of a referenced resource; --force-orphan lets them go', () => {
    const state = stateOf([entry('AlertChannel', 'pagerduty-oncall', 42, { identity: undefined })]);
    const liveNow = liveOf({
      AlertChannel: [{ id: 42, type: 'EMAIL', config: { address: 'a@example.com' } }],
    });
    const code = synthesized(() => {
      new EmailAlertChannel('pagerduty-oncall', { address: 'a@example.com' });
    });
    const options = { now: NOW, referencedBy: referenced };
    const removed = plan([], liveNow, state, options);
    const replaced = plan(code, liveNow, state, { ...options, replace: ['pagerduty-oncall'] });
    const destroyed = plan(code, liveNow, state, { ...options, mode: 'destroy' });
    const reasons = (conflicts: Conflict[]) => conflicts.map((c) => [c.reason, c.value, c.construct]);
    expect(reasons(removed.conflicts)).toEqual([['referenced', 'delete', undefined]]);
    expect(reasons(replaced.conflicts)).toEqual([['referenced', 'replace', 'EmailAlertChannel']]);
    expect(reasons(destroyed.conflicts)).toEqual([['referenced', 'delete', 'EmailAlertChannel']]);
    // At the construct, when the code has it.
    expect(destroyed.conflicts[0]?.location?.file).toMatch(/project-refs\.test\.ts$/);
    // The delete stays in the plan: it is what the code asks for.
    expect(removed.operations.map((o) => o.action)).toEqual(['delete']);
    const forced = plan([], liveNow, state, { ...options, forceOrphan: true });
    expect(forced.conflicts).toEqual([]);
    expect(forced.orphaned).toEqual([
      { key: 'AlertChannel:pagerduty-oncall', usedBy: ['team/CheckGroup:api'] },
    ]);
  });
});

describe('the conflicts of references, for people', () => {
  const unresolved = (missing: Conflict['missing']): Conflict => ({
    reason: 'unresolved',
    kind: 'CheckGroup',
    logicalId: 'api',
    construct: 'CheckGroup',
    field: 'alertChannelSubscriptions[0].alertChannelId',
    value: 'AlertChannel:pagerduty-oncall',
    holder: 'platform',
    missing,
  });

  it('an unresolved reference names the project and the construct, and says to deploy that project first', () => {
    expect(describeConflict(unresolved('construct'))).toEqual({
      message:
        "references AlertChannel.fromProject('platform', 'pagerduty-oncall'), which project \"platform\" has not deployed into this account",
      hint: 'deploy project "platform" first (monitor deploy --project platform in its workspace, or monitor deploy --all, which deploys projects in dependency order), then this one; if "pagerduty-oncall" is not in project "platform", fix the logical id',
    });
    expect(describeConflict(unresolved('project')).message).toBe(
      "references AlertChannel.fromProject('platform', 'pagerduty-oncall'), but no project \"platform\" has state in this account: it has not deployed here, or is not of this workspace or state database",
    );
    expect(describeConflict(unresolved('project')).hint).toContain('monitor deploy --project platform');
    expect(describeConflict(unresolved('resource')).message).toBe(
      "references AlertChannel.fromProject('platform', 'pagerduty-oncall'), but the AlertChannel project \"platform\" records for it is gone from the account",
    );
  });

  it('a referenced delete names the referencing projects and their constructs, and the flags that force it', () => {
    const c: Conflict = {
      reason: 'referenced',
      kind: 'AlertChannel',
      logicalId: 'pagerduty-oncall',
      field: 'action',
      value: 'delete',
      live: { id: 42 },
      usedBy: ['team-payments/CheckGroup:payments-api', 'team-search/CheckGroup:search-api'],
    };
    expect(describeConflict(c)).toEqual({
      message:
        'would be deleted, but projects "team-payments", "team-search" reference it (team-payments: CheckGroup:payments-api, team-search: CheckGroup:search-api): their alerts would go nowhere',
      hint: 'remove the references from projects "team-payments", "team-search" and deploy them first; to delete it anyway and leave those references unresolved, run again with --allow-deletes --force-orphan',
    });
    expect(describeConflict({ ...c, value: 'replace', usedBy: ['team/CheckGroup:api'] }).message).toBe(
      'would be replaced (deleted, and made again with another id), but project "team" references it (team: CheckGroup:api): its alerts would go nowhere',
    );
  });
});
