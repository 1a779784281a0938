import {
  CheckGroup,
  createSession,
  type DesiredResource,
  EmailAlertChannel,
  MaintenanceWindow,
  SlackAlertChannel,
  StatusPage,
  StatusPageService,
  synth,
} from '@monitor/constructs';
import { beforeEach, describe, expect, it } from 'vitest';
import { apply } from '../apply/apply.js';
import { secretHasher } from '../hash.js';
import { emptyLive, readLive } from '../live/read-live.js';
import { renderPlanMarkdown } from '../render/markdown.js';
import { BOTH_NOTE, renderPlanText } from '../render/render.js';
import { PLAIN } from '../render/style.js';
import { emptyState, type State } from '../state/state.js';
import { FakeAccount, MemoryBackend } from '../test-support/doubles.js';
import { construct, entry, liveOf, stateOf } from '../test-support/planning.js';
import {
  appliedHash,
  type Live,
  type LiveResource,
  plan,
  resolveRefs,
  type UpdateOperation,
} from './plan.js';
import { planToJson } from './plan-json.js';
import { hasChanges, hasWork } from './queries.js';

const NOW = { now: new Date('2026-11-21T00:00:00Z'), secretKey: 'team-state-secret' };
const ACCOUNT = 'acct';

function desired(): DesiredResource[] {
  const { resources, diagnostics } = synth();
  expect(diagnostics).toEqual([]);
  return resources;
}

/** What the service sends back for an applied payload: ids, server fields, sets reordered, secrets emptied. */
function asLive(
  d: DesiredResource,
  id: string | number,
  ids = new Map<string, string | number>(),
): LiveResource {
  const payload = resolveRefs(d.payload, ids) as Record<string, unknown>;
  const out: Record<string, unknown> = { ...payload, id, created_at: '2026-11-01', updated_at: null };
  if (Array.isArray(out.tags)) out.tags = [...(out.tags as string[])].sort().reverse();
  if (Array.isArray(out.environmentVariables)) {
    out.environmentVariables = (out.environmentVariables as { secret?: boolean }[])
      .map((v) => (v.secret ? { ...v, value: '' } : v))
      .reverse();
  }
  return out as LiveResource;
}

/** The account and state after a real apply of `resources` to an empty fake account. */
async function deployed(
  resources: DesiredResource[],
  secretKey: string | undefined = NOW.secretKey,
): Promise<{ live: Live; state: State }> {
  const account = new FakeAccount();
  const backend = new MemoryBackend(emptyState(ACCOUNT));
  const result = await apply(plan(resources, emptyLive(), await backend.read(), { ...NOW, secretKey }), {
    client: account,
    backend,
  });
  expect(result.ok).toBe(true);
  return { live: await readLive(account), state: result.state };
}

beforeEach(() => {
  createSession();
});

describe('plan', () => {
  it('creates everything on an empty account, referenced resources listed as dependencies', async () => {
    const mail = new EmailAlertChannel('mail', { address: 'a@example.com' });
    new CheckGroup('g', { name: 'G', alertChannels: [mail] });
    const p = plan(desired(), emptyLive(), emptyState(ACCOUNT), NOW);
    expect(p.operations.map((o) => [o.action, o.kind, o.logicalId])).toEqual([
      ['create', 'AlertChannel', 'mail'],
      ['create', 'CheckGroup', 'g'],
    ]);
    const group = p.operations[1];
    expect(group?.action === 'create' && group.dependsOn).toEqual(['AlertChannel:mail']);
    // Unknown until the channel exists: the reference stays for the deployer to resolve.
    expect(group?.action === 'create' && group.payload.alertChannelSubscriptions).toEqual([
      { alertChannelId: { $ref: 'AlertChannel:mail' }, activated: true },
    ]);
    expect(p.summary).toEqual({
      create: 2,
      update: 0,
      delete: 0,
      adopt: 0,
      move: 0,
      replace: 0,
      resend: 0,
      unchanged: 0,
    });
  });

  it('says nothing changed after a deploy, despite reordered sets, keyed lists, empty secrets and server fields', async () => {
    new CheckGroup('g', {
      name: 'G',
      tags: ['b', 'a', 'c'],
      environmentVariables: [
        { key: 'PLAIN', value: 'x' },
        { key: 'TOKEN', value: 'canary-secret', secret: true },
      ],
    });
    new MaintenanceWindow('w', {
      name: 'W',
      startsAt: '2026-12-01T10:00:00Z',
      endsAt: '2026-12-01T12:00:00Z',
    });
    const d = desired();
    const { live, state } = await deployed(d);
    // The service echoes dates in its own form.
    (live.MaintenanceWindow[0] as Record<string, unknown>).startsAt = '2026-12-01T10:00:00.000Z';
    const p = plan(d, live, state, NOW);
    expect(p.operations).toEqual([]);
    expect(p.unchanged).toBe(2);
  });

  it('sends a removed prop back to its default, explicitly', async () => {
    new CheckGroup('g', { name: 'G', concurrency: 7, muted: true });
    const before = desired();
    const { live, state } = await deployed(before);
    createSession();
    new CheckGroup('g', { name: 'G' });
    const p = plan(desired(), live, state, NOW);
    const update = p.operations[0] as UpdateOperation;
    expect(update.action).toBe('update');
    expect(update.drift).toBe(false);
    expect(update.changes).toEqual([
      { path: 'muted', before: true, after: false, cause: 'code' },
      { path: 'concurrency', before: 7, after: 3, cause: 'code' },
    ]);
    expect(update.payload.concurrency).toBe(3);
    expect(update.unchangedAttributes).toBeGreaterThan(10);
  });

  it('matches records by key, not position, and names them in paths', async () => {
    const api = new StatusPageService('api', { name: 'API' });
    const web = new StatusPageService('web', { name: 'Web' });
    new StatusPage('p', { name: 'P', url: 'p', cards: [{ name: 'A', services: [api, web] }, { name: 'B' }] });
    const { live, state } = await deployed(desired());
    const page = live.StatusPage[0] as Record<string, unknown>;
    // Live cards come back reordered, with server ids and full service objects.
    const cards = page.cards as { name: string; services: { id: unknown }[] }[];
    page.cards = [...cards].reverse().map((c, i) => ({
      ...c,
      id: `card-${i}`,
      services: [...c.services].reverse().map((s) => ({ ...s, name: 'x', accountId: 'a' })),
    }));
    expect(plan(desired(), live, state, NOW).operations).toEqual([]);
    page.cards = [{ name: 'A', id: 'card-0', services: [] }];
    const update = plan(desired(), live, state, NOW).operations[0] as UpdateOperation;
    expect(update.changes.map((c) => c.path)).toEqual([
      'cards[A].services[api]',
      'cards[A].services[web]',
      'cards[B]',
    ]);
  });

  it('compares secrets by hash from state: never printed, a change shows as sensitive', async () => {
    new CheckGroup('g', {
      name: 'G',
      environmentVariables: [{ key: 'TOKEN', value: 'old-canary-secret', secret: true }],
    });
    const { live, state } = await deployed(desired());
    createSession();
    new CheckGroup('g', {
      name: 'G',
      environmentVariables: [{ key: 'TOKEN', value: 'new-canary-secret', secret: true }],
    });
    const p = plan(desired(), live, state, NOW);
    const update = p.operations[0] as UpdateOperation;
    expect(update.changes).toEqual([
      {
        path: 'environmentVariables[TOKEN].value',
        before: '(sensitive value)',
        after: '(sensitive value)',
        sensitive: true,
        cause: 'code',
      },
    ]);
    const text = JSON.stringify(update.changes);
    expect(text).not.toContain('canary-secret');
  });

  it('never takes a live resource it does not own: a conflict, unless the construct says adopt: true', async () => {
    new CheckGroup('g', { name: 'Payments', tags: ['x'] });
    const d = desired();
    const live = emptyLive();
    live.CheckGroup.push({ ...asLive(d[0] as DesiredResource, 45), tags: [] });
    live.CheckGroup.push({ ...asLive(d[0] as DesiredResource, 46), name: 'Someone else', tags: [] });
    const refused = plan(d, live, emptyState(ACCOUNT), NOW);
    expect(refused.operations).toEqual([]);
    expect(refused.conflicts).toMatchObject([
      {
        reason: 'exists',
        kind: 'CheckGroup',
        logicalId: 'g',
        field: 'name',
        value: 'Payments',
        live: { id: 45, name: 'Payments' },
      },
    ]);

    createSession();
    new CheckGroup('g', { name: 'Payments', tags: ['x'] }, { adopt: true });
    const p = plan(desired(), live, emptyState(ACCOUNT), NOW);
    expect(p.conflicts).toEqual([]);
    expect(p.operations).toHaveLength(1);
    const adopt = p.operations[0] as UpdateOperation;
    expect(adopt).toMatchObject({ action: 'adopt', physicalId: 45, drift: false });
    // Nothing was applied to an adopted resource: every change is the code's.
    expect(adopt.changes).toEqual([{ path: 'tags', before: [], after: ['x'], cause: 'code' }]);
    expect(p.summary.adopt).toBe(1);
  });

  it('resumes the create an interrupted deploy sent, found by natural key, without adopt: true', async () => {
    new CheckGroup('g', { name: 'Payments' });
    const d = desired();
    const live = emptyLive();
    live.CheckGroup.push(asLive(d[0] as DesiredResource, 45));
    const state = emptyState(ACCOUNT);
    state.pendingCreates = ['CheckGroup:g'];
    const p = plan(d, live, state, NOW);
    expect(p.conflicts).toEqual([]);
    expect(p.operations).toMatchObject([{ action: 'adopt', physicalId: 45, resumed: true }]);
  });

  it('calls a renamed logical id without aliases a conflict, naming the alias to add', async () => {
    new StatusPage('old-id', { name: 'P', url: 'acme-status' });
    const { live, state } = await deployed(desired());
    createSession();
    new StatusPage('new-id', { name: 'P', url: 'acme-status' });
    const p = plan(desired(), live, state, NOW);
    expect(p.conflicts).toMatchObject([
      { reason: 'rename', logicalId: 'new-id', holder: 'old-id', field: 'url', value: 'acme-status' },
    ]);
    // The create is not placed; the delete stays in the plan to show what the code asks for.
    expect(p.operations.map((o) => [o.action, o.logicalId])).toEqual([['delete', 'old-id']]);
  });

  it('finds a unique key that a live resource holds: not ours (exists) or ours under another id (taken)', async () => {
    new StatusPage('kept', { name: 'Kept', url: 'kept', customDomain: 'status.acme.com' }, { protect: true });
    const { live, state } = await deployed(desired());
    live.StatusPage.push({
      id: 'theirs',
      name: 'Theirs',
      url: 'theirs',
      customDomain: 'status.other.com',
    } as LiveResource);
    createSession();
    new StatusPage('a', { name: 'A', url: 'a', customDomain: 'status.acme.com' });
    new StatusPage('b', { name: 'B', url: 'b', customDomain: 'STATUS.other.com' });
    const p = plan(desired(), live, state, NOW);
    expect(p.conflicts.map((c) => [c.logicalId, c.reason, c.field, c.holder])).toEqual([
      ['a', 'taken', 'customDomain', 'kept'],
      ['b', 'exists', 'customDomain', undefined],
    ]);
    expect(p.operations).toEqual([]);
  });

  it('records a protect change on an unchanged resource in state, with no call', async () => {
    new CheckGroup('g', { name: 'G' });
    const { live, state } = await deployed(desired());
    createSession();
    new CheckGroup('g', { name: 'G' }, { protect: true });
    const p = plan(desired(), live, state, NOW);
    expect(p.operations).toEqual([]);
    expect(p.protectChanged).toEqual([{ key: 'CheckGroup:g', protect: true }]);
    const backend = new MemoryBackend(state);
    const account = new FakeAccount();
    const result = await apply(p, { client: account, backend });
    expect(result.ok).toBe(true);
    expect(result.state.resources['CheckGroup:g']?.protect).toBe(true);
    expect(account.requestCount).toBe(0);
  });

  it('keeps what a kept protected resource refers to: its channel is not deleted under it', async () => {
    const mail = new EmailAlertChannel('mail', { address: 'a@example.com' });
    const other = new EmailAlertChannel('other', { address: 'b@example.com' });
    new CheckGroup('g', { name: 'G', alertChannels: [mail] }, { protect: true });
    new CheckGroup('h', { name: 'H', alertChannels: [other] });
    const { live, state } = await deployed(desired());
    const p = plan([], live, state, { ...NOW, mode: 'destroy' });
    expect(p.operations.map((o) => [o.action, o.logicalId]).sort()).toEqual([
      ['delete', 'h'],
      ['delete', 'other'],
    ]);
    expect(p.protectedKept).toEqual(['CheckGroup:g']);
    expect(p.keptForProtected).toEqual([{ key: 'AlertChannel:mail', by: 'CheckGroup:g' }]);
    const forced = plan([], live, state, { ...NOW, mode: 'destroy', forceProtected: true });
    expect(forced.operations).toHaveLength(4);
  });

  it('without a state secret, masked secrets cannot be compared: sent again, never called drift, nothing hashed', async () => {
    new CheckGroup('g', { name: 'G', environmentVariables: [{ key: 'TOKEN', value: 'v', secret: true }] });
    const d = desired();
    const account = new FakeAccount();
    const backend = new MemoryBackend(emptyState(ACCOUNT));
    const unkeyed = { now: NOW.now };
    const created = await apply(plan(d, emptyLive(), await backend.read(), unkeyed), {
      client: account,
      backend,
    });
    expect(created.state.resources['CheckGroup:g']?.secretHashes).toEqual({});
    const p = plan(d, await readLive(account), created.state, unkeyed);
    expect(p.unverifiedSecrets).toBe(1);
    // No change a diff reports (a drift check stays green), but a deploy sends it again.
    expect(p.summary).toMatchObject({ update: 0, resend: 1 });
    expect(hasChanges(p)).toBe(false);
    expect(hasWork(p)).toBe(true);
    expect(p.operations).toMatchObject([
      {
        action: 'update',
        drift: false,
        changes: [{ path: 'environmentVariables[TOKEN].value', unverified: true }],
      },
    ]);
    // With the key set, one update records the hash; after it, no churn.
    const keyed = await apply(plan(d, await readLive(account), created.state, NOW), {
      client: account,
      backend,
    });
    expect(Object.values(keyed.state.resources['CheckGroup:g']?.secretHashes ?? {})[0]).toMatch(
      /^hmac-sha256:/,
    );
    expect(plan(d, await readLive(account), keyed.state, NOW).operations).toEqual([]);
    // A different key: sent once more, as a changed sensitive value.
    const rekeyed = plan(d, await readLive(account), keyed.state, { ...NOW, secretKey: 'rotated' });
    expect(rekeyed.operations).toMatchObject([{ changes: [{ sensitive: true }] }]);
    expect((rekeyed.operations[0] as UpdateOperation).changes[0]?.unverified).toBeUndefined();
  });

  it('finds the alert channel an interrupted create made by its content, and only when a create was pending', async () => {
    new EmailAlertChannel('a', { address: 'a@example.com' });
    new EmailAlertChannel('b', { address: 'b@example.com' });
    const d = desired();
    const live = emptyLive();
    live.AlertChannel.push(asLive(d[0] as DesiredResource, 7));
    live.AlertChannel.push({
      ...asLive(d[1] as DesiredResource, 8),
      config: { address: 'other@example.com' },
    });
    // No create was pending: a channel with the same content is someone else's, never taken.
    const none = plan(d, live, emptyState(ACCOUNT), NOW);
    expect(none.operations.map((o) => o.action)).toEqual(['create', 'create']);
    const state = emptyState(ACCOUNT);
    state.pendingCreates = ['AlertChannel:a', 'AlertChannel:b'];
    const p = plan(d, live, state, NOW);
    expect(p.operations.map((o) => [o.action, o.logicalId])).toEqual([
      ['adopt', 'a'],
      ['create', 'b'],
    ]);
    expect(p.operations[0]).toMatchObject({ physicalId: 7, resumed: true, changes: [] });
    expect(p.abandonedCreates).toEqual([]);
    // A pending create whose construct left the code is dropped, and says so.
    state.pendingCreates.push('AlertChannel:gone');
    expect(plan(d, live, state, NOW).abandonedCreates).toEqual(['AlertChannel:gone']);
  });

  it('moves the state entry of a renamed construct: no create, no delete', async () => {
    new CheckGroup('old-id', { name: 'G' });
    const { live, state } = await deployed(desired());
    createSession();
    new CheckGroup('new-id', { name: 'G' }, { aliases: ['old-id'] });
    const p = plan(desired(), live, state, NOW);
    expect(p.operations.map((o) => [o.action, o.logicalId])).toEqual([['move', 'new-id']]);
    expect(p.operations[0]).toMatchObject({ from: 'old-id', physicalId: 1, changes: [] });
  });

  it('deletes only what state owns; keeps protected resources; forgets what is already gone', async () => {
    new CheckGroup('keep', { name: 'Keep' });
    new CheckGroup('drop', { name: 'Drop' });
    new CheckGroup('guarded', { name: 'Guarded' }, { protect: true });
    new CheckGroup('vanished', { name: 'Vanished' });
    const { live, state } = await deployed(desired());
    live.CheckGroup = live.CheckGroup.filter((g) => g.name !== 'Vanished');
    live.CheckGroup.push({ id: 99, name: 'Not ours', activated: true, concurrency: 3, apiCheckDefaults: {} });
    createSession();
    new CheckGroup('keep', { name: 'Keep' });
    const p = plan(desired(), live, state, NOW);
    expect(p.operations.map((o) => [o.action, o.logicalId])).toEqual([['delete', 'drop']]);
    expect(p.protectedKept).toEqual(['CheckGroup:guarded']);
    expect(p.forget).toEqual(['CheckGroup:vanished']);
  });

  it('tells drift (changed outside) from code changes', async () => {
    new CheckGroup('g', { name: 'G', concurrency: 3 });
    const { live, state } = await deployed(desired());
    (live.CheckGroup[0] as Record<string, unknown>).concurrency = 9; // someone edited it in the UI
    const drift = plan(desired(), live, state, NOW).operations[0] as UpdateOperation;
    expect(drift).toMatchObject({
      action: 'update',
      drift: true,
      changes: [{ path: 'concurrency', before: 9, after: 3 }],
    });
    createSession();
    new CheckGroup('g', { name: 'G', concurrency: 4 });
    const code = plan(desired(), live, state, NOW).operations[0] as UpdateOperation;
    expect(code.drift).toBe(false);
  });

  it('labels each changed field by its own cause: the code, the account, or both; each section lists its fields', async () => {
    new CheckGroup('g', { name: 'G', concurrency: 3, locations: ['eu-west-1'] });
    const { live, state } = await deployed(desired());
    const group = live.CheckGroup[0] as Record<string, unknown>;
    group.muted = true; // in the UI
    group.concurrency = 9; // in the UI, and in the code below
    createSession();
    new CheckGroup('g', { name: 'G', concurrency: 4, locations: ['eu-west-1', 'us-east-1'] });
    const p = plan(desired(), live, state, NOW);
    const update = p.operations[0] as UpdateOperation;
    // In the order of the kind's fields (the defaults follow the schema).
    expect(update.changes.map((c) => [c.path, c.cause])).toEqual([
      ['muted', 'account'],
      ['locations', 'code'],
      ['concurrency', 'both'],
    ]);
    expect(update.drift).toBe(false);

    const text = renderPlanText(p, PLAIN);
    const [fromCode, drift] = text.split('Drift: changed outside monitor');
    expect(fromCode).toContain(`concurrency: 9 → 4  (${BOTH_NOTE})`);
    expect(fromCode).toContain('locations: ["eu-west-1"] → ["eu-west-1","us-east-1"]');
    expect(fromCode).not.toContain('muted');
    expect(drift).toContain('~ CheckGroup g "G"');
    expect(drift).toContain('muted: true → false');
    expect(drift).not.toContain('concurrency');
    const markdown = renderPlanMarkdown(p, { project: 'p', account: ACCOUNT });
    expect(markdown).toContain(`! concurrency: ${BOTH_NOTE}`);
    expect(markdown.split('#### Drift')[1]).toContain('muted');
    expect(planToJson(p).operations[0]).toMatchObject({
      changes: [
        { path: 'muted', cause: 'account' },
        { path: 'locations', cause: 'code' },
        { path: 'concurrency', cause: 'both' },
      ],
    });
  });

  it('a secret the code changed is the code’s change, with or without the state secret', async () => {
    for (const secretKey of ['team-state-secret', undefined]) {
      createSession();
      new SlackAlertChannel('s', { url: 'https://hooks.slack.com/services/T0/B0/one', channel: '#ops' });
      const { live, state } = await deployed(desired(), secretKey);
      createSession();
      new SlackAlertChannel('s', { url: 'https://hooks.slack.com/services/T0/B0/two', channel: '#ops' });
      const p = plan(desired(), live, state, { ...NOW, secretKey });
      const update = p.operations[0] as UpdateOperation;
      expect(
        update.changes.map((c) => [c.path, c.cause]),
        String(secretKey),
      ).toEqual([['config.url', 'code']]);
      expect(update.drift).toBe(false);
      expect(renderPlanText(p, PLAIN)).not.toContain('Drift');
    }
  });

  it('state written before fields were hashed: a resource’s causes are its drift as a whole', async () => {
    new CheckGroup('g', { name: 'G', concurrency: 3 });
    const { live, state } = await deployed(desired());
    for (const e of Object.values(state.resources)) delete e.fieldHashes;
    (live.CheckGroup[0] as Record<string, unknown>).concurrency = 9;
    const drifted = plan(desired(), live, state, NOW).operations[0] as UpdateOperation;
    expect(drifted.changes.map((c) => c.cause)).toEqual(['account']);
    createSession();
    new CheckGroup('g', { name: 'G', concurrency: 4, muted: true });
    const edited = plan(desired(), live, state, NOW).operations[0] as UpdateOperation;
    expect(edited.changes.map((c) => c.cause)).toEqual(['code', 'code']);
  });

  it('recreates a resource in state that is gone from the account', async () => {
    new CheckGroup('g', { name: 'G' });
    const { state } = await deployed(desired());
    const p = plan(desired(), emptyLive(), state, NOW);
    expect(p.operations).toMatchObject([{ action: 'create', logicalId: 'g', recreate: true }]);
  });

  it("resolves references to the target's physical id for updates", async () => {
    const mail = new EmailAlertChannel('mail', { address: 'a@example.com' });
    new CheckGroup('g', { name: 'G' });
    const { live, state } = await deployed(desired());
    createSession();
    const mail2 = new EmailAlertChannel('mail', { address: 'a@example.com' });
    new CheckGroup('g', { name: 'G', alertChannels: [mail2] });
    expect(mail).not.toBe(mail2);
    const update = plan(desired(), live, state, NOW).operations[0] as UpdateOperation;
    expect(update.changes).toEqual([
      {
        path: 'alertChannelSubscriptions[mail]',
        before: null,
        after: { alertChannelId: 1, activated: true },
        cause: 'code',
      },
    ]);
  });

  it('records the state serial it was made against', async () => {
    const state = emptyState(ACCOUNT);
    state.serial = 17;
    expect(plan([], emptyLive(), state, NOW).stateSerial).toBe(17);
  });
});

describe('plan over hand-made state and live', () => {
  const keyed = { now: NOW.now, secretKey: 'team-state-secret' };
  const unkeyed = { now: NOW.now };

  it('a create carries the name people know it by, and is no recreate when state never had it', () => {
    const p = plan(
      [construct('CheckGroup', 'g', { name: 'Payments' })],
      emptyLive(),
      emptyState(ACCOUNT),
      keyed,
    );
    expect(p.operations).toMatchObject([{ action: 'create', name: 'Payments', recreate: false }]);
    expect(p.mode).toBe('apply');
  });

  it('an unchanged resource whose protect did not change records nothing', () => {
    const state = stateOf([entry('CheckGroup', 'g', 1, { protect: true })]);
    const g = construct('CheckGroup', 'g', { name: 'G' }, { protect: true });
    const p = plan([g], liveOf({ CheckGroup: [{ id: 1, name: 'G' }] }), state, keyed);
    expect(p.operations).toEqual([]);
    expect(p.unchanged).toBe(1);
    expect(p.protectChanged).toEqual([]);
  });

  it('drift is told by the values that could be compared, even beside a secret that could not', () => {
    const payload = {
      name: 'G',
      concurrency: 3,
      environmentVariables: [{ key: 'TOKEN', value: 'v', locked: false, secret: true }],
    };
    const applied = appliedHash('CheckGroup', payload, secretHasher(undefined, 'salt'));
    const state = stateOf([entry('CheckGroup', 'g', 1, { appliedHash: applied })]);
    state.salt = 'salt';
    const live = liveOf({
      CheckGroup: [
        {
          id: 1,
          name: 'G',
          concurrency: 9, // edited in the UI
          environmentVariables: [{ key: 'TOKEN', value: '', locked: false, secret: true }],
        },
      ],
    });
    const p = plan([construct('CheckGroup', 'g', payload)], live, state, unkeyed);
    expect(p.operations).toMatchObject([{ action: 'update', drift: true }]);
    expect((p.operations[0] as UpdateOperation).changes.map((c) => [c.path, c.unverified === true])).toEqual([
      ['concurrency', false],
      ['environmentVariables[TOKEN].value', true],
    ]);
    // Only the value that could not be compared counts as unverified.
    expect(p.unverifiedSecrets).toBe(1);
  });

  it('adopt: true is no resumed create, and an update is neither', () => {
    const state = stateOf([entry('CheckGroup', 'mine', 1)]);
    const live = liveOf({
      CheckGroup: [
        { id: 1, name: 'Mine', concurrency: 1 },
        { id: 2, name: 'Theirs', concurrency: 1 },
      ],
    });
    const p = plan(
      [
        construct('CheckGroup', 'mine', { name: 'Mine', concurrency: 2 }),
        construct('CheckGroup', 'theirs', { name: 'Theirs', concurrency: 2 }, { adopt: true }),
      ],
      live,
      state,
      keyed,
    );
    expect(p.operations.map((o) => [o.action, (o as UpdateOperation).resumed])).toEqual([
      ['update', undefined],
      ['adopt', undefined],
    ]);
  });

  it('names a referenced resource in change paths by its logical id: from state, or renamed in code', () => {
    const state = stateOf([entry('AlertChannel', 'mail', 3), entry('CheckGroup', 'g', 1)]);
    const live = liveOf({
      AlertChannel: [{ id: 3, type: 'EMAIL', config: { address: 'ops@example.com' } }],
      CheckGroup: [{ id: 1, name: 'G', alertChannelSubscriptions: [{ alertChannelId: 3, activated: true }] }],
    });
    // The channel left the code: the subscription to it goes, named as state knows it.
    const dropped = plan(
      [construct('CheckGroup', 'g', { name: 'G', alertChannelSubscriptions: [] })],
      live,
      state,
      keyed,
    );
    expect((dropped.operations[0] as UpdateOperation).changes.map((c) => c.path)).toEqual([
      'alertChannelSubscriptions[mail]',
    ]);
    // The channel was renamed (a move): it is named by its new logical id.
    const renamed = plan(
      [
        construct(
          'AlertChannel',
          'ops',
          { type: 'EMAIL', config: { address: 'ops@example.com' } },
          { aliases: ['mail'] },
        ),
        construct('CheckGroup', 'g', {
          name: 'G',
          alertChannelSubscriptions: [{ alertChannelId: { $ref: 'AlertChannel:ops' }, activated: false }],
        }),
      ],
      live,
      state,
      keyed,
    );
    const group = renamed.operations.find((o) => o.logicalId === 'g') as UpdateOperation;
    expect(group.changes.map((c) => c.path)).toEqual(['alertChannelSubscriptions[ops].activated']);
  });

  it('destroy plans every owned resource away, whatever the code says', () => {
    const state = stateOf([entry('CheckGroup', 'g', 1)]);
    const live = liveOf({ CheckGroup: [{ id: 1, name: 'G' }] });
    const p = plan([construct('CheckGroup', 'g', { name: 'G' })], live, state, { ...keyed, mode: 'destroy' });
    expect(p.mode).toBe('destroy');
    expect(p.operations.map((o) => [o.action, o.logicalId])).toEqual([['delete', 'g']]);
    expect(p.unchanged).toBe(0);
  });

  it('forceProtected counts only when destroying', () => {
    const state = stateOf([entry('CheckGroup', 'g', 1, { protect: true })]);
    const live = liveOf({ CheckGroup: [{ id: 1, name: 'G' }] });
    const p = plan([], live, state, { ...keyed, forceProtected: true });
    expect(p.operations).toEqual([]);
    expect(p.protectedKept).toEqual(['CheckGroup:g']);
  });

  it('lists abandoned creates in order', () => {
    const state = stateOf([], ['CheckGroup:b', 'AlertChannel:z', 'CheckGroup:a']);
    expect(plan([], emptyLive(), state, keyed).abandonedCreates).toEqual([
      'AlertChannel:z',
      'CheckGroup:a',
      'CheckGroup:b',
    ]);
  });

  it('a construct in conflict is in one conflict, not one per stage', () => {
    // The url is the status page's natural key and a unique key: matching finds it first.
    const live = liveOf({ StatusPage: [{ id: 'p-1', name: 'Theirs', url: 'acme' }] });
    const p = plan(
      [construct('StatusPage', 'p', { name: 'P', url: 'acme' })],
      live,
      emptyState(ACCOUNT),
      keyed,
    );
    expect(p.conflicts.map((c) => [c.reason, c.logicalId, c.field])).toEqual([['exists', 'p', 'url']]);
    expect(p.operations).toEqual([]);
  });
});
